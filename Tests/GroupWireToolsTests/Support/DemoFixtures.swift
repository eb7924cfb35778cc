import Foundation
import GroupWire
import GroupWireCapture
import GroupWireTools

/// Demo-file bytes for the inspect and demo tests.
enum DemoFixtures {
    /// The demo frames with one byte of the second frame's body flipped, and the lengths
    /// of the first two frames.
    static func corruptedDemoBytes() throws -> (bytes: [UInt8], firstLength: Int, secondLength: Int) {
        var bytes = try FrameFileWriter().contents(of: DemoMessages.frames())
        let first = try FrameEncoder().encode(DemoMessages.frames()[0].frame).count
        let second = try FrameEncoder().encode(DemoMessages.frames()[1].frame).count
        bytes[first + 20] ^= 0x01
        return (bytes, first, second)
    }

    /// A fresh path in the temporary folder whose name ends with `name`; the caller removes it.
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "groupwire-demo-\(UUID().uuidString)-\(name)"
    }
}
