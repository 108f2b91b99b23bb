import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

private let color = Hex.ascii("NSColor"), object = Hex.ascii("NSObject"), string = Hex.ascii("NSString")

/// `NSColor` calibrated RGB (1, 0.5, 0, 1): kind 1, then `"ffff"` with 0.5 as a real (`83`)
/// and the integral components as integers.
private let calibratedRGBBytes = """
\(Hex.appleHeader) 84 01 40
84 84 84 07 \(color) 00 84 84 08 \(object) 00 85
   84 01 63 01
   84 04 66 66 66 66 01 83 00 00 00 3f 00 01
86
"""

@Test func colorCalibratedRGBExactBytes() throws {
    let decoded = try expectExactRoundTrip(ColorObject(.calibratedRGB(red: 1, green: 0.5, blue: 0, alpha: 1)), expected: calibratedRGBBytes)
    let colorObject = try #require(decoded as? ColorObject)
    #expect(colorObject.kind == .calibratedRGB)
    #expect(colorObject.components == [1, 0.5, 0, 1])
    #expect(colorObject.colorSpaceName == "NSCalibratedRGBColorSpace")
}

/// Each numeric kind: the kind byte and the group that follows.
@Test(arguments: [
    (ColorObject.Kind.deviceRGB, [Float(0), 0, 1, 1], "02 84 04 66 66 66 66 00 00 01 01"),
    (.calibratedWhite, [0.5, 1], "03 84 02 66 66 83 00 00 00 3f 01"),
    (.deviceWhite, [1, 0.25], "04 84 02 66 66 01 83 00 00 80 3e"),
    (.deviceCMYK, [0, 1, 1, 0, 1], "05 84 05 66 66 66 66 66 00 01 01 00 01"),
])
func colorKindsExactBytes(kind: ColorObject.Kind, components: [Float], contents: String) throws {
    let expected = "\(Hex.appleHeader) 84 01 40 84 84 84 07 \(color) 00 84 84 08 \(object) 00 85 84 01 63 \(contents) 86"
    let made = try #require(ColorObject(kind: kind, components: components))
    let decoded = try #require(try expectExactRoundTrip(made, expected: expected) as? ColorObject)
    #expect(decoded.kind == kind)
    #expect(decoded.components == components)
}

@Test func colorFromComponentsRejectsWrongCounts() {
    #expect(ColorObject(kind: .calibratedRGB, components: [1, 0, 0]) == nil)
    #expect(ColorObject(kind: .named, components: []) == nil)
    #expect(ColorObject(kind: .deviceCMYK, components: [0, 0, 0, 0, 1])?.colorSpaceName == "NSDeviceCMYKColorSpace")
}

/// A named colour: `"@@@"` with two strings and a fallback colour that reuses the NSColor class.
@Test func colorNamedExactBytes() throws {
    let fallback = ColorObject(.calibratedWhite(white: 0.5, alpha: 1))
    let expected = """
    \(Hex.appleHeader) 84 01 40
    84 84 84 07 \(color) 00 84 84 08 \(object) 00 85
       84 01 63 06
       84 03 40 40 40
          84 84 84 08 \(string) 01 94 84 01 2b 06 \(Hex.ascii("System")) 86
          84 96 98 0c \(Hex.ascii("controlColor")) 86
          84 93 95 03 84 02 66 66 83 00 00 00 3f 01 86
    86
    """
    let decoded = try #require(try expectExactRoundTrip(ColorObject.named(catalog: "System", name: "controlColor", fallback: fallback), expected: expected) as? ColorObject)
    #expect(decoded.kind == .named)
    #expect(decoded.catalogName == "System")
    #expect(decoded.colorName == "controlColor")
    #expect(decoded.components.isEmpty)
    guard case .named(_, _, let back?) = decoded.value else { Issue.record("no fallback"); return }
    #expect(back.components == [0.5, 1])
}

