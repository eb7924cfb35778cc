import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCompression
import GroupWireDynamic
import GroupWireJSON
import GroupWireNegotiation
import GroupWireSession
import GroupWireSpec

/// Checks every frame of a capture or frame file, as `groupwire validate` does: the
/// envelope, fragments reassembled per sender, decompression, each payload against the spec,
/// control frames, the delivery sequence per stream, and that frames follow what the
/// captured hellos agreed.
///
/// Frames go in one at a time (``check(_:)``) and problems come out at once, so a capture
/// of any size is checked in flat memory: what is kept is bounded per sender (partial
/// messages by the reassembly limits, each delivery stream by a window of
/// ``sequenceWindow`` sequences) and per participant (its hello).
///
/// In a capture, a frame's sender and receiver come from its packet (a frame sent to
/// everyone has no one receiver); in a raw or hex frame file all frames count as one
/// sender's, to one receiver.
public struct CaptureValidator {
    /// How many sequences above the last one seen in order a delivery stream remembers.
    public static let sequenceWindow: UInt64 = 4096

    /// What was checked, for the summary.
    public struct Summary: Sendable, Hashable {
        /// Frames (packets, in a capture) read, valid or not.
        public var frames = 0
        /// Frames whose envelope is valid.
        public var validFrames = 0
        /// Fragment frames among them.
        public var fragments = 0
        /// Whole data messages decoded against the spec.
        public var messages = 0
        /// Those that were compressed.
        public var compressedMessages = 0
        /// Decoded messages by type name.
        public var messagesByType: [String: Int] = [:]
        /// Control frames: hellos, session control, acknowledgements.
        public var controlFrames = 0
        /// Hellos among them.
        public var hellos = 0
        /// Frames that repeat a delivery sequence with the same bytes (a retransmission).
        public var retransmissions = 0
        /// Received copies of frames whose sending this capture also holds (a capture of both
        /// sides of a conversation, as `GROUPWIRE_CAPTURE` makes of several messengers in one
        /// process): checked as frames, not counted again as sends, messages or retransmissions.
        public var receivedCopies = 0
        /// The participants seen sending.
        public var senders = 0
        /// The problems found.
        public var problems = 0
    }

    private struct Route: Hashable {
        var sender: ParticipantID?
        var receiver: ParticipantID?

        // Written out: the derived one compared the optionals through Optional's `==`,
        // and a route is compared with the one before it for every frame.
        static func == (left: Route, right: Route) -> Bool {
            same(left.sender, right.sender) && same(left.receiver, right.receiver)
        }

        private static func same(_ left: ParticipantID?, _ right: ParticipantID?) -> Bool {
            switch (left, right) {
            case (nil, nil): true
            case (let left?, let right?): left == right
            default: false
            }
        }
    }

    private struct StreamKey: Hashable {
        var route: Route
        var stream: UInt32
    }

    /// What a delivery stream has shown: every sequence up to `through`, the ones above it
    /// in `above` (with each frame's checksum, to tell a retransmission from a clash).
    private struct StreamState {
        var through: UInt64 = 0
        var above: [UInt64: UInt32] = [:]
        var recent: [UInt64: UInt32] = [:]
        var firstFrame: Int
        var gapsReported: UInt64 = 0
    }

    /// A class, so reading one per message retains it once instead of copying (and
    /// retaining) every table of its codec.
    private final class LoadedSpec: Sendable {
        let codec: DynamicCodec
        let schema: HelloSchema?

        init(codec: DynamicCodec, schema: HelloSchema?) {
            self.codec = codec
            self.schema = schema
        }

        /// ``DynamicCodec/validate(_:in:typeID:)`` of the codec: called here, on the
        /// class's own constant, the codec is read in place rather than copied out first.
        func validate(_ bytes: [UInt8], in range: Range<Int>, typeID: UInt64) throws(WireError) {
            try codec.validate(bytes, in: range, typeID: typeID)
        }
    }

