extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for closures that throw ``WireError``: the standard library's
    /// version rethrows untyped errors, which would erase the error type.
    @inlinable func withUnsafeWireBytes<R>(_ body: (UnsafeRawBufferPointer) throws(WireError) -> R) throws(WireError) -> R {
        let result: Result<R, WireError> = withUnsafeBytes { raw in
            do throws(WireError) {
                return .success(try body(raw))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
