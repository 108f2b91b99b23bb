import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport

private func cls(_ names: String...) -> PlistValue {
    .dictionary([PlistEntry("$classname", .string(names[0])), PlistEntry("$classes", .array(names.map(PlistValue.string)))])
}

private func obj(_ classUID: UInt32, _ fields: (String, PlistValue)...) -> PlistValue {
    .dictionary([PlistEntry("$class", .uid(classUID))] + fields.map { PlistEntry($0.0, $0.1) })
}

/// The exact `$objects` tables written for each Foundation class: the layouts Apple's
/// NSKeyedArchiver writes (and swift-corelibs-foundation's, where the two agree), UIDs numbered
/// in NSKeyedArchiver's order (object, then what it refers to, then its `$class`).
@Suite("Keyed export: layouts")
struct KeyedExportLayoutTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var root: @Sendable () -> AnyObject?
        var objects: [PlistValue]
        var sourceLocation: SourceLocation
        var testDescription: String { name }

        init(_ name: String, _ root: @escaping @Sendable () -> AnyObject?, _ objects: [PlistValue], at sourceLocation: SourceLocation = #_sourceLocation) {
            self.name = name
            self.root = root
            self.objects = objects
            self.sourceLocation = sourceLocation
        }
    }

    static let rows: [Row] = [
        Row("NSString", { StringObject("hello") }, [.string("$null"), .string("hello")]),
        Row("NSMutableString", { StringObject("mut", mutable: true) },
            [.string("$null"), obj(2, ("NS.string", .string("mut"))), cls("NSMutableString", "NSString", "NSObject")]),
        Row("NSNumber q", { NumberObject(int: -42) }, [.string("$null"), .integer(-42)]),
        Row("NSNumber BOOL", { NumberObject(bool: true) }, [.string("$null"), .bool(true)]),
        Row("NSNumber d", { NumberObject(double: 1.5) }, [.string("$null"), .real(1.5)]),
        Row("NSNumber f", { NumberObject(.float(0.1)) }, [.string("$null"), .real(Double(Float(0.1)))]),
        Row("NSNumber Q max", { NumberObject(.uint(.max)) }, [.string("$null"), .real(Double(UInt64.max))]),
        Row("NSData", { DataObject([1, 2, 3]) }, [.string("$null"), .data([1, 2, 3])]),
        Row("NSMutableData", { DataObject([1, 2, 3], mutable: true) },
            [.string("$null"), obj(2, ("NS.data", .data([1, 2, 3]))), cls("NSMutableData", "NSData", "NSObject")]),
        Row("NSDate", { DateObject(timeIntervalSinceReferenceDate: 12.5) },
            [.string("$null"), obj(2, ("NS.time", .real(12.5))), cls("NSDate", "NSObject")]),
        Row("NSNull", { NullObject() }, [.string("$null"), obj(2), cls("NSNull", "NSObject")]),
        Row("NSObject", { PlainObject() }, [.string("$null"), obj(2), cls("NSObject")]),
        Row("NSArray with a shared element and NSNull", {
            let s = StringObject("hello")
            return ArrayObject([s, s, NullObject()])
        }, [.string("$null"), obj(5, ("NS.objects", .array([.uid(2), .uid(2), .uid(3)]))), .string("hello"),
            obj(4), cls("NSNull", "NSObject"), cls("NSArray", "NSObject")]),
        Row("NSMutableArray", { ArrayObject(strings: ["a"], mutable: true) },
            [.string("$null"), obj(3, ("NS.objects", .array([.uid(2)]))), .string("a"), cls("NSMutableArray", "NSArray", "NSObject")]),
        Row("NSSet", { SetObject(strings: ["a"]) },
            [.string("$null"), obj(3, ("NS.objects", .array([.uid(2)]))), .string("a"), cls("NSSet", "NSObject")]),
        Row("NSMutableSet", { SetObject(strings: ["a"], mutable: true) },
            [.string("$null"), obj(3, ("NS.objects", .array([.uid(2)]))), .string("a"), cls("NSMutableSet", "NSSet", "NSObject")]),
        Row("NSDictionary", { DictionaryObject(stringKeys: [("k", NumberObject(int: 1))]) },
            [.string("$null"), obj(4, ("NS.keys", .array([.uid(2)])), ("NS.objects", .array([.uid(3)]))),
             .string("k"), .integer(1), cls("NSDictionary", "NSObject")]),
        Row("NSMutableDictionary", { DictionaryObject(stringKeys: [("k", NumberObject(int: 1))], mutable: true) },
            [.string("$null"), obj(4, ("NS.keys", .array([.uid(2)])), ("NS.objects", .array([.uid(3)]))),
             .string("k"), .integer(1), cls("NSMutableDictionary", "NSDictionary", "NSObject")]),
        Row("NSURL absolute", { URLObject(string: "http://x.org/a") },
            [.string("$null"), obj(3, ("NS.base", .uid(0)), ("NS.relative", .uid(2))), .string("http://x.org/a"), cls("NSURL", "NSObject")]),
        Row("NSURL relative", { URLObject(string: "b/c", base: URLObject(string: "http://x.org/a/")) },
            [.string("$null"), obj(4, ("NS.base", .uid(2)), ("NS.relative", .uid(5))),
             obj(4, ("NS.base", .uid(0)), ("NS.relative", .uid(3))), .string("http://x.org/a/"), cls("NSURL", "NSObject"), .string("b/c")]),
        Row("NSValue point", { ValueObject(.point(x: 1.5, y: 2)) },
            [.string("$null"), obj(3, ("NS.special", .integer(1)), ("NS.pointval", .uid(2))), .string("{1.5, 2}"), cls("NSValue", "NSObject")]),
        Row("NSValue size (32-bit floats)", { ValueObject(.size(width: 0.1, height: 4), encoding: .nsFloat32) },
            [.string("$null"), obj(3, ("NS.special", .integer(2)), ("NS.sizeval", .uid(2))), .string("{0.1, 4}"), cls("NSValue", "NSObject")]),
        Row("NSValue rect", { ValueObject(.rect(x: 1, y: -2, width: 3, height: 4.25)) },
            [.string("$null"), obj(3, ("NS.special", .integer(3)), ("NS.rectval", .uid(2))), .string("{{1, -2}, {3, 4.25}}"), cls("NSValue", "NSObject")]),
        Row("NSValue range", { ValueObject(.range(location: 5, length: 6)) },
            [.string("$null"), obj(4, ("NS.special", .integer(4)), ("NS.rangeval.length", .uid(2)), ("NS.rangeval.location", .uid(3))),
             .integer(6), .integer(5), cls("NSValue", "NSObject")]),
        Row("NSValue other objCType", { ValueObject(objCType: "i", value: .integer(7, width: nil)) },
            [.string("$null"), obj(3, ("$0", .uid(2)), ("$1", .integer(7))), .string("i"), cls("NSValue", "NSObject")]),
        Row("NSValue struct objCType", { ValueObject(objCType: "{?=iC}", value: .structure([.integer(-1, width: nil), .byte(200)])) },
            [.string("$null"), obj(3, ("$0", .uid(2)), ("$1", .array([.integer(-1), .integer(200)]))), .string("{?=iC}"), cls("NSValue", "NSObject")]),
        Row("nil root", { nil }, [.string("$null")]),
    ]

    @Test(arguments: rows)
    func layout(_ row: Row) throws {
        let root = row.root()
        let archive = try KeyedArchiveExporter.export(root: root)
        #expect(KeyedTestSupport.objects(archive) == row.objects, sourceLocation: row.sourceLocation)
        #expect(archive["$top"] == .dictionary([PlistEntry("root", .uid(root == nil ? 0 : 1))]), sourceLocation: row.sourceLocation)
    }

    @Test func header() throws {
        let archive = try KeyedArchiveExporter.export(root: StringObject("x"))
        guard case .dictionary(let entries) = archive else { Issue.record("not a dictionary"); return }
        #expect(entries.map(\.key) == ["$version", "$archiver", "$top", "$objects"])
        #expect(archive["$version"] == .integer(100000))
        #expect(archive["$archiver"] == .string("NSKeyedArchiver"))
    }

    @Test func attributedStringLayouts() throws {
        let bold = DictionaryObject(stringKeys: [("bold", NumberObject(bool: true))])
        let plain = DictionaryObject()
        let two = AttributedStringObject("hello world", runs: [.init(length: 5, attributes: bold), .init(length: 6, attributes: plain)])
        let archive = try KeyedArchiveExporter.export(root: two)
        let objects = KeyedTestSupport.objects(archive)
        #expect(objects == [
            .string("$null"),
            obj(11, ("NSString", .uid(2)), ("NSAttributes", .uid(3)), ("NSAttributeInfo", .uid(10))),
            .string("hello world"),
            obj(9, ("NS.objects", .array([.uid(4), .uid(8)]))),
            obj(7, ("NS.keys", .array([.uid(5)])), ("NS.objects", .array([.uid(6)]))),
            .string("bold"), .bool(true), cls("NSDictionary", "NSObject"),
            obj(7, ("NS.keys", .array([])), ("NS.objects", .array([]))),
            cls("NSMutableArray", "NSArray", "NSObject"),
            .data([5, 0, 6, 1]),
            cls("NSAttributedString", "NSObject"),
        ])

        // One run: Apple's layout has the dictionary itself and no NSAttributeInfo …
        let one = AttributedStringObject("hi", runs: [.init(length: 2, attributes: bold)], mutable: true)
        let apple = try KeyedArchiveExporter.export(root: one)
        let root = KeyedTestSupport.root(apple)
        #expect(root?["NSAttributeInfo"] == nil)
        #expect(KeyedTestSupport.classes(of: KeyedTestSupport.resolve(root?["NSAttributes"], in: apple), in: apple) == ["NSDictionary", "NSObject"])
        #expect(KeyedTestSupport.classes(of: root, in: apple) == ["NSMutableAttributedString", "NSAttributedString", "NSObject"])
        #expect(KeyedTestSupport.resolve(root?["NSString"], in: apple)?["NS.string"] == .string("hi"))
        // … the indexed layout always has the array and the varints.
        var options = KeyedArchiveExporter.Options()
        options.attributeRuns = .alwaysIndexed
        let indexed = try KeyedArchiveExporter.export(root: one, options: options)
        let indexedRoot = KeyedTestSupport.root(indexed)
        #expect(KeyedTestSupport.resolve(indexedRoot?["NSAttributeInfo"], in: indexed) == .data([2, 0]))

        // Runs that repeat a dictionary repeat its index; lengths of 128 and more take two bytes.
        let long = String(repeating: "a", count: 300)
        let repeated = AttributedStringObject(long, runs: [.init(length: 100, attributes: bold), .init(length: 150, attributes: plain),
                                                           .init(length: 50, attributes: bold)])
        let r = try KeyedArchiveExporter.export(root: repeated)
        #expect(KeyedTestSupport.resolve(KeyedTestSupport.root(r)?["NSAttributeInfo"], in: r) == .data([100, 0, 0x96, 0x01, 1, 50, 0]))

        // An empty string has only NSString.
        let empty = try KeyedArchiveExporter.export(root: AttributedStringObject("", runs: []))
        #expect(KeyedTestSupport.root(empty) == obj(3, ("NSString", .uid(2))))
    }

    @Test func attributeInfoVarints() throws {
        // Run lengths 127, 128, 300 and 2^14: one, two, two and three bytes, low 7 bits first.
        let a = DictionaryObject(stringKeys: [("a", NumberObject(int: 1))]), b = DictionaryObject()
        let lengths = [127, 128, 300, 1 << 14]
        let text = AttributedStringObject(String(repeating: "x", count: lengths.reduce(0, +)),
                                          runs: lengths.enumerated().map { .init(length: $0.1, attributes: $0.0 % 2 == 0 ? a : b) })
        let archive = try KeyedArchiveExporter.export(root: text)
        let info = KeyedTestSupport.resolve(KeyedTestSupport.root(archive)?["NSAttributeInfo"], in: archive)
        #expect(info == .data([0x7F, 0, 0x80, 0x01, 1, 0xAC, 0x02, 0, 0x80, 0x80, 0x01, 1]))
        // … and they read back.
        let again = try KeyedArchiveImporter.rootObject(from: archive) as? AttributedStringObject
        #expect(again?.attributeRuns.map(\.length) == lengths)
        #expect(again.map { $0.attributeRuns[0].attributes === $0.attributeRuns[2].attributes } == true)
    }

    @Test func geometryText() {
        #expect(GeometryText.rect(x: 0, y: 0, width: 100, height: 50) == "{{0, 0}, {100, 50}}")
        #expect(GeometryText.point(x: Double(Float(0.1)), y: -0.0, isFloat: true) == "{0.1, -0.0}")
        #expect(GeometryText.point(x: 1e7, y: 9_999_999, isFloat: true) == "{10000000.0, 9999999}")
        #expect(GeometryText.number(1e7) == "10000000")
        #expect(GeometryText.point(x: Double(Float(0.1)), y: 1e20) == "{0.10000000149011612, 1e+20}")
        #expect(GeometryText.size(width: .infinity, height: .nan) == "{inf, nan}")
        #expect(GeometryText.numbers(in: "{{1, -2.5}, {3e2, 4}}") == [1, -2.5, 300, 4])
        #expect(GeometryText.numbers(in: "{1, 2") == [1, 2])
        #expect(GeometryText.numbers(in: "{1, x}") == nil)
        #expect(GeometryText.numbers(in: "{1, 2, 3}") == nil)
    }

    @Test func sharedObjectsKeepOneUIDAndCyclesReferBack() throws {
        // A shared mutable string and a shared array: one entry each, referred to twice.
        let shared = StringObject("s", mutable: true)
        let inner = ArrayObject([shared])
        let outer = ArrayObject([inner, inner, shared], mutable: true)
        // A cycle: the outer array holds itself.
        outer.elements.append(outer)
        let archive = try KeyedArchiveExporter.export(root: outer)
        let objects = KeyedTestSupport.objects(archive)
        #expect(objects[1]["NS.objects"] == .array([.uid(2), .uid(2), .uid(3), .uid(1)]))
        #expect(objects[2]["NS.objects"] == .array([.uid(3)]))
        #expect(objects.count == 7)  // $null, outer, inner, string, 3 classes
        // Equal plain values are stored once, like Foundation does.
        let equal = try KeyedArchiveExporter.export(root: ArrayObject(strings: ["x", "x"]))
        #expect(KeyedTestSupport.objects(equal)[1]["NS.objects"] == .array([.uid(2), .uid(2)]))
    }

    @Test func tooDeepAndUnsupportedObjectsThrow() throws {
        var nested = ArrayObject([])
        for _ in 0..<20 { nested = ArrayObject([nested]) }
        var options = KeyedArchiveExporter.Options()
        options.maximumDepth = 10
        #expect(throws: KeyedArchiveError(.tooDeep, "")) { try KeyedArchiveExporter.export(root: nested, options: options) }
        #expect((try? KeyedArchiveExporter.export(root: nested)) != nil)
        final class Stranger {}
        #expect(throws: KeyedArchiveError(.unsupportedObject, "")) { try KeyedArchiveExporter.export(root: ArrayObject([Stranger()])) }
    }

    @Test func badTypedstreamThrowsWithOffset() {
        var bytes = try! Archiver.archivedBytes(withRootObject: ArrayObject(strings: ["a", "b"]))
        bytes.removeLast(3)
        do {
            _ = try KeyedArchiveExporter.export(typedstream: bytes)
            Issue.record("a truncated archive exported")
        } catch {
            #expect(error.code == .decoding)
            #expect(error.offset != nil)
        }
    }
}
