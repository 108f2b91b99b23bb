import TypedStream

/// Writes ``PlistValue``s as `bplist00` binary property lists — the container format of
/// `NSKeyedArchiver` archives. Equal strings, numbers and UIDs are stored once, as
/// CoreFoundation does.
///
/// Values are flattened into the plist's object table in pre-order — a collection, then its
/// keys, then its elements or values — each scalar at its first occurrence. The writer works
/// from ``PlistCode`` and writes as it goes: a first pass numbers the objects (the width of an
/// object reference depends on their count), a second writes them, one `$objects` entry at a
/// time for a keyed archive, so nothing but the code, the table of distinct scalars and the
/// object offsets is held.
public enum BinaryPlistWriter {
    /// The bytes of `value` as a binary property list.
    public static func write(_ value: PlistValue) -> [UInt8] {
        var code: [UInt8] = []
        var keys: PlistCode.Keys? = nil
        PlistCode.append(value, keys: &keys, to: &code)
        var flattening = Flattening(top: code, keys: [], entries: nil)
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        flattening.write(to: &out)
        out.flush()
        return capture.bytes
    }

    /// Writes a keyed archive, `{$version, $archiver, $top: top, $objects: objects}`, to `out`.
    static func writeKeyedArchive(version: Int64, top: [PlistEntry], objects: KeyedObjectTable, to out: inout OutputWriter) {
        var code: [UInt8] = []
        var noKeys: PlistCode.Keys? = nil
        code.append(PlistCode.dictionary)
        PlistCode.appendVarint(4, to: &code)
        for key in ["$version", "$archiver", "$top", "$objects"] { PlistCode.appendString(key, to: &code) }
        PlistCode.append(.integer(version), keys: &noKeys, to: &code)
        PlistCode.append(.string("NSKeyedArchiver"), keys: &noKeys, to: &code)
        PlistCode.append(.dictionary(top), keys: &noKeys, to: &code)
        code.append(PlistCode.externalArray)
        PlistCode.appendVarint(objects.count, to: &code)
        var flattening = Flattening(top: code, keys: objects.keyNames, entries: objects)
        flattening.write(to: &out)
    }

    /// The two passes over the code of a plist: numbering, then writing.
    ///
    /// Scalars are matched once, in the numbering pass: each occurrence's object is recorded
    /// and the writing pass reads it back. A plain `$objects` entry is never matched at all: the
    /// keyed encoder stored each plain value once (``KeyedObjectTable/plainValues``), so only
    /// the other scalars (dictionary keys, values inside objects, the archive's own strings) are
    /// looked up, first among themselves, then among the plain entries.
    private struct Flattening {
        /// The code of the top-level value; an external array in it (only as its last value)
        /// stands for the entries of `entries`.
        let top: [UInt8]
        let keys: [String]
        let entries: KeyedObjectTable?

        /// The scalars met outside plain entries that equal no plain entry; their codes are
        /// copied into `scalarCode`, the set's numbers are their objects.
        var scalars = PlistCodeSet()
        var scalarCode: [UInt8] = []
        /// The object of each plain entry of `entries`, by entry (`UInt32.max`: none yet).
        var plainObject: [UInt32] = []
        /// The object of each scalar occurrence matched while numbering, in order; the writing
        /// pass reads them back from `recordedNext`.
        var recorded: [UInt32] = []
        var recordedNext = 0
        /// The object of each UID, by UID (`-1`: none).
        var uidIndex: [Int] = []
        /// The object of each key number (`-1`: none yet).
        var keyIndex: [Int]
        /// The object of each external entry.
        var entryIndex: [UInt32] = []
        /// The next object's number.
        var next = 0
        var writing = false
        var refSize = 1

