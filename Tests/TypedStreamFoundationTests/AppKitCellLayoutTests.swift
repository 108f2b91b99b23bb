import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// The cell, menu, image, formatter and value layouts on the corpus's nibs: every object of
/// those classes decodes to a ``LaidOutObject``, and named fields hold the values the nibs
/// were written with.
struct AppKitCellLayoutTests {
    /// The classes of the cell and menu families that occur in the corpus (`NSCell`,
    /// `NSActionCell`, `NSMenuCell` and `NSMenuItemCell` only as superclasses).
    static let familyClasses: Set<String> = [
        "NSCell", "NSActionCell", "NSButtonCell", "NSTextFieldCell", "NSFormCell", "NSImageCell", "NSSliderCell",
        "NSStepperCell", "NSPopUpButtonCell", "NSMenuItemCell", "NSComboBoxCell", "NSTableHeaderCell", "NSMenuCell",
        "NSMenu", "NSMenuItem", "NSMenuTemplate", "NSCustomObject", "NSCustomResource", "NSImage",
        "NSButtonImageSource", "NSCursor", "NSPSMatrix", "NSBezierPath", "NSNumberFormatter", "NSDateFormatter",
        "NSDecimalNumberPlaceholder", "NSTimeZone", "NSTableColumn", "NSTabViewItem",
    ]

    /// Every object of `file` (a corpus path such as `nib/…`), decoded with `.foundation`.
    private func objects(_ file: String) throws -> [AnyObject] {
        let files = try #require(AppKitCorpus.files())
        let bytes = try #require(files.first { $0.name == file }?.bytes, "\(file) is not in the corpus")
        return try allObjects(bytes).map(\.object)
    }

    /// Every object of `bytes` with its class name, walking the archive without recursion.
    private func allObjects(_ bytes: [UInt8]) throws -> [(className: String, object: AnyObject)] {
        let pass = try AppKitCorpus.pass(bytes)
        var result: [(String, AnyObject)] = []
        var seen = Set<ObjectIdentifier>()
        var stack: [ArchivedValue] = pass.archive.groups.flatMap(\.values)
        while let value = stack.popLast() {
            switch value {
            case .object(let entry?, _):
                guard seen.insert(ObjectIdentifier(entry)).inserted else { continue }
                result.append((entry.className, try pass.decoder.object(for: entry)))
                for group in entry.groups { stack += group.values }
            case .array(let values), .structure(let values):
                stack += values
            default:
                break
            }
        }
        return result
    }

    /// The laid-out objects of class `className` in `objects`.
    private func laidOut(_ objects: [AnyObject], _ className: String) -> [LaidOutObject] {
        objects.compactMap { $0 as? LaidOutObject }.filter { $0.className == className }
    }

    /// The text of a string-object or selector field.
    private func text(_ object: LaidOutObject, _ field: String) -> String? {
        if let string = object.object(named: field) as? StringObject { return string.string }
        switch object.value(named: field) {
        case .sharedString(let bytes?, _)?: return String(decoding: bytes, as: UTF8.self)
        case .unsharedString(let bytes?, _)?: return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }

    private func integer(_ object: LaidOutObject, _ field: String) -> Int64? {
        switch object.value(named: field) {
        case .integer(let v, _)?: v
        case .byte(let b)?: Int64(b)
        default: nil
        }
    }

    private func real(_ object: LaidOutObject, _ field: String) -> Double? {
        switch object.value(named: field) {
        case .float(let f, _)?: Double(f)
        case .double(let d, _)?: d
        default: nil
        }
    }

    private func laidOut(_ object: LaidOutObject, _ field: String) -> LaidOutObject? {
        object.object(named: field) as? LaidOutObject
    }

    @Test(.needsCorpus) func everyObjectOfTheFamilyIsLaidOut() throws {
        var counts: [String: Int] = [:]
        for file in try #require(AppKitCorpus.files()) {
            for (className, object) in try allObjects(file.bytes) where Self.familyClasses.contains(className) {
                #expect(object is LaidOutObject, "\(file.name): a \(className) stayed \(type(of: object))")
                counts[className, default: 0] += 1
            }
        }
        for name in Self.familyClasses.subtracting(["NSCell", "NSActionCell", "NSMenuCell", "NSMenuItemCell"]) {
            #expect(counts[name, default: 0] > 0, "no \(name) in the corpus")
        }
        #expect(counts["NSTextFieldCell", default: 0] >= 370)
        #expect(counts["NSButtonCell", default: 0] >= 290)
        #expect(counts["NSMenuItem", default: 0] >= 770)
    }