    private let specs: [LoadedSpec]
    private let limits: Limits
    /// Whether ``read(_:)`` returns each message's JSON; without, payloads are only checked.
    private let keepsValues: Bool
    private var pipeline: ReceivePipeline
    private var routeIDs: [Route: ParticipantID] = [:]
    private var routes: [ParticipantID: Route] = [:]
    private var streams: [StreamKey: StreamState] = [:]
    /// The newest stream value per route and mode, to tell a superseded incarnation.
    private var currentStream: [Route: [Bool: UInt32]] = [:]
    /// The last incarnations each route moved on from (as a receiver remembers them,
    /// Spec/FORMAT.md "Rules"): their state is dropped, their late frames not checked.
    private var superseded: [Route: [UInt32]] = [:]
    private var hellos: [ParticipantID: Hello] = [:]
    private var verdicts: [ParticipantID: (spec: Int, receiving: [UInt64: TypeVerdict])] = [:]
    private var agreements: [Route: Agreement] = [:]
    private var senders: Set<ParticipantID?> = []
    /// The participants whose sent packets this capture holds.
    private var capturedSenders: Set<ParticipantID> = []
    /// What was checked so far.
    public var summary: Summary {
        var summary = tally
        if let name = typeRun.name { summary.messagesByType[name, default: 0] += typeRun.count }
        return summary
    }
    /// The counts behind ``summary``, but for the latest run of messages of one type.
    private var tally = Summary()
    /// Consecutive messages of one type, counted here and added to the summary's count by
    /// type name when the type changes: two integer comparisons a message, not a hash.
    private var typeRun = TypeRun()
    private struct TypeRun {
        var spec = 0
        var typeID: UInt64 = 0
        /// Nil before the first message.
        var name: String?
        var count = 0
    }
    /// The route of the frame before, what it was resolved to, and whether its sender was
    /// captured sending (valid while `capturedSenders` has the count it had): consecutive
    /// frames of one conversation are resolved once instead of hashed per frame.
    private var lastRoute: (route: Route, participant: ParticipantID)?
    private var lastCapturedLookup: (sender: ParticipantID, count: Int, captured: Bool)?
    /// The participant of the last sent packet, inserted in `capturedSenders` already.
    private var lastSentBy: ParticipantID?
    /// The bytes of the last room name found to be UTF-8 on the in-place path (none: the
    /// empty name, which is).
    private var lastValidRoom: [UInt8] = []
    /// The spec and verdicts of the sender of the message before (cleared when a hello changes them).
    private var lastVerdicts: SenderVerdicts?
    /// A struct, not a tuple: copying a tuple of these went through the runtime's generic
    /// tuple witnesses, per message.
    private struct SenderVerdicts {
        var key: ParticipantID
        var spec: Int
        var receiving: [UInt64: TypeVerdict]
    }
    /// The spec, type id and name of the message before, so a run of one type is looked up once.
    private var lastMessageType: (spec: Int, typeID: UInt64, name: String)?
    /// The delivery streams whose state is kept now (for tests of the bound).
    package var trackedStreamCount: Int { streams.count }
    /// The frames ``check(contentsOf:report:)`` checked where they lay (for tests of that path).
    package private(set) var framesCheckedInPlace = 0

    /// Creates a validator.
    /// - Parameters:
    ///   - specs: the specs payloads are decoded against: per sender, the one whose
    ///     fingerprint (or package and version) its hello announced, else the first.
    ///   - dictionaries: the dictionaries compressed bodies may name.
    ///   - limits: the frame and message limits.
    ///   - keepsValues: whether ``read(_:)`` returns each message decoded to JSON (for
    ///     `inspect --format jsonl`); without, payloads get every check and no JSON is made.
    public init(specs: [SpecSet], dictionaries: DictionaryStore? = nil, limits: Limits = .default, keepsValues: Bool = false) {
        self.keepsValues = keepsValues
        self.specs = specs.map { spec in
            LoadedSpec(codec: DynamicCodec(spec: spec, limits: limits), schema: try? HelloSchema(spec: spec))
        }
        self.limits = limits
        let compressor = try? PayloadCompressor(dictionaries: dictionaries, limits: limits)
        pipeline = ReceivePipeline(limits: limits, clock: ReassemblyClock { .zero }, codec: compressor)
    }

    /// A whole data message read from the input, decoded against the spec.
    public struct DecodedMessage: Sendable {
        /// The number of the frame that completed it (the packet number in a capture).
        public var frame: Int
        /// That frame's byte offset in the input.
        public var offset: Int
        /// The capture record's time in nanoseconds since 1970, nil outside a capture.
        public var timestamp: UInt64?
        /// The sender, nil when the input does not say (raw and hex files).
        public var sender: UUID? {
            get { senderID?.uuid }
            set { senderID = newValue.map(ParticipantID.init(uuid:)) }
        }
        /// The receiver, nil for a frame sent to several or everyone, or when unknown.
        public var receiver: UUID? {
            get { receiverID?.uuid }
            set { receiverID = newValue.map(ParticipantID.init(uuid:)) }
        }
        // Kept as ParticipantIDs, not UUIDs: a struct holding a UUID (a resilient type) has
        // no fixed layout, so even the empty optional of one that every frame declares was
        // destroyed through the runtime's generic value witnesses.
        fileprivate var senderID: ParticipantID?
        fileprivate var receiverID: ParticipantID?
        /// The room of the capture record, empty when none.
        public var room: String
        /// The session id from the frame's session header.
        public var session: UInt32?
        /// The message's type id and name in the spec.
        public var typeID: UInt64
        /// The message's name in the spec.
        public var typeName: String
        /// Whether it travelled compressed.
        public var wasCompressed: Bool
        /// Whether it travelled in fragments.
        public var wasFragmented: Bool
        /// The message as compact JSON text (Spec/FORMAT.md, "JSON form"), written as it was
        /// read: never held as a value tree, which for a large message costs many times its size.
        public var valueJSON: [UInt8]
    }