        // While writing: the objects of the unit being flattened, in order, and their references.
        private enum Item {
            case collection(marker: UInt8, refs: Range<Int>)
            case external(count: Int)
            case scalar(tag: UInt8, position: Int)
        }
        private var items: [Item] = []
        private var refs: [Int] = []
        /// Collections being filled: the next reference slot and how many remain.
        private var frames: [(slot: Int, left: Int)] = []
        /// The size of every object written, as varints (the offset table is made from them).
        private var sizes: [UInt8] = []
        /// The bytes of the objects of the unit being written.
        private var bytes: [UInt8] = []

        init(top: [UInt8], keys: [String], entries: KeyedObjectTable?) {
            self.top = top
            self.keys = keys
            self.entries = entries
            keyIndex = Array(repeating: -1, count: keys.count)
            if let entries { plainObject = Array(repeating: .max, count: entries.count) }
        }

        mutating func write(to out: inout OutputWriter) {
            // Numbering.
            flatten(top, at: 0)
            if let entries {
                entryIndex.reserveCapacity(entries.count)
                for index in 0..<entries.count { entryIndex.append(UInt32(truncatingIfNeeded: flattenEntry(index, of: entries))) }
            }
            let count = next
            refSize = byteCount(for: UInt64(count))
            scalars = PlistCodeSet()
            scalarCode = []
            // Writing.
            next = 0
            writing = true
            let start = out.bytesAppended
            out.append(Array("bplist00".utf8))
            flatten(top, at: 0)
            emit(top, into: &out)
            if let entries {
                for index in 0..<entries.count {
                    flattenEntry(index, of: entries)
                    emit(entries.start(of: index) == nil ? KeyedObjectTable.placeholderCode : entries.code, into: &out)
                }
            }
            let offsetTableStart = out.bytesAppended - start
            let offsetSize = byteCount(for: UInt64(offsetTableStart))
            var offset = 8
            var reader = PlistCode.Reader(sizes, at: 0)
            for _ in 0..<count {
                appendSized(UInt64(offset), size: offsetSize, into: &out)
                offset += reader.varint()
            }
            var word: [UInt8] = []
            word += [0, 0, 0, 0, 0, 0]  // unused, sort version
            word.append(UInt8(offsetSize))
            word.append(UInt8(refSize))
            appendSized(UInt64(count), size: 8, into: &word)
            appendSized(0, size: 8, into: &word)  // the top object
            appendSized(UInt64(offsetTableStart), size: 8, into: &word)
            out.append(word)
        }

        /// Flattens entry `index` of `entries`; returns its object.
        @discardableResult
        private mutating func flattenEntry(_ index: Int, of entries: KeyedObjectTable) -> Int {
            guard let start = entries.start(of: index) else { return flatten(KeyedObjectTable.placeholderCode, at: 0) }
            guard entries.isPlain[index], PlistCode.isScalar(entries.code[start]) else { return flatten(entries.code, at: start) }
            // A plain value: one of its kind among the entries, perhaps met before elsewhere.
            items.removeAll(keepingCapacity: true)
            refs.removeAll(keepingCapacity: true)
            let known = plainObject[index]
            let object = known == .max ? next : Int(known)
            if object == next {
                next += 1
                plainObject[index] = UInt32(truncatingIfNeeded: object)
                if writing { items.append(.scalar(tag: entries.code[start], position: start)) }
            }
            return object
        }

        /// Numbers the objects of the value whose code starts at `start` (and, while writing,
        /// lists them for ``emit(_:into:)``); returns the object of the value itself.
        @discardableResult
        private mutating func flatten(_ code: [UInt8], at start: Int) -> Int {
            var reader = PlistCode.Reader(code, at: start)
            items.removeAll(keepingCapacity: true)
            refs.removeAll(keepingCapacity: true)
            frames.removeAll(keepingCapacity: true)
            let root = object(&reader)
            while let last = frames.last {
                if last.left == 0 {
                    frames.removeLast()
                    continue
                }
                frames[frames.count - 1].slot += 1
                frames[frames.count - 1].left -= 1
                let ref = object(&reader)
                if writing { refs[last.slot] = ref }
            }
            return root
        }

