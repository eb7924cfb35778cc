// DO NOT EDIT: Spec/Control.gwspec as text, written by `make regenerate`
// (ControlSpecTests, GROUPWIRE_RECORD_GOLDENS=1). Edit the spec and regenerate.

extension ControlSpec {
    /// The text of Spec/Control.gwspec.
    static let text = #"""
        /// GroupWire's own control messages: the bodies of control frames (Spec/FORMAT.md,
        /// "Control ids", "Session control", "Acknowledgement"). GroupWireSession's codecs of
        /// session control and acknowledgements are generated from this file
        /// (Sources/GroupWireSession/Control/Control.gwspec.swift, internal, `make regenerate`);
        /// the checks the language cannot state (which fields are required, the ranges of session
        /// ids and streams, the bitmap's length) stay hand-written beside them, in
        /// SessionControl.swift and DeliveryAck.swift. The Wireshark dissector names control
        /// frames from `ControlID`.
        ///
        /// A field every writer writes, even when it is 0 or empty, and every reader needs, is
        /// declared optional: the language writes an optional field whenever it is set, and an
        /// absent one reads as nil, which the hand-written checks report as `missingField`.
        ///
        /// The hello (control id 16) is not described here: its codec stays hand-written
        /// (GroupWireNegotiation, Hello+Decoding.swift) because the language lacks two things it
        /// needs. A field's default (field 5 of a field entry) takes the wire type of that field's
        /// own type, which no declaration can say; and each of its checks reports the offset of
        /// the entry, field or case it concerns, in one pass in body order (Spec/FORMAT.md,
        /// "Reading a hello"), which generated decoders, reading a whole value before any check,
        /// do not keep. Its fingerprints and dictionary hashes, FIXED64 integers, are now
        /// expressible: `Fixed64` (Spec/LANGUAGE.md, "Scalar types").
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
            /// What a peer reads and speaks (GroupWireNegotiation's hand-written codec).
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
        """#
}
