import ObjCTypeEncoding
import TypedStream

extension ArchiveJSON {
    /// Writes the lossless JSON of the archive `index` was read from to `out` as it goes, the
    /// same text ``encode(_:options:)`` makes from its graph, without building the graph or
    /// holding the text. Stops early when `out` fails.
    ///
    /// Throws ``ArchiveJSONError`` with code `limitExceeded` when the type-string text written
    /// for groups whose type string was a reference on the wire passes
    /// ``OutputLimits/repeatedBytes(forInputOf:)`` (the error names the innermost object being
    /// written), or when objects, arrays and structs nest deeper than
    /// ``EncodingOptions/maximumNesting``.
    ///
    /// ```swift
    /// let index = try ArchiveIndex(bytes: bytes)
    /// var out = OutputWriter(sink: FileDescriptorOutput.standardOutput)
    /// try ArchiveJSON.write(index, to: &out)
    /// out.flush()
    /// ```
    public static func write(_ index: ArchiveIndex, options: EncodingOptions = EncodingOptions(), limits: OutputLimits = .default,
                             to out: inout OutputWriter) throws(ArchiveJSONError) {
        var encoder = ArchiveJSONTokenEncoder(index: index, options: options, limits: limits)
        try encoder.run(&out)
    }
}

/// Writes lossless JSON from the tokens of a checked archive: the walk ``ArchiveJSONEncoder``
/// makes over the graph, made over the tokens in wire order (which is the writer's order), with
/// an explicit stack. The wire decision of each token is its own, and is written where it
/// differs from what NSArchiver would choose at that point.
///
/// The tokens come from the reader's one-loop walk (``TokenReader/forEachCompact(_:)``),
/// which cannot pause: each is kept (``PendingTokens``) until the tokens that decide how it is
/// laid out have come — the first new object inside a container that can hold one, or the
/// container's end; a new object's class chain — and then written. A token not yet decidable is
/// given back and tried again as the next token comes; the look-ahead it has made so far is kept
/// (``lookahead``), so a long container is looked through once.
struct ArchiveJSONTokenEncoder: ~Copyable {
    /// An open container. Its types are entries of ``ValueTypeTable`` (plain data), with a
    /// counter that advances in place.
    private struct Frame {
        enum Kind {
            /// The top level's groups.
            case document
            /// An object's groups (`slot`, for errors).
            case objectGroups
            /// A group's values (`types`).
            case group
            /// An array's elements (`element`).
            case array
            /// A struct's fields (`types`).
            case structure
        }

        var kind: Kind
        /// Groups and structs: the next value's type entry; arrays: the element's.
        var next: Int32 = 0
        /// Groups and structs: the entry past the last value's type.
        var end: Int32 = 0
        var slot = 0
    }

    private var json: JSONTextWriter
    private let index: ArchiveIndex
    private let bytes: [UInt8]
    private let header: StreamHeader
    private let maximumNesting: Int
    private let limits: OutputLimits
    private let repeatedBudget: Int
    private var repeated = 0
    private var depth = 0
    /// The archive's tokens handed over by the reader and not written yet.
    private var pending = PendingTokens()
    /// How far the look-ahead for the token being decided has gone: tokens looked at after it,
    /// and the arrays and structs open among them. Reset when the token is written.
    private var lookahead = (ahead: 0, open: 0)
    /// A stack of frames in plain memory, freed by the encoder's `deinit`.
    private struct FrameStack {
        private var base = UnsafeMutablePointer<Frame>.allocate(capacity: 64)
        private var capacity = 64
        private(set) var count = 0

        /// The innermost frame (only when `count > 0`).
        var top: UnsafeMutablePointer<Frame> { base + (count - 1) }

        mutating func push(_ frame: Frame) {
            if count == capacity {
                let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: 2 * capacity)
                bigger.moveInitialize(from: base, count: count)
                base.deallocate()
                base = bigger
                capacity *= 2
            }
            (base + count).initialize(to: frame)
            count += 1
        }