    @Test(.needsCorpus) func buttonTextFieldAndSliderCellsOfAMacOSXNib() throws {
        let objects = try objects("nib/macosx-TLayer-TLayerDemo.nib.typedstream")
        let button = try #require(laidOut(objects, "NSButtonCell").first { text($0, "contents") == "Use transparency layers" })
        #expect(text(button, "keyEquivalent") == "")
        #expect(integer(button, "periodicDelay") == 200)
        #expect(integer(button, "periodicInterval") == 25)
        #expect(integer(button, "buttonFlags") == 1_211_912_703)
        #expect(button.object(named: "font") is FontObject)
        let switchImage = try #require(laidOut(button, "alternateImage"))
        #expect(switchImage.className == "NSButtonImageSource")
        #expect(text(switchImage, "imageName") == "NSSwitch")
        #expect(button.layout.groups.map(\.className) == ["NSCell", "NSCell", "NSActionCell", "NSActionCell", "NSActionCell", "NSButtonCell"])

        let label = try #require(laidOut(objects, "NSTextFieldCell").first { text($0, "contents") == "Blur Radius" })
        #expect(integer(label, "drawsBackground") == 0)
        #expect(label.object(named: "textColor") is ColorObject)
        #expect(label.fields.first { $0.field.name == "textColor" }?.field.keyedName == "NSTextColor")

        let slider = try #require(laidOut(objects, "NSSliderCell").first)
        #expect(real(slider, "maxValue") == 15)
        #expect(real(slider, "minValue") == 0)
    }

    @Test(.needsCorpus) func menuItemsOfAMacOSXNib() throws {
        let objects = try objects("nib/macosx-DropScript-MainMenu.nib.typedstream")
        let items = laidOut(objects, "NSMenuItem")
        let open = try #require(items.first { text($0, "title") == "Open..." })
        #expect(text(open, "keyEquivalent") == "o")
        #expect(integer(open, "keyEquivalentModifierMask") == 1 << 20)
        let recent = try #require(items.first { text($0, "title") == "Open Recent" })
        #expect(text(recent, "action") == "submenuAction:")
        let submenu = try #require(laidOut(recent, "submenu"))
        #expect(text(submenu, "title") == "Open Recent")
        #expect(text(submenu, "name") == "_NSRecentDocumentsMenu")
        let owner = try #require(laidOut(objects, "NSCustomObject").first)
        #expect(text(owner, "className") == "NSApplication")
    }

    @Test(.needsCorpus) func openStepMenuItemsAreButtonCells() throws {
        let objects = try objects("nib/WorldWideWeb-objects.nib.typedstream")
        let items = laidOut(objects, "NSMenuItem")
        let back = try #require(items.first { text($0, "contents") == "Back" })
        #expect(text(back, "keyEquivalent") == "^")
        #expect(integer(back, "keyEquivalentModifierMask") == 1 << 20)
        #expect(back.archiveClassChain.map(\.name).prefix(3) == ["NSMenuItem", "NSMenuCell", "NSButtonCell"])
        let info = try #require(items.first { text($0, "contents") == "Info" })
        #expect(text(info, "action") == "submenuAction:")
        let template = try #require(laidOut(info, "submenu"))
        #expect(template.className == "NSMenuTemplate")
        #expect(text(template, "title") == "Info")
    }

    @Test(.needsCorpus) func formattersAndFormCells() throws {
        let fink = try objects("nib/macosx-finkcommander-Preferences.nib.typedstream")
        let number = try #require(laidOut(fink, "NSNumberFormatter").first { text($0, "positiveFormat") == "#,##0" })
        #expect(text(number, "negativeFormat") == "-#,##0")
        #expect(text(number, "decimalSeparator") == ".")
        #expect(integer(number, "allowsFloats") == 1)
        let minimum = try #require(laidOut(number, "minimum"))
        #expect(minimum.className == "NSDecimalNumberPlaceholder")
        #expect(integer(minimum, "mantissaCount") == 8)

        let paf = try objects("nib/macosx-MacPAF-MyDocument.nib.typedstream")
        let dateCell = try #require(laidOut(paf, "NSFormCell").first { cell in
            cell.object(named: "formatter") != nil
                && (cell.object(named: "titleCell") as? LaidOutObject).map { text($0, "contents") == "Date" } ?? false
        })
        #expect(real(dateCell, "titleWidth") == 37)
        let dateFormatter = try #require(laidOut(dateCell, "formatter"))
        #expect(dateFormatter.className == "NSDateFormatter")
        #expect(text(dateFormatter, "dateFormat") == "%d %b %Y")

        let comboBoxes = laidOut(paf, "NSComboBoxCell")
        let suffixes = try #require(comboBoxes.first { integer($0, "usesDataSource") == 0 && integer($0, "visibleItemCount") == 5 })
        let items = try #require(suffixes.object(named: "items") as? ArrayObject)
        #expect(items.elements.compactMap { ($0 as? StringObject)?.string } == ["", "Jr.", "Sr.", "III"])
        #expect(suffixes.fields.contains { $0.field.name == "dataSource" } == false)
        let sourced = try #require(comboBoxes.first { integer($0, "usesDataSource") == 1 })
        #expect(sourced.fields.contains { $0.field.name == "dataSource" })
        #expect(laidOut(sourced, "buttonCell")?.className == "NSButtonCell")

        let zone = try #require(laidOut(paf, "NSTimeZone").first)
        #expect(text(zone, "name") == "US/Mountain")
    }
}
