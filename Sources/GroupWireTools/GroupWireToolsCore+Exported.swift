// The generate command, the results and the spec loading every command shares live in
// GroupWireToolsCore (so the plugins' tool builds without zstd); importing GroupWireTools
// brings them along.
@_exported import GroupWireToolsCore
