// DO NOT EDIT: Spec/Control.gwspec as text, written by `make regenerate`
// (ControlSpecTests, GROUPWIRE_RECORD_GOLDENS=1). Edit the spec and regenerate.

extension ControlSpec {
    /// The text of Spec/Control.gwspec.
    static let text = #"""
        /// GroupWire's own control messages: the bodies of control frames (Spec/FORMAT.md,
        /// "Control ids", "Session control", "Acknowledgement", "The hello"). The codecs of
        /// session control, acknowledgements and the hello are generated from this file
        /// (Sources/GroupWireNegotiation/Generated/Control.gwspec.swift, `package` access, with
        /// observed decoding; `make regenerate`); the checks the language cannot state (which
        /// fields are required, the ranges of session ids and streams, the bitmap's length, the
        /// hello's limits and table rules) stay hand-written beside them, in SessionControl.swift,
        /// DeliveryAck.swift and Hello+Decoding.swift. The Wireshark dissector names control frames
        /// from `ControlID`.
        ///
        /// A field every writer writes, even when it is 0 or empty, and every reader needs, is
        /// declared optional: the language writes an optional field whenever it is set, and an
        /// absent one reads as nil, which the hand-written checks report as `missingField`.
        ///
        /// The hello (control id 16) is described here too, from `HelloBody` down. Its reading is
        /// checked in one pass in body order (Spec/FORMAT.md, "Reading a hello"): GroupWireNegotiation
        /// reads it with the observed decoders generated from this file (`--observed-decoding`),
        /// whose observer runs the checks as each field is read (Hello+Decoding.swift). One field
        /// is not declared: a field entry's `5 default`, whose wire type is that of the field's own
        /// type, which no declaration can say; the generated code keeps it as an unknown field, and
        /// the checks read it (and the writer puts it there).
        package groupwire.control version 1

        /// The control id a control frame carries in its type id field.
        enum ControlID {
            /// Not a control message.
            0 none
            /// A session started, or is announced to a participant that just became reachable.
            1 activate
            /// The sender joined a session.
            2 join
            /// The sender left a session.
            3 leave
            /// A session's activity was replaced.
            4 replace
            /// A session ended for everyone.
            5 end
            /// What a peer reads and speaks (`HelloBody`, below).
            16 hello
            /// Which frames of a reliable stream arrived.
            32 acknowledgement
        }

        /// The body of an activation (1) or a replacement (4).
        struct ControlAnnouncement {
            /// The session id, 1 ... 2^32-1; required.
            1 session: UInt32?
            /// The activation's Lamport clock; absent reads as 0.
            2 activationClock: UInt64?
            /// Who activated the session; required.
            3 activator: UUID?
            /// The activity type's identifier (reverse-DNS); required.
            4 activityIdentifier: String?
            /// What the system shows about the activity.
            5 metadata: ControlMetadata
            /// The activity value in the Codable encoding of Spec/FORMAT.md; absent reads as empty.
            6 activity: Bytes?
            /// The Lamport clock of the activity's last replacement; absent reads as 0.
            7 activityClock: UInt64?
            /// Who set the current activity; absent: the activator.
            8 activitySetBy: UUID?
        }

        /// An activity's metadata inside an announcement.
        struct ControlMetadata {
            /// Absent reads as "".
            1 title: String?
            2 subtitle: String?
            /// The activity type's name; absent: the default type.
            3 type: String?
            4 fallbackURL: String?
        }

        /// The body of a join (2) or a leave (3).
        struct ControlMembership {
            /// The session id, 1 ... 2^32-1; required.
            1 session: UInt32?
        }

        /// The body of an end (5).
        struct ControlEnd {
            /// The session id, 1 ... 2^32-1; required.
            1 session: UInt32?
            /// The end's Lamport clock; absent reads as 0.
            2 clock: UInt64?
        }

