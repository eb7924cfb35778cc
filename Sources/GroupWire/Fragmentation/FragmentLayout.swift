/// How a message body is cut into fragments: every fragment but the last carries
/// ``fragmentBodySize`` bytes, the last carries the rest (1 ... ``fragmentBodySize`` bytes).
///
/// Fragment `i` covers bytes `i × fragmentBodySize ..< min((i + 1) × fragmentBodySize,
/// totalLength)` of the body. Because the layout is uniform, any single fragment implies
/// the whole layout (Spec/FORMAT.md, "Fragment frames", "Consistency rules"), so a receiver can
/// validate a message completely from whichever fragment arrives first.
public struct FragmentLayout: Sendable, Hashable {
    /// The length of the whole body, in bytes (at least ``count``).
    public let totalLength: Int
    /// The body size of every fragment but the last.
    public let fragmentBodySize: Int
    /// The number of fragments, at least 2.
    public let count: Int

    /// Creates the layout that cuts `totalLength` bytes into pieces of `fragmentBodySize`.
    ///
    /// Returns nil unless both are positive and the cut yields at least two fragments.
    public init?(totalLength: Int, fragmentBodySize: Int) {
        guard totalLength > 0, fragmentBodySize > 0, totalLength > fragmentBodySize else { return nil }
        self.totalLength = totalLength
        self.fragmentBodySize = fragmentBodySize
        count = (totalLength - 1) / fragmentBodySize + 1
    }

    /// The bytes of the body that fragment `index` carries.
    /// - Precondition: `index` is in `0 ..< count` (callers check it first).
    public func range(ofFragment index: Int) -> Range<Int> {
        // index < count, so start < totalLength; the length is taken from what is left,
        // which cannot overflow.
        let start = index * fragmentBodySize
        return start..<(start + min(fragmentBodySize, totalLength - start))
    }

    /// The layout one fragment implies, after the checks that need nothing but that
    /// fragment and the limits.
    ///
    /// - Parameters:
    ///   - info: the fragment header.
    ///   - bodyCount: the number of body bytes the fragment carries.
    ///   - limits: `maxFragmentCount` and `maxMessageSize` bound the count and total length.
    /// - Throws: ``WireError/Kind/limitExceeded`` when the count or total is over a limit;
    ///   ``WireError/Kind/invalidFragment`` when the fields contradict each other or the
    ///   uniform layout (a total that lies, an offset that overlaps another fragment).
    public static func implied(by info: FragmentInfo, bodyCount: Int, limits: Limits) throws(WireError) -> FragmentLayout {
        guard info.count >= 2, info.index < info.count else {
            throw WireError(
                .invalidFragment,
                "fragment index \(info.index) of count \(info.count): count must be at least 2 and index below it")
        }
        guard Int(info.count) <= limits.maxFragmentCount else {
            throw WireError(.limitExceeded, "fragment count \(info.count) is over maxFragmentCount \(limits.maxFragmentCount)")
        }
        // Clamping: a negative limit (a configuration mistake) admits nothing rather than trapping.
        guard info.totalLength <= UInt64(clamping: limits.maxMessageSize) else {
            throw WireError(
                .limitExceeded, "message total length \(info.totalLength) is over maxMessageSize \(limits.maxMessageSize)")
        }
        // From here totalLength fits an Int and count <= maxFragmentCount.
        let total = Int(info.totalLength)
        let index = Int(info.index)
        let count = Int(info.count)
        let chunk: Int
        if index < count - 1 {
            chunk = bodyCount
            guard chunk > 0 else {
                throw WireError(
                    .invalidFragment,
                    "fragment \(index) of \(count) is empty; only the last fragment may be shorter than the others, and none may be empty"
                )
            }
            let (expected, overflow) = index.multipliedReportingOverflow(by: chunk)
            guard !overflow, UInt64(expected) == info.offset else {
                throw WireError(
                    .invalidFragment,
                    "fragment \(index) carries \(chunk) bytes at offset \(info.offset), but a uniform layout puts it at \(index) × \(chunk)"
                )
            }
        } else {
            // The last fragment: its offset is (count - 1) × chunk and it ends at the total.
            guard info.offset % UInt64(index) == 0, info.offset > 0 else {
                throw WireError(
                    .invalidFragment, "last fragment's offset \(info.offset) is not a positive multiple of its index \(index)")
            }
            guard bodyCount > 0, UInt64(bodyCount) <= info.totalLength, info.offset == info.totalLength - UInt64(bodyCount) else {
                throw WireError(
                    .invalidFragment,
                    "last fragment covers \(info.offset)..<\(info.offset)+\(bodyCount) but must end exactly at total length \(total)"
                )
            }
            // offset < total <= maxMessageSize, so it fits an Int.
            chunk = Int(info.offset) / index
            guard bodyCount <= chunk else {
                throw WireError(
                    .invalidFragment, "last fragment carries \(bodyCount) bytes, more than the \(chunk) of the others")
            }
        }
        // The total must need exactly `count` fragments of `chunk` bytes:
        // (count - 1) × chunk < total <= count × chunk.
        let (full, overflow) = count.multipliedReportingOverflow(by: chunk)
        // safe because: count >= 2 and chunk >= 1, so full - chunk cannot underflow.
        guard !overflow, total <= full, total > full - chunk,
            let layout = FragmentLayout(totalLength: total, fragmentBodySize: chunk), layout.count == count
        else {
            throw WireError(.invalidFragment, "total length \(total) does not take \(count) fragments of \(chunk) bytes")
        }
        return layout
    }
}
