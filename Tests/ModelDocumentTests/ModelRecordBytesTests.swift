import Testing
import TypedStream
import TypedStreamFoundation
@testable import ModelDocument

/// The two Models of the hand-assembled archive.
let handModels: [ModelRecord] = [
    ModelRecord(name: "Sunrise", type: "photo", rect: ModelRect(x: 0, y: 0, width: 320, height: 240), flag: 1, kind: 2, para: -3),
    ModelRecord(name: "Harbour", type: nil, rect: ModelRect(x: 10.5, y: 0.25, width: 640, height: 480),
                flag: 4_000_000_000, kind: -200, para: 70_000),
]

/// A version 2 document of `handModels`, assembled byte by byte from the format notes.
let handArchiveV2: [UInt8] = {
    var b = appleHeader
    b += newShared("@")                              // root group "@"                        ss#0
    b += [0x84]                                      // NEW object: the array                  obj#0
    b += [0x84] + newShared("NSMutableArray") + [0x00] // class NSMutableArray v0               obj#1 ss#1
    b += [0x84] + newShared("NSArray") + [0x00]      // superclass NSArray v0                  obj#2 ss#2
    b += [0x84] + newShared("NSObject") + [0x00]     // superclass NSObject v0                 obj#3 ss#3
    b += [0x85]                                      // end of chain (nil)
    b += newShared("i") + [0x02]                     // group "i": count 2                     ss#4
    // Model 1
    b += [0x92, 0x84]                                // group "@" (ss ref 0), NEW object       obj#4
    b += [0x84] + newShared("Model") + [0x00]        // class Model v0                         obj#5 ss#5
    b += [0x95]                                      // superclass: ref obj#3 (NSObject)
    b += [0x92, 0x84]                                // md_name: "@", NEW NSString             obj#6
    b += [0x84] + newShared("NSString") + [0x01]     // class NSString v1                      obj#7 ss#6
    b += [0x95]                                      // superclass: ref obj#3
    b += newShared("+") + [0x07] + ascii("Sunrise")  // group "+": 7 bytes                     ss#7
    b += [0x86]                                      // end of NSString
    b += [0x92, 0x84]                                // md_type: "@", NEW NSString             obj#8
    b += [0x99]                                      // class: ref obj#7 (NSString)
    b += [0x99, 0x05] + ascii("photo")               // group "+" (ss ref 7)
    b += [0x86]
    b += newShared("{?=ffff}")                       // md_rt                                  ss#8
    b += [0x00, 0x00, 0x81, 0x40, 0x01, 0x81, 0xF0, 0x00] // 0, 0, 320 (int16), 240 (int16): integral floats as integers
    b += newShared("I") + [0x01]                     // md_flag 1                              ss#9
    b += [0x96, 0x02]                                // md_kind: "i" (ss ref 4) 2
    b += [0x96, 0xFD]                                // md_para: "i" -3
    b += [0x86]                                      // end of Model 1
    // Model 2
    b += [0x92, 0x84]                                // "@", NEW object                        obj#9
    b += [0x97]                                      // class: ref obj#5 (Model)
    b += [0x92, 0x84, 0x99, 0x99, 0x07] + ascii("Harbour") + [0x86] // md_name: NEW NSString   obj#10
    b += [0x92, 0x85]                                // md_type: nil
    b += [0x9A]                                      // "{?=ffff}" (ss ref 8)
    b += [0x83, 0x00, 0x00, 0x28, 0x41]              // 10.5 as a real
    b += [0x83, 0x00, 0x00, 0x80, 0x3E]              // 0.25 as a real
    b += [0x81, 0x80, 0x02, 0x81, 0xE0, 0x01]        // 640, 480
    b += [0x9B, 0x82, 0x00, 0x28, 0x6B, 0xEE]        // "I" (ss ref 9): 4 000 000 000 as its int32 bit pattern
    b += [0x96, 0x81, 0x38, 0xFF]                    // "i" -200 (int16)
    b += [0x96, 0x82, 0x70, 0x11, 0x01, 0x00]        // "i" 70 000 (int32)
    b += [0x86]                                      // end of Model 2
    b += [0x86]                                      // end of the array
    return b
}()

/// Model 1 alone as the root object, in the version 1 layout (no para group).
let handRecordV1: [UInt8] = {
    var b = appleHeader
    b += newShared("@")                              // ss#0
    b += [0x84]                                      // NEW Model                              obj#0
    b += [0x84] + newShared("Model") + [0x00]        //                                        obj#1 ss#1
    b += [0x84] + newShared("NSObject") + [0x00]     //                                        obj#2 ss#2
    b += [0x85]
    b += [0x92, 0x84]                                // md_name                                obj#3
    b += [0x84] + newShared("NSString") + [0x01]     //                                        obj#4 ss#3
    b += [0x94]                                      // superclass: ref obj#2
    b += newShared("+") + [0x07] + ascii("Sunrise") + [0x86] //                                ss#4
    b += [0x92, 0x84, 0x96, 0x96, 0x05] + ascii("photo") + [0x86] // md_type: class ref obj#4, "+" ref ss#4
    b += newShared("{?=ffff}") + [0x00, 0x00, 0x81, 0x40, 0x01, 0x81, 0xF0, 0x00] //            ss#5
    b += newShared("I") + [0x01]                     //                                        ss#6
    b += newShared("i") + [0x02]                     // md_kind; no md_para in version 1      ss#7
    b += [0x86]
    return b
}()

