#if canImport(Glibc)
    import Glibc
#endif

/// Reads the process's resident memory from /proc/self/status (Linux only).
enum MemoryProbe {
    /// The current resident set size and its high-water mark, in bytes; nil off Linux.
    static func residentBytes() -> (current: Int, peak: Int)? {
        #if canImport(Glibc)
            guard let file = fopen("/proc/self/status", "r") else { return nil }
            defer { fclose(file) }
            var current: Int?
            var peak: Int?
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.hasPrefix("VmRSS:") { current = kilobytes(text) }
                if text.hasPrefix("VmHWM:") { peak = kilobytes(text) }
            }
            guard let current, let peak else { return nil }
            return (current, peak)
        #else
            return nil
        #endif
    }

    /// Resets the high-water mark to the current resident size (Linux 4.0+).
    static func resetPeak() {
        #if canImport(Glibc)
            guard let file = fopen("/proc/self/clear_refs", "w") else { return }
            fputs("5", file)
            fclose(file)
        #endif
    }

    /// Makes glibc serve every allocation of 128 KiB or more with its own mapping, returned
    /// to the system on free. By default glibc raises that threshold after the first large
    /// free and then keeps freed 16 MiB blocks in its heap, which would hide the peak of
    /// every measurement after the first. Only the memory measurement uses this (in its
    /// own process): throughput is measured with the allocator's defaults, as apps run.
    static func fixMmapThreshold() {
        #if canImport(Glibc)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(-3, 128 * 1024)  // M_MMAP_THRESHOLD
        #endif
    }

    private static func kilobytes(_ line: String) -> Int? {
        let digits = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
        return digits.flatMap { Int($0) }.map { $0 * 1024 }
    }
}