        /// The object of the value at `reader` (a new one for a collection, whose elements are
        /// then read through `frames`).
        private mutating func object(_ reader: inout PlistCode.Reader) -> Int {
            let position = reader.position
            let tag = reader.byte()
            switch tag {
            case PlistCode.array:
                let index = next
                next += 1
                let count = reader.varint()
                if writing {
                    items.append(.collection(marker: 0xA, refs: refs.count..<refs.count + count))
                    frames.append((refs.count, count))
                    refs.append(contentsOf: repeatElement(0, count: count))
                } else {
                    frames.append((0, count))
                }
                return index
            case PlistCode.dictionary:
                let index = next
                next += 1
                let count = reader.varint()
                let first = refs.count
                if writing {
                    items.append(.collection(marker: 0xD, refs: first..<first + 2 * count))
                    refs.append(contentsOf: repeatElement(0, count: 2 * count))
                }
                for k in 0..<count {
                    let ref = scalar(&reader)
                    if writing { refs[first + k] = ref }
                }
                frames.append((first + count, count))
                return index
            case PlistCode.externalArray:
                let index = next
                next += 1
                let count = reader.varint()
                if writing { items.append(.external(count: count)) }
                return index
            default:
                reader.position = position
                return scalar(&reader)
            }
        }

        /// The object of the scalar at `reader`, shared with every equal scalar.
        private mutating func scalar(_ reader: inout PlistCode.Reader) -> Int {
            let position = reader.position
            let tag = reader.byte()
            switch tag {
            case PlistCode.uid:
                let uid = reader.varint()
                if uid >= uidIndex.count { uidIndex.append(contentsOf: repeatElement(-1, count: uid + 1 - uidIndex.count)) }
                let index = shared(uidIndex[uid], tag, position)
                uidIndex[uid] = index
                return index
            case PlistCode.key:
                let number = reader.varint()
                if keyIndex[number] < 0 {
                    // Numbering: a key is the string of its name.
                    var code: [UInt8] = []
                    PlistCode.appendString(keys[number], to: &code)
                    keyIndex[number] = match(code, 0..<code.count)
                }
                return shared(keyIndex[number], tag, position)
            default:
                reader.position = position
                reader.skipScalar()
                if writing {
                    let known = Int(recorded[recordedNext])
                    recordedNext += 1
                    return shared(known, tag, position)
                }
                let object: Int
                if tag == PlistCode.string, PlistCode.Reader(reader.bytes, at: position + 1).payloadIsCopy() {
                    // A copy is the same string as the code it points to: matched by that code.
                    var copy = PlistCode.Reader(reader.bytes, at: position + 1)
                    let range = copy.payload()
                    var code: [UInt8] = []
                    reader.bytes.withUnsafeBufferPointer { _ = PlistCode.appendString(utf8: UnsafeBufferPointer(rebasing: $0[range]), to: &code) }
                    object = match(code, 0..<code.count)
                } else {
                    object = match(reader.bytes, position..<reader.position)
                }
                recorded.append(UInt32(truncatingIfNeeded: object))
                return object
            }
        }

        /// The object `known` (`-1`: none yet, the next one); lists it for writing at its
        /// first occurrence.
        private mutating func shared(_ known: Int, _ tag: UInt8, _ position: Int) -> Int {
            let known = known < 0 ? next : known
            if known == next {
                next += 1
                if writing { items.append(.scalar(tag: tag, position: position)) }
            }
            return known
        }