        /// Drops the innermost frame (none when there is none).
        mutating func pop() {
            if count > 0 { count -= 1 }
        }

        /// The frames, innermost first.
        var innermostFirst: [Frame] { (0..<count).reversed().map { base[$0] } }

        func deallocate() { base.deallocate() }
    }

    /// The open containers, innermost last, in plain memory (no uniqueness check per push).
    private var frames = FrameStack()
    /// The types of the type strings met so far.
    private var types = ValueTypeTable()
    /// The shared-string table as the writer keeps it, for the decisions it would make.
    private var sharedStrings = SharedStringTable()

    deinit {
        frames.deallocate()
    }

    init(index: ArchiveIndex, options: ArchiveJSON.EncodingOptions, limits: OutputLimits) {
        self.index = index
        bytes = index.bytes
        header = index.header
        maximumNesting = min(options.maximumNesting, ArchiveWriter.maximumNesting)
        self.limits = limits
        repeatedBudget = limits.repeatedBytes(forInputOf: index.bytes.count)
        json = JSONTextWriter(pretty: options.pretty, capacity: 1 << 16)
        frames.push(Frame(kind: .document))
    }

    mutating func run(_ out: inout OutputWriter) throws(ArchiveJSONError) {
        guard header.streamerVersion == 3 || header.streamerVersion == 4 else {
            throw ArchiveJSONError(.unwritable, path: "header.streamerVersion", "streamer version \(header.streamerVersion) cannot be written (only 3 and 4 exist)")
        }
        json.beginDocument(header)
        var failure: ArchiveJSONError? = nil
        var reader = TokenReader(bytes: bytes, compiled: index.compiledTypeStrings)
        // The index checked the archive: the reading meets no error (one would end it there).
        try? reader.forEachCompact { token in
            guard failure == nil, !out.failed else { return }
            do throws(ArchiveJSONError) {
                // Nothing waiting: the token is written at once when it can be.
                if pending.isEmpty {
                    if try handle(token) {
                        lookahead = (0, 0)
                        json.drainIfLarge(into: &out)
                    } else {
                        pending.append(token)
                    }
                    return
                }
                pending.append(token)
                try writeDecided(&out)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if out.failed { return }
        pending.ended = true
        try writeDecided(&out)
        if out.failed { return }
        if topKind == .group { closeGroup() }
        json.endDocument()
        json.drain(into: &out)
    }

    /// Writes the waiting tokens up to the first whose layout is not decided yet.
    private mutating func writeDecided(_ out: inout OutputWriter) throws(ArchiveJSONError) {
        while let token = pending.next() {
            guard try handle(token) else {
                pending.putBack()
                return
            }
            lookahead = (0, 0)
            json.drainIfLarge(into: &out)
            if out.failed { return }
        }
    }

    private mutating func next() -> CompactToken? { pending.next() }

    /// The innermost open container's kind, read in place (`frames.last` would copy the frame
    /// and retain its types).
    private var topKind: Frame.Kind? { frames.count == 0 ? nil : frames.top.pointee.kind }

    /// The token `ahead` places after the one being written (0: the next); `nil` when it has not
    /// come yet or the archive has ended.
    private func peek(_ ahead: Int) -> CompactToken? { pending.peek(ahead) }

    /// Whether the container being opened — a group (`isGroup`) or an array or struct — defines
    /// a new object before it ends (it is then laid out over several lines); `nil` when the
    /// tokens that decide it have not come yet. Only a container whose types can hold an object
    /// is looked through, up to its first new object or its end, resuming where the last try
    /// stopped.
    private mutating func definesNewObject(isGroup: Bool, canHoldObject: Bool) -> Bool? {
        guard canHoldObject else { return false }
        var (ahead, open) = lookahead
        while true {
            guard let token = peek(ahead) else {
                if pending.ended { return false }
                lookahead = (ahead, open)
                return nil
            }
            switch token.code {
            case .object where token.form == .new:
                return true
            case .arrayStart, .structStart:
                open += 1
            case .arrayEnd, .structEnd:
                if open == 0 { return false }
                open -= 1
            case .typeString, .untypedGroup, .endOfObject:
                if isGroup, open == 0 { return false }
            default:
                break
            }
            ahead += 1
        }
    }

    /// Whether the tokens of the class chain from `ahead` places after the token being written
    /// (a new link, then its superclass's, … until a reference or nil) have come, and in a
    /// streamer-3 archive the one after them (an object's size, if it is one).
    private func chainHasCome(from start: Int, thenSize: Bool) -> Bool {
        var ahead = start
        while let link = peek(ahead), link.code == .classLink, link.form == .new { ahead += 1 }
        if peek(ahead) == nil { return pending.ended }
        return !thenSize || peek(ahead + 1) != nil || pending.ended
    }

    // MARK: - Tokens

    /// Writes `token` (and the tokens of a new object's class chain after it) and answers
    /// `true`, or answers `false` and writes nothing when the tokens that decide its layout
    /// have not all come.
    private mutating func handle(_ token: CompactToken) throws(ArchiveJSONError) -> Bool {
        switch token.code {
        case .header, .instanceSize:
            break
        case .typeString, .untypedGroup:
            let group = token.code == .typeString ? groupTypes(token) : types.untypedGroup
            let definesObject: Bool
            if group.isOneObject {
                // One object: the group defines one exactly when its one value is new.
                if let first = peek(0) {
                    definesObject = first.code == .object && first.form == .new
                } else if pending.ended {
                    definesObject = false
                } else {
                    return false
                }
            } else {
                guard let decided = definesNewObject(isGroup: true, canHoldObject: group.canHoldObject) else { return false }
                definesObject = decided
            }
            if topKind == .group { closeGroup() }
            json.beginObject(definesObject ? .hug : .inline)
            json.key("type")
            if token.code == .typeString {
                if token.textIsReference {
                    repeated += token.payload.count
                    if repeated > repeatedBudget { throw budgetExceeded(token) }
                }
                json.bytesField(bytes[token.payload])
                if let decision = sharedDecision(token) {
                    json.key("typeWire")
                    json.decision(decision)
                }
            } else {
                json.null()
            }
            json.key("values")
            json.beginArray()
            frames.push(Frame(kind: .group, next: group.first, end: group.first + group.count))
        case .endOfObject:
            if topKind == .group { closeGroup() }
            if topKind == .objectGroups {
                frames.pop()
                json.endArray()
                json.endObject()
                depth -= 1
            }
        case .arrayEnd, .structEnd:
            frames.pop()
            json.endArray()
            depth -= 1
        default:
            // The layout of an array or struct, and the chain of a new object or class, are
            // decided before anything is written.
            var definesObject = false
            switch token.code {
            case .object where token.form == .new:
                guard chainHasCome(from: 0, thenSize: header.streamerVersion == 3) else { return false }
            case .classLink where token.form == .new:
                guard chainHasCome(from: 0, thenSize: false) else { return false }
            case .arrayStart, .structStart:
                guard let decided = definesNewObject(isGroup: false, canHoldObject: types[nextType].canHoldObject) else { return false }
                definesObject = decided
            default:
                break
            }
            try value(token, type: takeType(), definesObject: definesObject)
        }
        return true
    }

    private mutating func closeGroup() {
        frames.pop()
        json.endArray()
        json.endObject()
    }

    /// The type entry of the next value, not taken.
    private var nextType: Int32 {
        guard frames.count > 0 else { return 0 }
        let top = frames.top
        switch top.pointee.kind {
        case .group, .structure:
            return top.pointee.next < top.pointee.end ? top.pointee.next : 0
        case .array:
            return top.pointee.next
        case .document, .objectGroups:
            return 0
        }
    }

    /// The type entry of the next value (entry 0, a type not known, past a group's or
    /// struct's types).
    private mutating func takeType() -> Int32 {
        guard frames.count > 0 else { return 0 }
        let top = frames.top
        switch top.pointee.kind {
        case .group, .structure:
            let next = top.pointee.next
            guard next < top.pointee.end else { return 0 }
            top.pointee.next = next + 1
            return next
        case .array:
            return top.pointee.next
        case .document, .objectGroups:
            return 0
        }
    }

    /// The types of the type string of `token`, a type-string token.
    private mutating func groupTypes(_ token: CompactToken) -> ValueTypeTable.Group {
        types.group(ofSharedString: token.textIndex) { Self.types(of: bytes[token.payload]) }
    }

    /// The types of a group's type string `text`, which the index has checked (so the depth it
    /// allowed is not passed here either).
    private static func types(of text: ArraySlice<UInt8>) -> [ObjCType]? {
        var limits = ObjCTypeParser.Limits()
        limits.maximumDepth = Int.max
        return try? ObjCType.parseGroup(bytes: text, limits: limits)
    }

    private mutating func nest() throws(ArchiveJSONError) {
        depth += 1
        guard depth <= maximumNesting else {
            throw ArchiveJSONError(.limitExceeded, "nesting deeper than \(maximumNesting) objects, arrays and structs (raise EncodingOptions.maximumNesting)")
        }
    }

    /// The error for a repeated type string past the budget, naming the innermost object.
    private func budgetExceeded(_ token: CompactToken) -> ArchiveJSONError {
        var place = "at the top level"
        for frame in frames.innermostFirst {
            if frame.kind == .objectGroups {
                let name = index.className(ofObject: frame.slot).map { " (\($0))" } ?? ""
                place = "in object #\(frame.slot)\(name)"
                break
            }
        }
        return ArchiveJSONError(.limitExceeded, "the lossless JSON would repeat type strings (shared string #\(token.textIndex) has \(token.payload.count) bytes) past the \(repeatedBudget) bytes allowed \(place) (\(limits.repeatedBytesPerInputByte) per input byte plus \(limits.repeatedBaseBytes)); 'typedstream decode' shows each long type string in full once")
    }

    // MARK: - Values

    /// Writes the value `token` starts, of type entry `typeIndex`; `definesObject`: whether an
    /// array or struct it opens defines a new object.
    private mutating func value(_ token: CompactToken, type typeIndex: Int32, definesObject: Bool) throws(ArchiveJSONError) {
        let type = types[typeIndex]
        switch token.code {
        case .object:
            switch token.form {
            case .null: json.null()
            case .reference: json.reference(token.slot, token.width)
            default: try object(token)
            }
        case .classLink:
            if token.form == .null { json.null() } else { chain(from: token) }
        case .arrayStart:
            try nest()
            json.beginArray(definesObject ? .block : .inline)
            frames.push(Frame(kind: .array, next: type.kind == .array ? type.first : 0))
        case .structStart:
            try nest()
            json.beginArray(definesObject ? .block : .inline)
            if type.kind == .structure { frames.push(Frame(kind: .structure, next: type.first, end: type.first + type.count)) } else { frames.push(Frame(kind: .structure)) }
        case .integer:
            let unsignedBits = type.unsignedBits == 0 ? nil : Int(type.unsignedBits)
            if type.kind == .short {
                let signed = Int64(Int16(truncatingIfNeeded: token.value))
                let width = IntegerPlace.short.width(recorded: token.width, for: signed)
                json.archiveInteger(signed, unsignedBits: unsignedBits, width: width, defaultWidth: IntegerPlace.short.archiverChoice(for: signed))
            } else {
                let width = IntegerPlace.integer.width(recorded: token.width, for: token.value)
                json.archiveInteger(token.value, unsignedBits: unsignedBits, width: width, defaultWidth: IntegerPlace.integer.archiverChoice(for: token.value))
            }
        case .float:
            if token.form == .ieee {
                json.archiveFloat(Float(bitPattern: UInt32(truncatingIfNeeded: token.value)), form: .ieee)
            } else {
                json.archiveFloat(Float(token.value), form: .integral(token.width))
            }
        case .double:
            if token.form == .ieee {
                json.archiveDouble(Double(bitPattern: UInt64(bitPattern: token.value)), form: .ieee, systemVersion: header.systemVersion.value)
            } else {
                json.archiveDouble(Double(token.value), form: .integral(token.width), systemVersion: header.systemVersion.value)
            }
        case .byte:
            json.integer(Int64(UInt8(truncatingIfNeeded: token.value)))
        case .rawBytes:
            json.hexObject(bytes[token.payload])
        case .unsharedString:
            guard token.form != .null else { return json.null() }
            json.unsharedBytes(bytes[token.payload], lengthWidth: token.width)
        case .sharedString:
            guard token.form != .null else { return json.null() }
            let text = bytes[token.payload]
            if let decision = sharedDecision(token) {
                json.beginBoxedBytes(text)
                json.key("wire")
                json.decision(decision)
                json.endObject()
            } else {
                json.bytesField(text)
            }
        case .cString:
            switch token.form {
            case .null:
                json.null()
            case .reference:
                json.reference(token.slot, token.width)
            default:
                json.beginObject(.inline)
                json.key("cstring")
                json.integer(Int64(token.slot))
                json.key("text")
                json.bytesField(bytes[token.payload])
                if let decision = sharedDecision(token) {
                    json.key("textWire")
                    json.decision(decision)
                }
                json.endObject()
            }
        case .ignored:
            json.null()
        default:
            break
        }
    }

    /// A new object: its id, class chain, (streamer 3) size, and the opening of its groups.
    private mutating func object(_ token: CompactToken) throws(ArchiveJSONError) {
        try nest()
        json.beginObject(.hug)
        json.key("object")
        json.integer(Int64(token.slot))
        json.key("class")
        if let first = next() { chain(from: first) }
        if header.streamerVersion == 3, let size = peek(0), size.code == .instanceSize {
            _ = next()
            let width = IntegerPlace.counted.width(recorded: size.width, for: size.value)
            let defaultWidth = IntegerPlace.counted.archiverChoice(for: size.value)
            if size.value != 0 || width != defaultWidth {
                json.key("size")
                json.archiveInteger(size.value, unsignedBits: nil, width: width, defaultWidth: defaultWidth)
            }
        }
        json.key("groups")
        json.beginArray()
        frames.push(Frame(kind: .objectGroups, slot: token.slot))
    }

    /// A class chain from its first link: new classes until a reference or the end.
    private mutating func chain(from first: CompactToken) {
        json.beginArray(.inline)
        var link = first
        while link.code == .classLink {
            if link.form == .null { break }
            if link.form == .reference {
                json.reference(link.slot, link.width)
                break
            }
            let nameDecision = sharedDecision(link)
            json.beginObject(.inline)
            json.key("id")
            json.integer(Int64(link.slot))
            json.key("name")
            json.bytesField(bytes[link.payload])
            if let nameDecision {
                json.key("nameWire")
                json.decision(nameDecision)
            }
            json.key("version")
            json.integer(link.value)
            let versionWidth = IntegerPlace.counted.width(recorded: link.width, for: link.value)
            if versionWidth != IntegerPlace.counted.archiverChoice(for: link.value) {
                json.key("versionWidth")
                json.string(versionWidth.name)
            }
            json.endObject()
            guard let following = next() else { break }
            link = following
        }
        json.endArray()
    }

    /// The shared-string decision of `token`'s text when it is not what the writer writes there
    /// by default (``SharedStringTable/archiverDecision(for:)``). Every token with a
    /// shared string comes here, in order, so the table's slots are the reader's.
    private mutating func sharedDecision(_ token: CompactToken) -> SharedStringDecision? {
        let actual: SharedStringDecision
        let fallback: SharedStringDecision
        if token.textIsReference {
            actual = .reference(index: token.textIndex, width: token.textWidth)
            fallback = sharedStrings.archiverDecision(forTextOf: token.textIndex)
        } else {
            let text = bytes[token.payload]
            actual = .literal(length: token.textWidth)
            fallback = sharedStrings.archiverDecision(for: text)
            sharedStrings.record(text, actual)
        }
        return actual == fallback ? nil : actual
    }
}
