import Testing
@testable import TypedStream
import TestSupport

/// `sameBytes(as:)`, the word-at-a-time comparison of type strings (of buffers, and of a slice
/// with an array or a string), against `elementsEqual`: every length up to 40, equal buffers
/// and buffers differing in one byte anywhere.
@Suite("Byte comparison")
struct ByteComparisonTests {
    @Test func agreesWithElementsEqual() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("ByteComparisonTests seed \(seed)")
        var random = SplitMix64(seed: seed)  // TruncationTests.swift
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var other = bytes
            if length > 0 { other[Int(random.next() % UInt64(length))] ^= UInt8(1 + random.next() % 255) }
            for (a, b) in [(bytes, bytes), (bytes, other), (bytes, Array(bytes.dropLast())), (Array(bytes.dropFirst()), other)] {
                let same = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { a.sameBytes(as: $0) } }
                #expect(same == a.elementsEqual(b), "length \(length)")
                // The slice forms, against another slice (starting elsewhere in its array) and
                // against a string's UTF-8 bytes.
                let slice = ([0x40] + a)[1...]
                #expect(slice.sameBytes(as: ([0x41, 0x42] + b)[2...]) == a.elementsEqual(b), "length \(length)")
                let text = String(decoding: b, as: UTF8.self)
                #expect(slice.sameBytes(asUTF8Of: text) == a.elementsEqual(text.utf8), "length \(length)")
            }
        }
        // Empty buffers with and without memory are the same.
        let empty: [UInt8] = []
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        #expect(empty.withUnsafeBufferPointer { $0.sameBytes(as: none) })
        #expect(none.sameBytes(as: none))
    }
}