    /// Checks the next frame of the input.
    /// - Returns: the problems with it (and with a message it completed).
    public mutating func check(_ fileEvent: FrameFileEvent) -> [ValidationProblem] {
        read(fileEvent).problems
    }

    /// Checks the next frame of the input, and decodes the message it completes.
    /// - Returns: the problems with it (and with a message it completed), and that message
    ///   when it is a data message the spec decodes (its value `null` unless the validator
    ///   keeps values).
    public mutating func read(_ fileEvent: FrameFileEvent) -> (problems: [ValidationProblem], message: DecodedMessage?) {
        var decoded: DecodedMessage?
        let problems = check(fileEvent, decoded: &decoded)
        return (problems, decoded)
    }

    /// Checks every frame of `stream`, as ``check(_:)`` of each of its events would, and
    /// hands each problem to `report` as it is found. The frames of a pcapng or pcap capture
    /// that are whole data frames in good packets (the common case) are checked where they
    /// lie in the stream's buffer, with nothing copied or made per frame; any other frame
    /// takes the general path.
    /// - Throws: the stream's `FrameFileError` (pass it to ``check(inputError:)``); the
    ///   frames before it have been checked.
    public mutating func check(contentsOf stream: FrameFileStream, report: (ValidationProblem) -> Void)
        throws(FrameFileError)
    {
        while let event = try stream.next(inPlace: { buffer, packet, decoder in
            checkInPlace(buffer, packet, decoder: decoder, report: report)
        }) {
            for problem in check(event) { report(problem) }
        }
    }

    /// What a capture record says about a frame's route and, for ``DecodedMessage``, its time and room.
    private struct Origin {
        var direction: CaptureRecord.Direction
        var local: ParticipantID
        var peer: ParticipantID?
        var timestamp: UInt64
        var room: String

        var sender: ParticipantID? { direction == .sent ? local : peer }
        /// The frame's one receiver: the peer of a sent frame, the capturing participant of a received one.
        var receiver: ParticipantID? { direction == .sent ? peer : local }
    }

    private mutating func check(_ fileEvent: FrameFileEvent, decoded: inout DecodedMessage?) -> [ValidationProblem] {
        tally.frames += 1
        let number = fileEvent.packet?.number ?? tally.frames
        let event = fileEvent.event
        var problems: [ValidationProblem] = []
        if let packet = fileEvent.packet, packet.record != nil, let problem = packet.problem {
            problems.append(ValidationProblem(.capture, frame: number, offset: packet.problemOffset, problem))
        }
        let frame: Frame
        switch event.result {
        case .failure(let error):
            let kind: ValidationProblem.Kind = fileEvent.packet != nil && fileEvent.packet?.record == nil ? .capture : .envelope
            let reason = kind == .capture ? error.context : "\(error.kind): \(error.context)"
            problems.append(ValidationProblem(kind, frame: number, offset: error.offset ?? event.offset, reason))
            tally.problems += problems.count
            return problems
        case .success(let decoded):
            frame = decoded
        }
        let origin = fileEvent.packet?.record.map {
            Origin(
                direction: $0.direction, local: ParticipantID(uuid: $0.local), peer: $0.peer.map(ParticipantID.init(uuid:)),
                timestamp: $0.timestamp, room: $0.room)
        }
        checkFrame(
            frame, origin: origin, number: number, offset: event.offset, length: event.length,
            version: fileEvent.header?.version ?? 1, checksum: fileEvent.header?.crc32c ?? 0, inPlace: nil,
            problems: &problems, decoded: &decoded)
        tally.problems += problems.count
        return problems
    }

