import ObjCTypeEncoding
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// Every catalogued layout is well formed: its type strings parse, each has one field per
/// value, counted steps count by an integer field named before them in the same class or its
/// superclasses, and no class is both catalogued and given a codec of its own.
@Test func catalogueLayoutsAreWellFormed() throws {
    for layout in ClassLayouts.all {
        for step in layout.steps {
            let types = try ObjCType.parseGroup(step.typeString.replacingOccurrences(of: "[*", with: "[1"))
            #expect(types.count == step.fields.count,
                    "\(layout.className) v\(layout.versions): \"\(step.typeString)\" has \(types.count) values, \(step.fields.count) names")
            for field in step.fields {
                #expect(!field.name.isEmpty && !field.name.contains(" "), "\(layout.className): field '\(field.name)'")
            }
            if case .counted(let by) = step.repetition {
                let earlier = layout.steps.prefix { $0.typeString != step.typeString || $0.fields != step.fields }
                let namedHere = earlier.contains { $0.fields.contains { $0.name == by } }
                #expect(namedHere || ClassLayouts.all.contains { $0.steps.contains { $0.fields.contains { $0.name == by } } },
                        "\(layout.className): counted by unknown field '\(by)'")
            }
        }
    }
    // No layout is hidden behind an earlier one of the same class for the same versions with
    // the same type strings (the matcher would never reach it).
    for (index, layout) in ClassLayouts.all.enumerated() {
        for earlier in ClassLayouts.all[..<index] where earlier.className == layout.className && earlier.versions.overlaps(layout.versions) {
            #expect(earlier.steps.map(\.typeString) != layout.steps.map(\.typeString) || earlier.steps.map(\.repetition) != layout.steps.map(\.repetition),
                    "\(layout.className) v\(layout.versions): the same steps as an earlier layout")
        }
    }
    var others = ClassRegistry()
    ClassRegistry.registerAppKitAndNeXT(&others)
    for name in ClassLayouts.classNames {
        #expect(others.type(forClassName: name) == nil, "\(name) has a codec and a layout")
    }
}

/// Groups made by hand, so each rule of the matcher is seen to hold and to fail.
struct ClassLayoutMatchTests {
    private func group(_ typeString: String, _ values: [ArchivedValue]) throws -> ArchivedGroup {
        ArchivedGroup(typeString: ArraySlice(typeString.utf8), types: try ObjCType.parseGroup(typeString), values: values)
    }

    private func int(_ v: Int64) -> ArchivedValue { .integer(v, width: nil) }

    private let menuItem = [ArchiveClassLink("NSCustomResource", version: 41), .nsObject]

    @Test func namesEveryValueOfAKnownChain() throws {
        let groups = [try group("@@", [.object(nil, referenceWidth: nil), .object(nil, referenceWidth: nil)])]
        let match = try #require(ClassLayouts.match(chain: menuItem, groups: groups))
        #expect(match.groups.map { $0.fields.map(\.name) } == [["className", "resourceName"]])
        #expect(match.groups[0].fields.map(\.keyedName) == ["NSClassName", "NSResourceName"])
        #expect(match.groups[0].className == "NSCustomResource")
    }

    @Test func refusesOtherTypesLeftoversVersionsAndUnknownClasses() throws {
        let right = try group("@@", [.object(nil, referenceWidth: nil), .object(nil, referenceWidth: nil)])
        let wrong = try group("@i", [.object(nil, referenceWidth: nil), int(1)])
        #expect(ClassLayouts.match(chain: menuItem, groups: [wrong]) == nil)
        #expect(ClassLayouts.match(chain: menuItem, groups: [right, right]) == nil)
        #expect(ClassLayouts.match(chain: menuItem, groups: []) == nil)
        #expect(ClassLayouts.match(chain: [ArchiveClassLink("NSCustomResource", version: 40), .nsObject], groups: [right]) == nil)
        #expect(ClassLayouts.match(chain: [ArchiveClassLink("NoSuchClass", version: 0), .nsObject], groups: []) == nil)
        // A known class under an unknown superclass: the superclass's groups are not described.
        #expect(ClassLayouts.match(chain: [ArchiveClassLink("NSCustomResource", version: 41), ArchiveClassLink("Mystery"), .nsObject], groups: [right]) == nil)
    }