        /// While numbering: the object of the scalar whose code is `code[range]` — an equal
        /// scalar's met before, a plain entry's, or the next.
        private mutating func match(_ code: [UInt8], _ range: Range<Int>) -> Int {
            let (hash, known) = code.withUnsafeBytes { code in
                let bytes = UnsafeRawBufferPointer(rebasing: code[range])
                let hash = PlistCodeSet.hash(bytes)
                return (hash, scalarCode.withUnsafeBytes { scalars.find(bytes, hash: hash, in: $0) })
            }
            if let known { return Int(scalars.entries[known].value) }
            if let entries {
                let plain = code.withUnsafeBytes { code in
                    entries.code.withUnsafeBytes { entries.plainValues.find(UnsafeRawBufferPointer(rebasing: code[range]), hash: hash, in: $0) }
                }
                if let plain {
                    let entry = Int(entries.plainValues.entries[plain].value)
                    if plainObject[entry] == .max {
                        plainObject[entry] = UInt32(truncatingIfNeeded: next)
                        next += 1
                    }
                    return Int(plainObject[entry])
                }
            }
            let object = next
            next += 1
            scalars.insert(start: scalarCode.count, count: range.count, hash: hash, value: object)
            scalarCode.append(contentsOf: code[range])
            return object
        }

        /// Writes the objects of the unit just flattened (made in ``bytes``, then written at once).
        private mutating func emit(_ code: [UInt8], into out: inout OutputWriter) {
            bytes.removeAll(keepingCapacity: true)
            for item in items {
                let start = bytes.count
                switch item {
                case .collection(let marker, let range):
                    appendMarker(marker, count: marker == 0xD ? range.count / 2 : range.count, into: &bytes)
                    appendReferences(refs[range], size: refSize, into: &bytes)
                case .external(let count):
                    appendMarker(0xA, count: count, into: &bytes)
                    appendReferences(entryIndex.prefix(count), size: refSize, into: &bytes)
                case .scalar(let tag, let position):
                    encodeScalar(code, tag: tag, at: position + 1, keys: keys, into: &bytes)
                }
                PlistCode.appendVarint(bytes.count - start, to: &sizes)
            }
            out.append(bytes)
        }
    }

