import Foundation
import GroupWire
import GroupWireTestSupport

/// The UUID of the FORMAT.md payload example.
let exampleID = UUID("6F1C2A9E-4B7D-4E0F-8A3B-5C6D7E8F9A0B")
/// A second UUID for maps and references.
let otherID = UUID("00000000-0000-0000-0000-0000000000AB")