/// A colour of a version or kind the codec does not know stays generic, is reported, and is
/// written back unchanged.
@Test(arguments: ["version", "kind"])
func colorUnsupportedIsKeptGeneric(what: String) throws {
    var bytes = Hex.bytes(calibratedRGBBytes)
    if what == "version" {
        bytes = patchingClassVersion(bytes, className: "NSColor", to: 1)
    } else {
        let kindAt = try #require((0 ..< bytes.count - 3).first { bytes[$0 ..< $0 + 4] == [0x84, 0x01, 0x63, 0x01] })
        bytes[kindAt + 3] = 9
    }
    let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
    let root = try decoder.decodeRootObject()
    #expect(root is GenericObject)
    #expect(decoder.warnings.count == 1)
    #expect(decoder.warnings.first?.contains(what == "version" ? "NSColor version 1" : "NSColor kind 9") == true, "\(decoder.warnings)")
    #expect(try Archiver.archivedBytes(withRootObject: root) == bytes)
}

/// `NSFont` v21: the property list (a UTF-16 string with a byte-order mark) as a data object,
/// the size as an integral float, four `"c"` groups.
private let helveticaBytes = """
\(Hex.appleHeader) 84 01 40
84 84 84 06 \(Hex.ascii("NSFont")) 15 84 84 08 \(object) 00 85
   84 01 69 1c
   84 05 5b 32 38 63 5d
      06 00 00 00 14 00 00 00 ff fe 48 00 65 00 6c 00 76 00 65 00 74 00 69 00 63 00 61 00
   84 01 66 0c
   84 01 63 00   98 01   98 00   98 00
86
"""

@Test func fontExactBytes() throws {
    let decoded = try #require(try expectExactRoundTrip(FontObject(name: "Helvetica", size: 12), expected: helveticaBytes) as? FontObject)
    #expect(decoded.name == "Helvetica")
    #expect(decoded.size == 12)
    #expect(decoded.trailingBytes == [0, 1, 0, 0])
    #expect(decoded.archiveClassChain.first == ArchiveClassLink("NSFont", version: 21))
}

@Test func fontNameSetterKeepsTheStringEncoding() {
    let font = FontObject()
    font.propertyList = .string(NeXTPlistString(nextstep: "Courier")!)
    font.name = "Ohlfs"
    #expect(font.propertyList == .string(NeXTPlistString(nextstep: "Ohlfs")!))
    font.propertyList = NeXTPlistValue("Courier", byteOrder: .bigEndian)
    font.name = "Menlo"
    #expect(font.propertyList == NeXTPlistValue("Menlo", byteOrder: .bigEndian))
}

@Test func fontVersion30AndUnsupportedVersion() throws {
    let v30 = patchingClassVersion(Hex.bytes(helveticaBytes), className: "NSFont", to: 30)
    let font = try #require(try Unarchiver(bytes: v30, registry: .foundation).decodeRootObject() as? FontObject)
    #expect(font.archiveClassChain.first?.version == 30)
    #expect(try Archiver.archivedBytes(withRootObject: font) == v30)

    let v22 = patchingClassVersion(Hex.bytes(helveticaBytes), className: "NSFont", to: 22)
    let decoder = try Unarchiver(bytes: v22, registry: .foundation)
    let root = try decoder.decodeRootObject()
    #expect(root is GenericObject)
    #expect(decoder.warnings.first?.contains("NSFont version 22") == true, "\(decoder.warnings)")
    #expect(try Archiver.archivedBytes(withRootObject: root) == v22)
}

@Test func fontWhosePropertyListIsNotAStringIsBadContents() throws {
    var bytes = Hex.bytes(helveticaBytes)
    let plistAt = try #require((0 ..< bytes.count - 3).first { bytes[$0 ..< $0 + 4] == [0x06, 0x00, 0x00, 0x00] })
    bytes[plistAt] = 4  // type code 4: data, not a string
    #expect(throws: CoderError(.badContents, "")) { try Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject() }
}