    /// Appends object references, each `size` bytes big-endian, in one write to the buffer
    /// (not a sized append per reference).
    private static func appendReferences<References: Collection>(_ references: References, size: Int, into out: inout [UInt8])
        where References.Element: BinaryInteger {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: references.count * size))
        out.withUnsafeMutableBufferPointer { buffer in
            var position = start
            for reference in references {
                let value = UInt64(truncatingIfNeeded: reference)
                var shift = (size - 1) * 8
                while shift >= 0 {
                    buffer[position] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
                    position += 1
                    shift -= 8
                }
            }
        }
    }

    private static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// Appends the low `size` bytes of `value` (1, 2, 4 or 8), big-endian, to a byte array or
    /// to the output writer.
    @inline(__always)
    private static func appendSized<Out: BigEndianBytesOutput & ~Copyable>(_ value: UInt64, size: Int, into out: inout Out) {
        switch size {
        case 1:
            out.append(UInt8(truncatingIfNeeded: value))
        case 2:
            out.append(UInt8(truncatingIfNeeded: value >> 8))
            out.append(UInt8(truncatingIfNeeded: value))
        default:
            withUnsafeBytes(of: value.bigEndian) { out.appendBytes(UnsafeRawBufferPointer(rebasing: $0[(8 - size)...])) }
        }
    }

    private static func appendMarker(_ high: UInt8, count: Int, into out: inout [UInt8]) {
        if count < 15 {
            out.append(high << 4 | UInt8(count))
        } else {
            out.append(high << 4 | 0x0F)
            appendInteger(Int64(count), into: &out)
        }
    }

    private static func appendInteger(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0 && value <= 0xFF {
            out.append(0x10); out.append(UInt8(value))
        } else if value >= 0 && value <= 0xFFFF {
            out.append(0x11); appendSized(UInt64(value), size: 2, into: &out)
        } else if value >= 0 && value <= 0xFFFF_FFFF {
            out.append(0x12); appendSized(UInt64(value), size: 4, into: &out)
        } else {
            out.append(0x13); appendSized(UInt64(bitPattern: value), size: 8, into: &out)
        }
    }

    /// Appends the binary form of the scalar whose code (tag `tag`) has its payload at
    /// `position` of `code`; a key's name comes from `keys`.
    private static func encodeScalar(_ code: [UInt8], tag: UInt8, at position: Int, keys: [String], into out: inout [UInt8]) {
        var reader = PlistCode.Reader(code, at: position)
        switch tag {
        case PlistCode.string:
            let range = reader.payload()
            code.withUnsafeBufferPointer { appendString(UnsafeBufferPointer(rebasing: $0[range]), into: &out) }
        case PlistCode.key:
            var name = keys[reader.varint()]
            name.withUTF8 { appendString($0, into: &out) }
        case PlistCode.integer: appendInteger(reader.integer(), into: &out)
        case PlistCode.real: out.append(0x23); appendSized(reader.word(), size: 8, into: &out)
        case PlistCode.date: out.append(0x33); appendSized(reader.word(), size: 8, into: &out)
        case PlistCode.false: out.append(0x08)
        case PlistCode.true: out.append(0x09)
        case PlistCode.data:
            let range = reader.payload()
            appendMarker(0x4, count: range.count, into: &out)
            out += code[range]
        case PlistCode.uid:
            let u = UInt64(reader.varint())
            let size = byteCount(for: u)
            out.append(0x80 | UInt8(size - 1))
            appendSized(u, size: size, into: &out)
        default:
            preconditionFailure("not a scalar plist code \(tag)")
        }
    }

    /// Appends a string given as UTF-8: ASCII as bytes, anything else as UTF-16 big-endian.
    private static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        if utf8.allSatisfy({ $0 < 0x80 }) {
            appendMarker(0x5, count: utf8.count, into: &out)
            out.append(contentsOf: utf8)
        } else if let units = UTF16Length.ofValidUTF8(utf8) {
            appendMarker(0x6, count: units, into: &out)
            appendUTF16(utf8, units: units, into: &out)
        } else {
            // Not valid UTF-8 (a code string always is: it comes from a `String`).
            let units = Array(String(decoding: utf8, as: UTF8.self).utf16)
            appendMarker(0x6, count: units.count, into: &out)
            for u in units { out.append(UInt8(u >> 8)); out.append(UInt8(u & 0xFF)) }
        }
    }

    /// Appends the `units` UTF-16 units of `utf8` (valid UTF-8, see ``UTF16Length``), big-endian.
    private static func appendUTF16(_ utf8: UnsafeBufferPointer<UInt8>, units: Int, into out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: 2 * units))
        out.withUnsafeMutableBufferPointer { buffer in
            var position = start, index = 0
            func put(_ unit: UInt32) {
                buffer[position] = UInt8(truncatingIfNeeded: unit >> 8)
                buffer[position + 1] = UInt8(truncatingIfNeeded: unit)
                position += 2
            }
            while index < utf8.count {
                let lead = UInt32(utf8[index])
                if lead < 0x80 {
                    put(lead)
                    index += 1
                } else if lead < 0xE0 {
                    put((lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F))
                    index += 2
                } else if lead < 0xF0 {
                    put((lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F))
                    index += 3
                } else {
                    let scalar = (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
                        | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
                    let offset = scalar - 0x1_0000
                    put(0xD800 | offset >> 10)
                    put(0xDC00 | offset & 0x3FF)
                    index += 4
                }
            }
        }
    }
}

/// Where ``BinaryPlistWriter`` appends sized big-endian integers: the tables it builds in memory
/// and the output writer, one `appendSized` for both.
private protocol BigEndianBytesOutput: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer)
}

extension Array: BigEndianBytesOutput where Element == UInt8 {
    fileprivate mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

extension OutputWriter: BigEndianBytesOutput {
    fileprivate mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) { append(bytes) }
}