        /// The body of an acknowledgement (32).
        struct ControlAcknowledgement {
            /// The reliable stream: odd, 3 ... 2^32-1; required.
            1 stream: UInt32?
            /// Every sequence 1 ... through arrived; 0 before the first; required.
            2 through: UInt64?
            /// The sequences held after the next missing one, as a bitmap of at most 1,024 bytes.
            3 received: Bytes
            /// Microseconds the acknowledgement was held back.
            4 delay: UInt64
            /// The highest sequence received again since the previous acknowledgement.
            5 duplicate: UInt64
        }

        /// The body of a hello (16): what a peer reads and speaks (Spec/FORMAT.md, "The hello").
        struct HelloBody {
            /// The lowest envelope version the peer reads and writes, 1 ... 255; required.
            1 minVersion: UInt8?
            /// The highest, minVersion ... 255; required.
            2 maxVersion: UInt8?
            /// The spec the peer speaks; absent for a peer without one (a tool).
            3 spec: HelloBodySpec?
            /// The compression codecs the peer decompresses; none: uncompressed frames only.
            4 codecs: [HelloBodyCodec]
            /// The largest frame the peer accepts, 64 ... 2^32-1.
            5 maxFrameSize: UInt32 = 65536
            /// The largest message the peer accepts, 1 ... 2^32-1.
            6 maxMessageSize: UInt32 = 16777216
            /// The schema table: one entry per declaration; only with a spec.
            7 types: [HelloBodyType]
        }

        /// The spec a peer speaks.
        struct HelloBodySpec {
            /// Identifiers joined by dots; required.
            1 package: String?
            /// Required.
            2 version: UInt64?
            /// FNV-1a 64 of the spec's canonical text; required.
            3 fingerprint: Fixed64?
        }

        /// A compression codec a peer decompresses.
        struct HelloBodyCodec {
            /// The compression header's codec, 1 ... 255 (1: zstd); required.
            1 codec: UInt8?
            /// The dictionaries it holds for the codec.
            2 dictionaries: [HelloBodyDictionary]
        }

        /// A dictionary a peer holds.
        struct HelloBodyDictionary {
            /// The dictionary id, 1 ... 2^32-1; required.
            1 id: UInt32?
            /// The first 8 bytes of the dictionary file's SHA-256, in digest order; required.
            2 contentHash: Fixed64?
        }

        /// One declaration of a hello's schema table.
        struct HelloBodyType {
            /// An identifier; required.
            1 name: String?
            /// 1 message, 2 struct, 3 enum, 4 union; required.
            2 kind: UInt8?
            /// A message's type id, 1 ... 2^32-1; required for messages, absent otherwise.
            3 typeID: UInt32?
            /// A message's fingerprint; required for messages, absent otherwise.
            4 fingerprint: Fixed64?
            /// A message's or struct's fields.
            5 fields: [HelloBodyField]
            /// An enum's or union's cases.
            6 cases: [HelloBodyCase]
            /// Reserved ranges as packed pairs `low, high`; only packed runs are read.
            7 reservedNumbers: [UInt64]
            /// Reserved names.
            8 reservedNames: [String]
            /// Declared in a file the entry file imports.
            9 imported: Bool
        }

        /// A field of a declaration in the schema table. Its `5 default`, a value of the field's
        /// type in the payload encoding, is not declared (see the top of this file).
        struct HelloBodyField {
            /// Required; judged against the language's number rules after reading.
            1 number: UInt64?
            /// An identifier; required.
            2 name: String?
            /// The type expression: packed varints, one type in prefix order; required.
            3 type: Bytes?
            /// The field is optional.
            4 optional: Bool
        }

        /// A case of an enum or union in the schema table.
        struct HelloBodyCase {
            /// Required.
            1 number: UInt64?
            /// An identifier; required.
            2 name: String?
            /// A union case's payload type expression, as a field's type.
            3 payload: Bytes?
        }
        """#
}
