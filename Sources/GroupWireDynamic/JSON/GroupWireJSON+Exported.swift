// The dynamic codec reads and writes GroupWireJSON's values: importing GroupWireDynamic is
// enough to build, parse and write them.
@_exported public import GroupWireJSON
