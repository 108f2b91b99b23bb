import Foundation
import Testing
import TypedStreamExport
@testable import TypedStreamTool
import TestSupport

/// The names of catalogued classes' fields as users see them: the tree, plain JSON, the keyed
/// export and its way back.
struct NamedFieldsTests {
    private let nib = "nib/macosx-DropScript-MainMenu.nib.typedstream"

    private func run(_ arguments: [String], _ bytes: [UInt8]) -> (output: [UInt8], status: ExitCode) {
        let result = TypedStreamCommand.run(arguments + ["-"], standardInput: bytes)
        return (result.outputBytes, result.exitCode)
    }

    @Test(.needsCorpus) func theTreeNamesEachValue() throws {
        let bytes = try SharedCorpus.bytes(nib)
        let (output, status) = run(["decode"], bytes)
        #expect(status == .success)
        let tree = String(decoding: output, as: UTF8.self)
        let expected = [
            #""@" menu: → #10 NSMenu"#,
            #""i@@IIi@@@@:i@""#,
            "  isDisabled: 0",
            "  title: #17 NSString v1 : NSObject v0",
            #"    "+" "Open...""#,
            "  keyEquivalent: #18 NSString v1 : NSObject v0",
            #"    "+" "o""#,
            "  keyEquivalentModifierMask: 1048576",
        ].map { String(repeating: " ", count: 14) + $0 + "\n" }.joined()
        #expect(tree.contains(expected))
    }

    @Test(.needsCorpus) func plainJSONHasNamedMembersAndReferences() throws {
        let bytes = try SharedCorpus.bytes(nib)
        let (output, status) = run(["decode", "--plain"], bytes)
        #expect(status == .success)
        var items: [[JSONMember]] = []
        var stack = [try JSONValue.parse(output)]
        while let value = stack.popLast() {
            switch value {
            case .object(let members):
                items.append(members)
                stack.append(contentsOf: members.map(\.value))
            case .array(let elements): stack.append(contentsOf: elements)
            default: break
            }
        }
        let open = try #require(items.first { $0.contains(JSONMember("title", .string("Open..."))) })
        #expect(open.map(\.key) == ["$class", "$id", "menu", "isDisabled", "title", "keyEquivalent", "keyEquivalentModifierMask",
                                    "mnemonicLocation", "state", "image", "onStateImage", "offStateImage", "mixedStateImage",
                                    "action", "tag", "representedObject", "target", "submenu"])
        #expect(open.contains(JSONMember("keyEquivalent", .string("o"))))
        #expect(open.contains(JSONMember("menu", .object([JSONMember("$ref", .integer(10))]))))
        // Every "$ref" names an object written in full somewhere in the document.
        let ids = Set(items.compactMap { members in members.first { $0.key == "$id" }.map { "\($0.value)" } })
        let refs = Set(items.compactMap { members in members.count == 1 && members[0].key == "$ref" ? "\(members[0].value)" : nil })
        #expect(refs.isSubset(of: ids), "references to objects never written: \(refs.subtracting(ids))")
    }

    @Test(.needsCorpus) func keyedExportUsesAppleKeysAndComesBack() throws {
        let bytes = try SharedCorpus.bytes(nib)
        let (keyed, status) = run(["convert", "--to", "keyed-xml"], bytes)
        #expect(status == .success)
        let xml = String(decoding: keyed, as: UTF8.self)
        for key in ["NSTitle", "NSKeyEquiv", "NSKeyEquivModMask", "NSSubmenu", "NSFrame", "TSClassVersions"] {
            #expect(xml.contains("<key>\(key)</key>"), "no \(key)")
        }
        #expect(!xml.contains("<key>TSGroups</key>\n\t\t\t<array>\n\t\t\t\t<dict>\n\t\t\t\t\t<key>type</key>\n\t\t\t\t\t<string>i@@IIi@@@@:i@"))
        let (back, backStatus) = run(["convert", "--to", "typedstream"], keyed)
        #expect(backStatus == .success)
        let (again, againStatus) = run(["convert", "--to", "keyed-xml"], back)
        #expect(againStatus == .success)
        #expect(again == keyed)
    }
}