    /// Checks the packet at `packet.data` of `buffer` where it lies (its frame read by the
    /// stream's `decoder`, as the general path's is), when it is a good
    /// packet holding a whole data frame (no fragment, no compression) and no message is
    /// being reassembled, exactly as ``check(_:)`` would; returns false for any other
    /// packet, having counted and checked nothing (only the cache of the last good room
    /// may have changed).
    private mutating func checkInPlace(
        _ buffer: [UInt8], _ packet: CapturePacketReader.LocatedPacket, decoder: FrameDecoder,
        report: (ValidationProblem) -> Void
    ) -> Bool {
        // A frame of this function's own, not one kept in the validator: passing a stored
        // frame to a mutating method copies it, per frame. Not an optional, whose
        // destruction went through the runtime's generic value witnesses.
        var frame = Frame(kind: .data, typeID: 0, body: [])
        // A cut packet, a bad pseudo-header or room, or a frame with anything to report
        // about itself: the general path says what.
        guard !keepsValues, !pipeline.holdsPartialMessages, packet.original <= packet.data.count,
            let header = CaptureRecord.PseudoHeader.read(buffer, in: packet.data),
            isValidRoom(buffer[header.room]),
            let body = decoder.decodeInPlace(buffer, in: header.frame, into: &frame),
            frame.kind == .data, frame.compression == nil
        else { return false }
        // A frame the decoder returned is of version `Frame.version` (it refuses others)
        // and ends in the checksum it verified: read where they lie, not through a second
        // parse of the prelude (`FrameHeaderFields`, about 130 instructions a frame).
        let end = header.frame.upperBound
        let checksum =
            UInt32(buffer[end - 4]) | UInt32(buffer[end - 3]) << 8 | UInt32(buffer[end - 2]) << 16
            | UInt32(buffer[end - 1]) << 24
        tally.frames += 1
        framesCheckedInPlace += 1
        let offset = packet.dataOffset + (header.frame.lowerBound - packet.data.lowerBound)
        var problems: [ValidationProblem] = []
        var decoded: DecodedMessage?
        checkFrame(
            frame,
            origin: Origin(direction: header.direction, local: header.localID, peer: header.peerID, timestamp: 0, room: ""),
            number: packet.number, offset: offset, length: header.frame.count, version: Frame.version,
            checksum: checksum, inPlace: (buffer, body), problems: &problems, decoded: &decoded)
        tally.problems += problems.count
        for problem in problems { report(problem) }
        return true
    }

    /// Whether a room's bytes are UTF-8: the room of the packet before is not checked again.
    /// Its bytes are kept, not its string: comparing a string's UTF-8 with a slice cost
    /// about 100 instructions a frame, two buffers' bytes about 55.
    private mutating func isValidRoom(_ bytes: ArraySlice<UInt8>) -> Bool {
        let same = lastValidRoom.withUnsafeBufferPointer { last in
            bytes.withUnsafeBufferPointer { room in
                guard last.count == room.count else { return false }
                guard let left = last.baseAddress, let right = room.baseAddress else { return true }  // both empty
                return memcmp(left, right, room.count) == 0
            }
        }
        if same { return true }
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        lastValidRoom = Array(bytes)
        return true
    }

    /// The checks of a frame whose envelope is valid, from either path. `inPlace` is the
    /// buffer and body range of a whole uncompressed data frame checked where it lies
    /// (its message is that body); nil passes the frame through the receive pipeline.
    /// `decoded` is set only on the general path.
    private mutating func checkFrame(
        _ frame: Frame, origin: Origin?, number: Int, offset: Int, length: Int, version: UInt8, checksum: UInt32,
        inPlace: (buffer: [UInt8], body: Range<Int>)?, problems: inout [ValidationProblem], decoded: inout DecodedMessage?
    ) {
        tally.validFrames += 1
        if frame.kind == .fragment { tally.fragments += 1 }
        let route = Route(sender: origin?.sender, receiver: origin?.receiver)
        if let origin {
            if origin.direction == .sent {
                if lastSentBy != origin.local {
                    capturedSenders.insert(origin.local)
                    lastSentBy = origin.local
                }
            } else if let sender = origin.sender, wasCapturedSending(sender) {
                // The other side of a send this capture holds: its checks were made there.
                tally.receivedCopies += 1
                return
            }
        }
        let participant: ParticipantID
        if let last = lastRoute, last.route == route {
            participant = last.participant
        } else {
            if senders.insert(route.sender).inserted { tally.senders = senders.count }
            participant = self.participant(for: route)
            lastRoute = (route, participant)
        }

        if let delivery = frame.delivery {
            let (repeated, sequenceProblems) = checkSequence(
                delivery, route: route, checksum: checksum, number: number, offset: offset)
            if !sequenceProblems.isEmpty { problems += sequenceProblems }
            if repeated { return }
        }
        if frame.kind != .control {
            let agreementProblems = checkAgreement(
                frame, version: version, route: route, length: length, number: number, offset: offset)
            // Appending an empty array to an empty one would still make a new buffer.
            if !agreementProblems.isEmpty { problems += agreementProblems }
        }
        if let inPlace {
            // What the pipeline makes of a whole uncompressed data frame when it holds no
            // partial message: the body, where it lies. Its problems' offsets are in the input.
            let (payloadProblems, _) = checkPayload(
                typeID: frame.typeID, compressed: false, inPlace.buffer, inPlace.body, sender: route.sender,
                number: number, offset: offset, bodyStart: offset + length - 4 - inPlace.body.count, returnsValue: false)
            if !payloadProblems.isEmpty { problems += payloadProblems }
            return
        }
        let result = pipeline.receive(frame, from: participant)
        for drop in result.drops {
            problems.append(ValidationProblem(.fragment, frame: number, offset: offset, "\(drop)"))
        }
        if let rejection = result.rejection {
            let fragmentKinds: [WireError.Kind] = [.invalidFragment, .limitExceeded]
            let kind: ValidationProblem.Kind =
                frame.kind == .fragment && fragmentKinds.contains(rejection.kind) ? .fragment : .compression
            problems.append(
                ValidationProblem(kind, frame: number, offset: offset, "\(rejection.kind): \(rejection.context)"))
        }
        guard let message = result.message else { return }
        // Offsets of payload problems: in the input for a whole uncompressed frame, else the frame's.
        let bodyStart = message.compression == nil && frame.kind != .fragment ? offset + length - 4 - message.payloadCount : nil
        if message.kind == .control {
            problems += checkControl(message, sender: route.sender, number: number, offset: offset, bodyStart: bodyStart)
        } else {
            let (bytes, range) = message.payloadBytes
            let (payloadProblems, value) = checkPayload(
                typeID: message.typeID, compressed: message.compression != nil, bytes, range, sender: route.sender,
                number: number, offset: offset, bodyStart: bodyStart, returnsValue: true)
            if !payloadProblems.isEmpty { problems += payloadProblems }
            if let (name, json) = value {
                decoded = DecodedMessage(
                    frame: number, offset: offset, timestamp: origin?.timestamp, senderID: route.sender,
                    receiverID: route.receiver, room: origin?.room ?? "", session: message.session, typeID: message.typeID,
                    typeName: name, wasCompressed: message.compression != nil, wasFragmented: frame.kind == .fragment,
                    valueJSON: json)
            }
        }
    }

