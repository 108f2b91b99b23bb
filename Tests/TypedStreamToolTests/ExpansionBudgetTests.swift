import Foundation
import ObjCTypeEncoding
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool

/// Outputs that would repeat what an archive holds once stay bounded (``OutputLimits``): plain
/// JSON fails past its budget naming the object, lossless JSON past its budget of repeated type
/// strings, and the tree writes long type strings and class chains out once.
@Suite struct ExpansionBudgetTests {
    /// 30 levels of NSArray, each holding the level below twice: a few hundred bytes whose
    /// natural values would repeat the bottom string 2³⁰ times.
    static let billionLaughs: [UInt8] = {
        var level: AnyObject = StringObject("lol")
        for _ in 0..<30 { level = ArrayObject([level, level]) }
        return (try? Archiver.archivedBytes(withRootObject: level)) ?? []
    }()

    @Test func plainJSONStopsAtItsBudgetNamingTheObject() {
        let bytes = Self.billionLaughs
        #expect(bytes.count > 100 && bytes.count < 2000)
        let result = run(["decode", "--plain", "-"], stdin: bytes)
        #expect(result.exitCode == .failure)
        let budget = OutputLimits.default.repeatedBytes(forInputOf: bytes.count)
        #expect(result.outputBytes.count < 2 * budget, "\(result.outputBytes.count) bytes written")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.standardError.contains("repeats the value of object #"), "\(result.standardError)")
        #expect(result.standardError.contains("(NSArray)"))
        #expect(result.standardError.contains("decode --json"))
    }

    @Test func referencesKeepTheOtherOutputsSmall() {
        let bytes = Self.billionLaughs
        for command in [["decode"], ["decode", "--json"], ["tokens"], ["inspect"]] {
            let result = run(command + ["-"], stdin: bytes)
            #expect(result.exitCode == .success, "\(command)")
            #expect(result.outputBytes.count < 256 * bytes.count, "\(command): \(result.outputBytes.count) bytes")  // linear, not 2³⁰
        }
    }

    /// 2 000 groups whose type string is a 32 KiB union (its values are 4 bytes): 64 MB of tree
    /// when the type string is repeated at every group.
    static let longTypeString: [UInt8] = {
        let type = "(?=" + String(repeating: "i", count: 32 * 1024) + ")"
        guard let types = try? ObjCType.parseGroup(type) else { return [] }
        let group = ArchivedGroup(typeString: ArraySlice(type.utf8), types: types, values: [.bytes([1, 2, 3, 4])])
        return (try? ArchiveWriter.write(Archive(groups: Array(repeating: group, count: 2000)))) ?? []
    }()

    @Test func theTreeWritesALongTypeStringOutOnce() {
        let bytes = Self.longTypeString
        #expect(bytes.count > 32 * 1024 && bytes.count < 64 * 1024)
        let result = run(["decode", "-"], stdin: bytes)
        #expect(result.exitCode == .success)
        #expect(result.outputBytes.count < 1 << 20, "\(result.outputBytes.count) bytes")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2001)
        #expect(lines[1].utf8.count > 32 * 1024)  // in full at its first group
        #expect(lines[2].hasPrefix("\"(?=iiii"))
        #expect(lines[2].hasSuffix("…\" (type string of 32772 bytes, shared string #0, written out in full earlier) <4 bytes: 01 02 03 04>"), "\(lines[2])")
    }

    @Test func losslessJSONStopsAtItsBudgetOfRepeatedTypeStrings() {
        let bytes = Self.longTypeString
        let result = run(["decode", "--json", "-"], stdin: bytes)
        #expect(result.exitCode == .failure)
        let budget = OutputLimits.default.repeatedBytes(forInputOf: bytes.count)
        #expect(result.outputBytes.count < 2 * budget, "\(result.outputBytes.count) bytes written")
        #expect(result.standardError.contains("would repeat type strings"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    /// 300 objects of a class whose chain of 200 classes has 13 KB of text.
    @Test func theTreeWritesALongClassChainOutOnce() throws {
        var chain: ArchivedClass? = nil
        for i in 0..<200 {
            chain = ArchivedClass(name: Array("AVeryLongClassNameForAChainThatGoesOnAndOn\(i)".utf8), version: 0, superclass: chain)
        }
        let leaf = try #require(chain)
        let objects = (0..<300).map { _ in ArchivedObject(archivedClass: leaf) }
        let types = try ObjCType.parseGroup("@")
        let groups = objects.map { ArchivedGroup(typeString: ArraySlice("@".utf8), types: types, values: [.object($0, referenceWidth: nil)]) }
        let bytes = try ArchiveWriter.write(Archive(groups: groups))
        let result = run(["decode", "-"], stdin: bytes)
        #expect(result.exitCode == .success)
        #expect(result.outputBytes.count < 64 * 1024, "\(result.outputBytes.count) bytes")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines[1].utf8.count > 8 * 1024)
        #expect(lines[2].contains("… (class #"), "\(lines[2])")
        #expect(lines[2].hasSuffix("superclasses, written out in full earlier)"))
    }
}