@Suite struct ModelRecordBytesTests {
    @Test func writerProducesTheHandAssembledDocument() throws {
        let models = handModels.map { Model($0) }
        let bytes = try ModelArchive.encodeDocument(models, version: .v2)
        #expect(bytes == handArchiveV2)
    }

    @Test func handAssembledDocumentDecodesToTheSameModels() throws {
        let contents = try ModelArchive.decodeDocument(handArchiveV2, version: .v2)
        #expect(contents.models.map(\.record) == handModels)
        #expect(contents.rootChain == ArrayObject.mutableChain)
        #expect(contents.models[0].archiveClassChain == Model.defaultChain)
        // And back to the same bytes.
        #expect(try ModelArchive.encodeDocument(contents.models, version: .v2, rootChain: contents.rootChain) == handArchiveV2)
    }

    @Test func versionOneRecordBytes() throws {
        var record = handModels[0]
        record.para = 0
        #expect(try ModelArchive.encodeRecord(Model(record), version: .v1) == handRecordV1)
        let decoded = try ModelArchive.decodeRecord(handRecordV1, version: .v1)
        #expect(decoded.record == record)
        #expect(decoded.layout == .v1)
    }

    @Test func eachValueIsItsOwnGroupInOrder() throws {
        let archive = try ArchiveReader.read(handArchiveV2)
        guard case .object(let array?, _) = archive.groups[0].values[0],
              case .object(let model?, _) = array.groups[1].values[0] else {
            Issue.record("no model in the archive")
            return
        }
        #expect(model.className == "Model")
        #expect(model.groups.map(\.typeText) == ["@", "@", "{?=ffff}", "I", "i", "i"])
        #expect(DocumentVersion.v2.groupTypes == ["@", "@", "{?=ffff}", "I", "i", "i"])
        #expect(DocumentVersion.v1.groupTypes == ["@", "@", "{?=ffff}", "I", "i"])
        #expect(DocumentVersion.v3Draft.groupTypes == ["@", "@", "{?=ffff}", "I", "i", "i", "i"])
    }

    @Test(arguments: DocumentVersion.allCases) func theCodecWritesTheFieldTable(version: DocumentVersion) throws {
        // The one layout (ModelField) and the codec (Model) agree, group for group.
        let record = ModelRecord(name: "n", type: "t", flag: 1, kind: 2, para: version.hasPara ? 3 : 0, reserved: version.hasReserved ? 4 : 0)
        let archive = try ArchiveReader.read(ModelArchive.encodeRecord(Model(record), version: version))
        guard case .object(let model?, _) = archive.groups[0].values[0] else { Issue.record("no model"); return }
        #expect(model.groups.map(\.typeText) == version.fields.map(\.typeString))
        #expect(version.fields.map(\.key) == Array(["name", "type", "rect", "flag", "kind", "para", "reserved"].prefix(version.fields.count)))
    }

    @Test func aLayoutThatDoesNotMatchFailsWithAnOffset() throws {
        // A version 2 archive read as version 1: the para group is left over.
        #expect { try ModelArchive.decodeDocument(handArchiveV2, version: .v1) } throws: { error in
            guard let error = error as? CoderError else { return false }
            return error.code == .unconsumedValues && error.offset != nil
        }
        // A version 1 record read as version 2: the para group is missing.
        #expect(throws: CoderError(.noMoreValues, "")) { try ModelArchive.decodeRecord(handRecordV1, version: .v2) }
    }

    @Test func truncatedPrefixesFailCleanly() {
        for length in 0..<handArchiveV2.count {
            #expect(throws: CoderError.self) { try ModelArchive.decodeDocument(Array(handArchiveV2[..<length]), version: .v2) }
        }
    }

    @Test func valuesAVersionCannotHoldAreRefused() throws {
        let model = Model(ModelRecord(name: "x", para: 5))
        #expect(throws: CoderError(.invalidValue, "")) { try ModelArchive.encodeRecord(model, version: .v1) }
        let reserved = Model(ModelRecord(name: "x", reserved: 1))
        #expect(throws: CoderError(.invalidValue, "")) { try ModelArchive.encodeRecord(reserved, version: .v2) }
        #expect(try ModelArchive.decodeRecord(ModelArchive.encodeRecord(reserved, version: .v3Draft), version: .v3Draft).reserved == 1)
    }

    @Test func aRootThatIsNotAnArrayIsRefused() throws {
        let bytes = try Archiver.archivedBytes(withRootObject: StringObject("not models"))
        #expect(throws: CoderError(.unexpectedClass, "")) { try ModelArchive.decodeDocument(bytes, version: .v2) }
        let mixed = try Archiver.archivedBytes(withRootObject: ArrayObject([Model(handModels[0]), StringObject("stray")], mutable: true))
        #expect(throws: CoderError(.unexpectedClass, "")) { try ModelArchive.decodeDocument(mixed, version: .v2) }
    }

    @Test(arguments: [
        ("0,0,320,240", ModelRect(x: 0, y: 0, width: 320, height: 240)),
        (" 1.5, -2 ,3e2,0.1", ModelRect(x: 1.5, y: -2, width: 300, height: 0.1)),
    ])
    func rectArguments(text: String, rect: ModelRect) {
        #expect(ModelRect(argument: text) == rect)
        #expect(ModelRect(argument: rect.argument) == rect)
    }

    @Test func malformedRectArguments() {
        for text in ["", "1,2,3", "1,2,3,4,5", "a,b,c,d", "1,,2,3"] { #expect(ModelRect(argument: text) == nil) }
    }
}