    /// Reports a structural problem of the input that ended it (a capture cut inside a
    /// block), after the frames before it.
    public mutating func check(inputError: FrameFileError) -> [ValidationProblem] {
        tally.problems += 1
        return [ValidationProblem(.capture, frame: nil, offset: inputError.offset, inputError.message)]
    }

    /// The problems only the end shows: messages whose fragments are not all there,
    /// reliable delivery streams with gaps.
    public mutating func finish() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        if pipeline.partialMessageCount > 0 {
            let count = pipeline.partialMessageCount
            problems.append(
                ValidationProblem(
                    .fragment, frame: nil, offset: nil,
                    "the input ends inside \(count) fragmented message\(count == 1 ? "" : "s") whose fragments are not all there")
            )
        }
        for (key, state) in streams.sorted(by: { $0.value.firstFrame < $1.value.firstFrame }) where key.stream & 1 == 1 {
            // Every held sequence is past `through`, so the highest is at least through + 1.
            let held = state.above.keys.sorted()
            guard let highest = held.last, highest - state.through > 1 else { continue }
            problems.append(
                ValidationProblem(
                    .sequence, frame: nil, offset: nil,
                    "reliable stream \(key.stream) \(describe(key.route)) never shows "
                        + "\(Self.holes(after: state.through, through: highest - 1, held: held.dropLast())) (seen up to \(highest))"
                ))
        }
        tally.problems += problems.count
        return problems
    }

    // MARK: Checks

    /// Whether this capture holds packets `sender` sent (so far).
    private mutating func wasCapturedSending(_ sender: ParticipantID) -> Bool {
        if let last = lastCapturedLookup, last.sender == sender, last.count == capturedSenders.count { return last.captured }
        let captured = capturedSenders.contains(sender)
        lastCapturedLookup = (sender, capturedSenders.count, captured)
        return captured
    }

    private mutating func participant(for route: Route) -> ParticipantID {
        if let id = routeIDs[route] { return id }
        let id = ParticipantID.numbered(UInt64(routeIDs.count + 1))
        routeIDs[route] = id
        routes[id] = route
        return id
    }

    /// Records a delivery sequence; whether the frame is not to be checked further (it
    /// repeats one already seen, or belongs to an incarnation the route moved on from, which
    /// a receiver drops), and the problems.
    private mutating func checkSequence(_ delivery: DeliveryHeader, route: Route, checksum: UInt32, number: Int, offset: Int)
        -> (repeated: Bool, problems: [ValidationProblem])
    {
        let key = StreamKey(route: route, stream: delivery.stream)
        let reliable = delivery.stream & 1 == 1
        if superseded[route]?.contains(delivery.stream) == true { return (true, []) }
        if let current = currentStream[route]?[reliable], current != delivery.stream {
            // A new incarnation ends the one before: what it still waited for is dropped by
            // the receiver, and only a bounded number of streams is kept here.
            streams[StreamKey(route: route, stream: current)] = nil
            var old = superseded[route, default: []]
            old.append(current)
            if old.count > 8 { old.removeFirst(old.count - 8) }
            superseded[route] = old
        }
        currentStream[route, default: [:]][reliable] = delivery.stream
        var state = streams[key] ?? StreamState(firstFrame: number)
        defer { streams[key] = state }
        let sequence = delivery.sequence
        let seen: UInt32?
        if sequence <= state.through {
            guard let earlier = state.recent[sequence] else {
                // Below the window, or a sequence already given up on (its gap reported) or
                // forgotten (an unreliable loss): not checked again.
                if reliable { tally.retransmissions += 1 }
                return (true, [])
            }
            seen = earlier
        } else {
            seen = state.above[sequence]
        }
        if let seen {
            if !reliable {
                return (
                    true,
                    [
                        ValidationProblem(
                            .sequence, frame: number, offset: offset,
                            "unreliable stream \(delivery.stream) \(describe(route)) repeats sequence \(sequence); unreliable frames are never sent twice"
                        )
                    ]
                )
            }
            if seen != checksum {
                return (
                    true,
                    [
                        ValidationProblem(
                            .sequence, frame: number, offset: offset,
                            "reliable stream \(delivery.stream) \(describe(route)) repeats sequence \(sequence) with different bytes"
                        )
                    ]
                )
            }
            tally.retransmissions += 1
            return (true, [])
        }
        var problems: [ValidationProblem] = []
        state.above[sequence] = checksum
        while state.through < .max, let next = state.above.removeValue(forKey: state.through + 1) {
            state.through += 1
            state.recent[state.through] = next
        }
        if state.through > Self.sequenceWindow {
            let floor = state.through - Self.sequenceWindow
            if state.recent.count > Int(Self.sequenceWindow) * 2 { state.recent = state.recent.filter { $0.key > floor } }
        }
        // A window's worth ahead of the first hole: the hole will not be filled.
        // (Every key of `above` is past `through`, so the subtraction cannot wrap.)
        if reliable, let highest = state.above.keys.max(), highest - state.through > Self.sequenceWindow {
            let target = highest - Self.sequenceWindow
            // The held sequences up to the target, in order: the holes are the gaps between
            // them, never enumerated one by one (a sequence can jump by 2^40).
            let held = state.above.keys.filter { $0 <= target }.sorted()
            problems.append(
                ValidationProblem(
                    .sequence, frame: number, offset: offset,
                    "reliable stream \(delivery.stream) \(describe(route)) moved \(Self.sequenceWindow) sequences past "
                        + "\(Self.holes(after: state.through, through: target, held: held)) without them"))
            for sequence in held {
                if let checksum = state.above.removeValue(forKey: sequence) { state.recent[sequence] = checksum }
            }
            state.through = target
            while state.through < .max, let next = state.above.removeValue(forKey: state.through + 1) {
                state.through += 1
                state.recent[state.through] = next
            }
        } else if !reliable, state.above.count > Int(Self.sequenceWindow) {
            // Losses are allowed: forget the oldest.
            let keep = Set(state.above.keys.sorted().suffix(Int(Self.sequenceWindow)))
            state.above = state.above.filter { keep.contains($0.key) }
            state.through = max(state.through, (keep.min() ?? 1) - 1)
        }
        return (false, problems)
    }

    private mutating func checkControl(
        _ message: ReceivedMessage, sender: ParticipantID?, number: Int, offset: Int, bodyStart: Int?
    )
        -> [ValidationProblem]
    {
        tally.controlFrames += 1
        let payload = message.payload
        func problem(_ error: WireError, _ what: String) -> ValidationProblem {
            let at = error.offset.map { ($0) + (bodyStart ?? 0) }
            return ValidationProblem(
                .control, frame: number, offset: bodyStart == nil ? offset : at ?? offset,
                "\(what): \(error.kind)\(error.offset.map { " at body offset \($0)" } ?? ""): \(error.context)")
        }
        if message.typeID == Hello.controlID {
            tally.hellos += 1
            do throws(WireError) {
                let hello = try Hello(payload: payload)
                let key = sender ?? ParticipantID.zero
                if hellos[key] != hello {
                    hellos[key] = hello
                    verdicts[key] = nil
                    lastVerdicts = nil
                    agreements = agreements.filter { $0.key.sender != sender && $0.key.receiver != sender }
                }
                return []
            } catch {
                return [problem(error, "hello")]
            }
        }
        do throws(WireError) {
            if try ControlFrameCheck.describe(controlID: message.typeID, payload: payload, limits: limits) == nil {
                return [
                    ValidationProblem(
                        .control, frame: number, offset: offset,
                        "control id \(message.typeID) is reserved (Spec/FORMAT.md, \"Control ids\")")
                ]
            }
            return []
        } catch {
            let name = message.typeID == 32 ? "acknowledgement" : "session control \(message.typeID)"
            return [problem(error, name)]
        }
    }

    /// Checks a message's payload, `bytes[range]`, against the spec its sender's hello
    /// chose; with `returnsValue`, also returns its type name and (when values are kept)
    /// its JSON. The path that checks frames in place asks for no value, so that no name
    /// is copied per message.
    private mutating func checkPayload(
        typeID: UInt64, compressed: Bool, _ bytes: [UInt8], _ range: Range<Int>, sender: ParticipantID?, number: Int,
        offset: Int, bodyStart: Int?, returnsValue: Bool
    )
        -> (problems: [ValidationProblem], value: (name: String, json: [UInt8])?)
    {
        guard !specs.isEmpty else { return ([], nil) }
        let (index, verdict) = verdict(for: sender, typeID: typeID)
        if let verdict, !verdict.isReadable {
            let kind: ValidationProblem.Kind = verdict == .unknown ? .unknownType : .schema
            return (
                [
                    ValidationProblem(
                        kind, frame: number, offset: offset,
                        "type id \(typeID): the sender's hello announced a schema the spec reads as \(verdict)")
                ], nil
            )
        }
        // The name is read only where it is used (a new type, a value, a problem): a run of
        // one type copies no string.
        if lastMessageType?.spec != index || lastMessageType?.typeID != typeID {
            guard let name = specs[index].codec.messageName(typeID: typeID) else {
                return (
                    [
                        ValidationProblem(
                            .unknownType, frame: number, offset: offset,
                            "type id \(typeID) is not a message of \(specs[index].codec.spec.package?.name ?? "the spec")")
                    ], nil
                )
            }
            lastMessageType = (index, typeID, name)
        }
        var name: String { lastMessageType?.name ?? "" }
        do throws(WireError) {
            var json: [UInt8] = []
            if keepsValues {
                let payload = range == bytes.indices ? bytes : Array(bytes[range])
                try specs[index].codec.writeJSON(payload, as: name, writer: JSONWriter()) { json += $0 }
            } else {
                try specs[index].validate(bytes, in: range, typeID: typeID)
            }
            tally.messages += 1
            if compressed { tally.compressedMessages += 1 }
            // The run is told apart by spec and type id: two integers, not the name's string.
            if typeRun.spec == index, typeRun.typeID == typeID, typeRun.name != nil {
                typeRun.count += 1
            } else {
                if let previous = typeRun.name { tally.messagesByType[previous, default: 0] += typeRun.count }
                typeRun = TypeRun(spec: index, typeID: typeID, name: name, count: 1)
            }
            return ([], returnsValue ? (name, json) : nil)
        } catch {
            let at = bodyStart.flatMap { start in error.offset.map { $0 + start } }
            let inside = bodyStart == nil ? error.offset.map { " at payload offset \($0)" } ?? "" : ""
            return (
                [
                    ValidationProblem(
                        .payload, frame: number, offset: at ?? offset,
                        "\(name) (type id \(typeID)): \(error.kind)\(inside): \(error.context)")
                ], nil
            )
        }
    }

    /// The spec used for `sender`'s messages, and how it reads type `typeID` when the
    /// sender's hello announced that type (nil when it did not, or sent no hello). Only
    /// the one verdict leaves: returning the sender's table would retain it per message.
    private mutating func verdict(for sender: ParticipantID?, typeID: UInt64) -> (spec: Int, verdict: TypeVerdict?) {
        let key = sender ?? ParticipantID.zero
        if lastVerdicts?.key != key {
            lastVerdicts = senderVerdicts(key)
        }
        // Read in place: binding the struct would retain its table.
        return (lastVerdicts?.spec ?? 0, lastVerdicts?.receiving[typeID])
    }

    /// The spec `key`'s hello chose, and how it reads each of the types the hello announced.
    private mutating func senderVerdicts(_ key: ParticipantID) -> SenderVerdicts {
        if let known = verdicts[key] {
            return SenderVerdicts(key: key, spec: known.spec, receiving: known.receiving)
        }
        guard let schema = hellos[key]?.schema else {
            return SenderVerdicts(key: key, spec: 0, receiving: [:])
        }
        let index =
            specs.firstIndex { $0.schema?.fingerprint == schema.fingerprint }
            ?? specs.firstIndex { $0.schema?.package == schema.package && $0.schema?.version == schema.version }
            ?? 0
        var receiving: [UInt64: TypeVerdict] = [:]
        for type in TypeAgreement.all(local: specs[index].schema, remote: schema) {
            if let verdict = type.receiving { receiving[type.typeID] = verdict }
        }
        verdicts[key] = (index, receiving)
        return SenderVerdicts(key: key, spec: index, receiving: receiving)
    }

    private mutating func checkAgreement(
        _ frame: Frame, version frameVersion: UInt8, route: Route, length: Int, number: Int, offset: Int
    ) -> [ValidationProblem] {
        guard !hellos.isEmpty, let sender = route.sender, let receiver = route.receiver, let mine = hellos[sender],
            let theirs = hellos[receiver]
        else { return [] }
        let agreement: Agreement
        if let known = agreements[route] {
            agreement = known
        } else {
            agreement = Agreement(local: mine, remote: theirs)
            agreements[route] = agreement
        }
        let between = describe(route)
        guard agreement.isAgreed, let version = agreement.envelopeVersion else {
            return [
                ValidationProblem(
                    .agreement, frame: number, offset: offset,
                    "a \(frame.kind) frame \(between), whose hellos did not agree (\(agreement.status))")
            ]
        }
        var problems: [ValidationProblem] = []
        if frameVersion != version {
            problems.append(
                ValidationProblem(
                    .agreement, frame: number, offset: offset,
                    "envelope version \(frameVersion) \(between); their hellos agreed on \(version)"))
        }
        // A delivery layer inserts its header below the messenger, which sized the frame for
        // the hello's maxFrameSize: the header's room (at most 15 bytes) is on top of it.
        let allowed = agreement.sending.maxFrameSize + (frame.delivery == nil ? 0 : DeliveryHeader.maxEncodedSize)
        if length > allowed {
            problems.append(
                ValidationProblem(
                    .agreement, frame: number, offset: offset,
                    "a frame of \(length) bytes \(between), over the \(allowed) the receiver's hello accepts"
                        + (frame.delivery == nil ? "" : " (its maxFrameSize and the delivery header's 15)")))
        }
        if let compression = frame.compression {
            if agreement.sending.codec != compression.codec {
                let agreed = agreement.sending.codec.map { "codec \($0)" } ?? "no compression"
                problems.append(
                    ValidationProblem(
                        .agreement, frame: number, offset: offset,
                        "compressed with codec \(compression.codec) \(between); their hellos agreed on \(agreed)"))
            } else if compression.dictionaryID != 0, compression.dictionaryID != agreement.sending.dictionaryID {
                problems.append(
                    ValidationProblem(
                        .agreement, frame: number, offset: offset,
                        "compressed with dictionary \(compression.dictionaryID) \(between); their hellos agreed on "
                            + (agreement.sending.dictionaryID == 0 ? "none" : "dictionary \(agreement.sending.dictionaryID)")))
            }
        }
        if let type = agreement.type(frame.typeID), let verdict = type.sending, !verdict.isReadable {
            problems.append(
                ValidationProblem(
                    .agreement, frame: number, offset: offset,
                    "type \(type.name) (type id \(frame.typeID)) \(between), which the receiver's hello reads as \(verdict)"))
        }
        return problems
    }

    private func describe(_ route: Route) -> String {
        let from = route.sender.map { "from \($0.uuid.uuidString.lowercased())" } ?? "from an unknown sender"
        let to = route.receiver.map { " to \($0.uuid.uuidString.lowercased())" } ?? ""
        return from + to
    }

    /// The sequences after `through` up to `target` that are not in `held` (sorted, each
    /// in that range), as at most eight ranges and a count of the rest; computed from the
    /// gaps between the held ones, so its cost does not depend on how many are missing.
    static func holes(after through: UInt64, through target: UInt64, held: some Sequence<UInt64>) -> String {
        var gaps: [(first: UInt64, last: UInt64)] = []
        // safe because: through < target < UInt64.max (a window, or one, below the highest
        // sequence seen), and every held sequence is at most target, so no + 1 here wraps.
        var next = through + 1
        for sequence in held {
            if sequence > next { gaps.append((next, sequence - 1)) }
            next = sequence + 1
        }
        if next <= target { gaps.append((next, target)) }
        // safe because: the gaps are disjoint parts of through + 1 ... target.
        let total = gaps.reduce(UInt64(0)) { $0 + ($1.last - $1.first + 1) }
        let shown = gaps.prefix(8).map { $0.first == $0.last ? "\($0.first)" : "\($0.first)-\($0.last)" }
        let shownCount = gaps.prefix(8).reduce(UInt64(0)) { $0 + ($1.last - $1.first + 1) }
        let text = "sequence\(total == 1 ? "" : "s") " + shown.joined(separator: ", ")
        return shownCount < total ? text + " and \(total - shownCount) more" : text
    }
}
