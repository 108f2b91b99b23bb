import ObjCTypeEncoding
import Testing
@testable import TypedStream

/// The compiled type strings: thousands of distinct ones read, give their types and name them in
/// messages exactly as a few do.
struct TypeProgramTests {
    /// Thousands of distinct type strings: more than keep their parsed types whatever their
    /// length, so that the last ones are parsed again when their types are asked for.
    static let distinctCount = TypeProgram.typeKeepingEntries + 1_000

    /// The type string of top-level group `index`: a struct named after the index, of an `i`, a
    /// `[2s]` and a `d`.
    static func typeString(_ index: Int) -> String { "{S\(index)=i[2s]d}" }

    /// An archive of ``distinctCount`` top-level groups, each with its own type string, holding
    /// `index`, `[1, 2]` and `0.5`; the last group's double is `last` written as an integer.
    static func archive(lastDouble last: Int64 = 1) -> [UInt8] {
        var bytes = headerBytes()
        for index in 0..<distinctCount {
            bytes += literalBytes(typeString(index))
            bytes += intBytes(Int64(index), .little) + [1, 2]
            bytes += index == distinctCount - 1 ? intBytes(last, .little) : [0x83] + fixed(0.5.bitPattern, 8, .little)
        }
        return bytes
    }

    @Test func manyDistinctTypeStringsReadAndGiveTheirTypes() throws {
        var reader = TokenReader(bytes: Self.archive())
        let tokens = try reader.readAllCompact()
        // The header, then per group: type string, struct start, i, array start, 2 s, array end, d, struct end.
        #expect(tokens.count == 1 + Self.distinctCount * 9)
        #expect(reader.compiledTypeStrings.count == Self.distinctCount)
        for index in [0, 1, Self.distinctCount / 2, Self.distinctCount - 1] {
            let expected = try ObjCType.parseGroup(Self.typeString(index))
            #expect(reader.types(ofSharedString: index) == expected, "type string \(index)")
        }
        // Handed to a second reader, every type string is found, none compiled again.
        var again = TokenReader(bytes: Self.archive(), compiled: reader.compiledTypeStrings)
        #expect(try again.readAllCompact() == tokens)
        #expect(again.compiledTypeStrings.count == Self.distinctCount)
        #expect(again.types(ofSharedString: Self.distinctCount - 1) == (try ObjCType.parseGroup(Self.typeString(Self.distinctCount - 1))))
    }

    @Test func aMessageNamesTheTypeOfALateEntry() {
        // 2^53 + 1 is no double: the last group's `d` refuses it, naming the `d`.
        var reader = TokenReader(bytes: Self.archive(lastDouble: (1 << 53) + 1))
        #expect {
            _ = try reader.readAllCompact()
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.code == .inexactReal && error.reason.contains("written for a real (d)")
        }
    }

    @Test func aMessageNamesTheArrayElementAndTheStructField() {
        // A group `{?=i[3{?=sc}]}` whose last element is cut short (its shorts written in two
        // bytes, so that the array passes the up-front length check): the message names the `c`.
        var bytes = headerBytes() + literalBytes("{?=i[3{?=sc}]}") + [5, 0x81, 1, 0, 2, 0x81, 3, 0, 4, 5]
        var reader = TokenReader(bytes: bytes)
        #expect {
            _ = try reader.readAllCompact()
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.code == .truncated && error.reason.contains("a byte (c)")
        }
        // An array too long for the bytes left names its element type.
        bytes = headerBytes() + literalBytes("{?=i[300{?=sc}]}") + [5, 1, 2]
        reader = TokenReader(bytes: bytes)
        #expect {
            _ = try reader.readAllCompact()
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.code == .badLength && error.reason.contains("array of 300 '{?=sc}'")
        }
    }
}
