import Testing
import TypedStream

/// The signatures of the formats a typedstream is confused with, recognised in one place.
@Suite struct ForeignFormatTests {
    @Test("Each foreign format is recognised from its first bytes")
    func recognisesSignatures() {
        #expect(ForeignFormat.recognise(Array("bplist00".utf8) + [0xD0]) == .binaryPropertyList)
        #expect(ForeignFormat.recognise(Array("bplist16".utf8)) == .binaryPropertyList)
        #expect(ForeignFormat.recognise(Array("GNUstep archive00002c25:".utf8)) == .gnustepArchive)
        #expect(ForeignFormat.recognise(Array("<?xml version=\"1.0\"?>".utf8)) == .xml)
        #expect(ForeignFormat.recognise(Array(" \n\t<!DOCTYPE plist>".utf8)) == .xml)
        #expect(ForeignFormat.recognise([0xEF, 0xBB, 0xBF] + Array("<!-- c -->".utf8)) == .xml)
    }

    @Test("Typedstreams, empty input and other text are not foreign formats")
    func leavesOthersAlone() {
        #expect(ForeignFormat.recognise([0x04, 0x0B] + Array("streamtyped".utf8)) == nil)
        #expect(ForeignFormat.recognise([]) == nil)
        #expect(ForeignFormat.recognise(Array("bplis".utf8)) == nil)
        #expect(ForeignFormat.recognise(Array("  hello <plist>".utf8)) == nil)
        #expect(ForeignFormat.recognise(Array(repeating: 0x20, count: 64)) == nil)
    }

    @Test("XML markup starts after a byte-order mark and white space")
    func xmlStart() {
        #expect(ForeignFormat.xmlStart(Array("<plist>".utf8)) == 0)
        #expect(ForeignFormat.xmlStart([0xEF, 0xBB, 0xBF, 0x20, 0x0D, 0x0A] + Array("<?xml".utf8)) == 6)
        #expect(ForeignFormat.xmlStart(Array("<html>".utf8)) == nil)
    }

    @Test("The header error names the format with the code a caller acts on")
    func headerErrors() {
        let bplist = Array("bplist00".utf8)
        #expect(ForeignFormat.binaryPropertyList.headerError(bplist).code == .foreignKeyedArchive)
        #expect(ForeignFormat.binaryPropertyList.headerError(bplist).reason.contains("NSKeyedArchiver"))
        #expect(ForeignFormat.gnustepArchive.headerError([]).code == .foreignGNUstep)
        #expect(ForeignFormat.xml.headerError([]).reason == "this is a property list, not a typedstream")
    }
}