    @Test func arrayCountWildcard() {
        #expect(ClassLayouts.typeString(ArraySlice("[1161c]".utf8), matches: "[*c]"))
        #expect(ClassLayouts.typeString(ArraySlice("i[7C]@".utf8), matches: "i[*C]@"))
        #expect(!ClassLayouts.typeString(ArraySlice("[c]".utf8), matches: "[*c]"))
        #expect(!ClassLayouts.typeString(ArraySlice("[12c]".utf8), matches: "[*C]"))
        #expect(!ClassLayouts.typeString(ArraySlice("[12c]i".utf8), matches: "[*c]"))
        #expect(!ClassLayouts.typeString(ArraySlice("*".utf8), matches: "[*c]"))
        #expect(ClassLayouts.typeString(ArraySlice("*".utf8), matches: "*"))
    }

    @Test func countedOptionalAndRepeatedSteps() throws {
        let layouts = [
            ClassLayout("Base", 1, [.one("i", "count"), .counted("@", by: "count", "element"), .optional("c", "flag")]),
            ClassLayout("Leaf", 2, [.any("f", "weight")]),
        ]
        func match(_ groups: [ArchivedGroup]) -> LayoutMatch? {
            ClassLayouts.match(chain: [ArchiveClassLink("Leaf", version: 2), ArchiveClassLink("Base", version: 1)],
                               groupCount: groups.count, typeString: { groups[$0].typeString },
                               integer: { g, v in if case .integer(let n, _) = groups[g].value(at: v) { n } else { nil } },
                               layouts: { name in layouts.filter { $0.className == name } })
        }
        let object = try group("@", [.object(nil, referenceWidth: nil)])
        let weight = try group("f", [.float(1, form: nil)])
        let two = try #require(match([try group("i", [int(2)]), object, object, try group("c", [.byte(1)]), weight, weight]))
        #expect(two.groups.map { $0.fields[0].name } == ["count", "element", "element", "flag", "weight", "weight"])
        #expect(two.groups.map(\.repeatIndex) == [0, 0, 1, 0, 0, 1])
        #expect(two.groups.map(\.className) == ["Base", "Base", "Base", "Base", "Leaf", "Leaf"])
        let none = try #require(match([try group("i", [int(0)])]))
        #expect(none.groups.count == 1)
        #expect(match([try group("i", [int(3)]), object, object]) == nil)  // fewer than counted
        #expect(match([try group("i", [int(-1)])]) == nil)
        #expect(match([try group("i", [int(Int64.max)]), object]) == nil)
    }
}

/// A catalogued class archived with groups its layout does not have stays a generic object,
/// with a warning, and is written back unchanged.
@Test func unknownLayoutFallsBackToGenericWithAWarning() throws {
    let odd = GenericObject()
    odd.archiveClassChain = [ArchiveClassLink("NSCustomResource", version: 41), .nsObject]
    odd.groups = [ArchivedGroup(typeString: ArraySlice("i".utf8), types: [.int], values: [.integer(7, width: nil)])]
    let bytes = try Archiver.archivedBytes(withRootObject: odd)
    let unarchiver = try Unarchiver(bytes: bytes, registry: .foundation)
    let root = try unarchiver.decodeRootObject()
    #expect(root is GenericObject)
    #expect(unarchiver.warnings.contains { $0.contains("NSCustomResource v41") && $0.contains("\"i\"") })
    #expect(try Archiver.archivedBytes(withRootObject: root) == bytes)
}

/// Over the corpus (the archives inside archives too), what `decode --stats` counts: at least
/// 95 % of all objects typed, and every class with 10 or more objects typed in full, without a
/// fallback warning.
@Test(.needsCorpus) func corpusObjectsAreTypedByCodecsOrLayouts() throws {
    let files = try #require(AppKitCorpus.files())
    var queue = files.map { (name: $0.name, bytes: $0.bytes) }
    var perClass: [String: ArchiveStatistics.ClassCount] = [:]
    var typed = 0, objects = 0
    while !queue.isEmpty {
        let (name, bytes) = queue.removeFirst()
        let statistics = try ArchiveStatistics.compute(bytes: bytes)
        typed += statistics.typed
        objects += statistics.objects
        for (className, count) in statistics.perClass {
            perClass[className, default: .init()].typed += count.typed
            perClass[className, default: .init()].generic += count.generic
        }
        let pass = try AppKitCorpus.pass(bytes)
        #expect(pass.decoder.warnings.allSatisfy { !$0.contains("no known layout") }, "\(name): \(pass.decoder.warnings)")
        for (index, nested) in pass.nested.enumerated() { queue.append(("\(name)#\(index)", nested)) }
    }
    print("corpus objects typed: \(typed) of \(objects)")
    #expect(Double(typed) >= 0.95 * Double(objects))
    for (className, count) in perClass where count.typed + count.generic >= 10 {
        #expect(count.generic == 0, "\(className): \(count.generic) of \(count.typed + count.generic) generic")
    }
}
