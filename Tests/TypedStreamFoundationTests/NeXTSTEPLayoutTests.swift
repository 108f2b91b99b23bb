import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation
import TestSupport

/// The NeXTSTEP and Draw layouts over the corpus: named values of real objects, and every object
/// of a catalogued NeXTSTEP class (nested StreamTable archives included) decodes typed.
struct NeXTSTEPLayoutTests {
    /// The classes of the `nextStep` and `draw` families.
    private static let familyClasses = Set((ClassLayouts.nextStep + ClassLayouts.draw).map(\.className))

    /// Every object of `file` (a path below the corpus), decoded with `.foundation`.
    private func objects(_ file: String) throws -> [AnyObject] {
        let corpus = try #require(CorpusFontPlists.corpusDirectory)
        let data = try #require(FileManager.default.contents(atPath: corpus.appendingPathComponent(file).path))
        return try Self.objects(in: AppKitCorpus.pass([UInt8](data)))
    }

    private static func objects(in pass: AppKitCorpus.Pass) throws -> [AnyObject] {
        var seen = Set<ObjectIdentifier>()
        var out: [AnyObject] = []
        var stack: [ArchivedValue] = pass.archive.groups.flatMap { group in (0..<group.valueCount).map { group.value(at: $0) } }
        while let value = stack.popLast() {
            switch value {
            case .object(let entry?, _):
                guard seen.insert(ObjectIdentifier(entry)).inserted else { continue }
                out.append(try pass.decoder.object(for: entry))
                for group in entry.groups { for index in 0..<group.valueCount { stack.append(group.value(at: index)) } }
            case .array(let values), .structure(let values):
                stack += values
            default:
                break
            }
        }
        return out
    }

    private func laidOut(_ objects: [AnyObject], _ className: String) -> [LaidOutObject] {
        objects.compactMap { $0 as? LaidOutObject }.filter { $0.className == className }
    }

    private func text(_ value: ArchivedValue?) -> String? {
        if case .cString(let entry?, _)? = value { return entry.string }
        return nil
    }

    private func float(_ value: ArchivedValue?) -> Float? {
        if case .float(let v, _)? = value { return v }
        return nil
    }

    private func int(_ value: ArchivedValue?) -> Int64? {
        switch value {
        case .integer(let v, _)?: return v
        case .byte(let b)?: return Int64(Int8(bitPattern: b))
        default: return nil
        }
    }

    /// The referenced object's class name.
    private func className(_ object: AnyObject?) -> String? {
        ((object as? LaidOutObject)?.archiveClassChain ?? (object as? ArchivableObject)?.archiveClassChain)?.first?.name
    }

    @Test(.needsCorpus) func flatRemapperButtonsFieldsAndConnectors() throws {
        let all = try objects("nib/nextstep3-DoomEd-FlatRemapper-data-BE.nib.typedstream")
        let getCells = laidOut(all, "ButtonCell").filter { text($0.value(named: "contents")) == "Get" }
        #expect(getCells.count == 2)
        let get = try #require(getCells.first)
        #expect(int(get.value(named: "periodicDelay")) == 200 && int(get.value(named: "periodicInterval")) == 25)
        #expect(className(get.object(named: "keyEquivalentFont")) == "Font")

        let buttons = laidOut(all, "Button").filter { button in getCells.contains { button.object(named: "cell") === $0 } }
        #expect(buttons.compactMap { float($0.value(named: "frameY")) }.sorted() == [320, 344])
        let button = try #require(buttons.first)
        #expect(float(button.value(named: "frameX")) == 168)
        #expect(float(button.value(named: "frameWidth")) == 29 && float(button.value(named: "frameHeight")) == 18)
        #expect(className(button.object(named: "superview")) == "View")

        let labels = laidOut(all, "TextFieldCell").compactMap { text($0.value(named: "contents")) }
        #expect(labels.contains("Flat:") && labels.contains("Map to:"))

        let window = try #require(laidOut(all, "WindowTemplate").first)
        #expect(text(window.value(named: "title")) == "Remap Flats")
        #expect(text(window.value(named: "windowClass")) == "Panel")
        #expect(float(window.value(named: "width")) == 291 && float(window.value(named: "height")) == 300)

        let outlet = try #require(laidOut(all, "IBOutletConnector").first { text($0.value(named: "label")) == "browser_i" })
        #expect(className(outlet.object(named: "source")) == "CustomObject")
        #expect(className(outlet.object(named: "destination")) == "NXBrowser")
        let browser = try #require(laidOut(all, "NXBrowser").first)
        #expect(text(browser.value(named: "title")) == "List of Flats to Remap")

        let root = try #require(laidOut(all, "IBObjectData").first)
        #expect(int(root.value(named: "objectCount")) == 13 && int(root.value(named: "nameCount")) == 2)
        #expect(root.layout.groups.filter { $0.fields.first?.name == "namedObject" }.count == 2)
        let owner = try #require(root.object(named: "fileOwner") as? LaidOutObject)
        #expect(text(owner.value(named: "className")) == "FlatRemapper")
    }

    @Test(.needsCorpus) func doomEdMenusWindowsAndSounds() throws {
        let all = try objects("nib/nextstep3-DoomEd-data.nib.typedstream")
        let menu = try #require(laidOut(all, "MenuTemplate").first { text($0.value(named: "title")) == "DoomEd" })
        #expect(text(menu.value(named: "menuClass")) == "Menu")
        #expect(className(menu.object(named: "matrix")) == "Matrix")
        let submenuCell = try #require(laidOut(all, "MenuCell").first { text($0.value(named: "contents")) == "Map" })
        #expect(submenuCell.object(named: "submenu") === submenuCell.object(named: "target"))
        #expect(selector(submenuCell.value(named: "action")) == "submenuAction:")
        let tools = try #require(laidOut(all, "WindowTemplate").first { text($0.value(named: "title")) == "TOOLS" })
        #expect(int(tools.value(named: "hasRect")) == 1 && float(tools.value(named: "rectWidth")) == 1084)
        let sounds = laidOut(all, "Sound").compactMap { text($0.value(named: "name")) }
        #expect(Set(sounds) == ["D_Ratdie", "D_Dbite", "D_EPain"])
        let root = try #require(laidOut(all, "IBObjectData").first)
        #expect(int(root.value(named: "windowCount")) == 1)
        #expect((root.object(named: "window") as? LaidOutObject)?.className == "WindowTemplate")
        let view = try #require(laidOut(all, "CustomView").first)
        #expect(text(view.value(named: "className")) == "ThermoView")
    }

    private func selector(_ value: ArchivedValue?) -> String? {
        if case .sharedString(let bytes?, _)? = value { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    @Test(.needsCorpus) func worldWideWebScrollingText() throws {
        let all = try objects("nib/nextstep3-WorldWideWeb-data.nib.typedstream")
        let scroller = try #require(laidOut(all, "Scroller").first)
        #expect(float(scroller.value(named: "frameWidth")) == 18)
        #expect(float(scroller.value(named: "knobProportion")) == 0.6878788)
        let scrollView = try #require(laidOut(all, "ScrollView").first)
        #expect(scrollView.object(named: "verticalScroller") === scroller)
        let clip = try #require(scrollView.object(named: "contentView") as? LaidOutObject)
        #expect(clip.className == "ClipView")
        let text = try #require(clip.object(named: "documentView") as? LaidOutObject)
        #expect(text.className == "Text" && int(text.value(named: "textLength")) == 1161)
        #expect(className(clip.object(named: "cursor")) == "NXCursor")
        let form = try #require(laidOut(all, "Form").first)
        #expect(className(form.object(named: "prototype")) == "FormCell" && int(form.value(named: "numberOfColumns")) == 1)
    }

    @Test(.needsCorpus) func drawDocumentGraphics() throws {
        let all = try objects("misc/nextstep1-blit-pallette.draw.typedstream")
        let graphics = laidOut(all, "TextGraphic")
        #expect(graphics.count == 13)
        let daemons = try #require(graphics.first { graphic in
            (graphic.object(named: "cell") as? LaidOutObject).flatMap { text($0.value(named: "contents")) } == "Starting\nLocal\nDaemons"
        })
        let bounds = ["boundsX", "boundsY", "boundsWidth", "boundsHeight"].map { float(daemons.value(named: $0)) }
        #expect(bounds == [222, 641, 84, 63])
        #expect(int(daemons.value(named: "graphicFlags")) == 17408)
        let cell = try #require(graphics.first?.object(named: "cell") as? LaidOutObject)
        #expect(cell.className == "TextFieldCell")
        let view = try #require(laidOut(all, "GraphicView").first)
        #expect(float(view.value(named: "gridGray")) == 0.8333 && float(view.value(named: "frameWidth")) == 540)
        #expect(float(view.value(named: "frameHeight")) == 720)
        let printInfo = try #require(laidOut(all, "PrintInfo").first)
        #expect(text(printInfo.value(named: "paperType")) == "Letter")
        #expect(text(printInfo.value(named: "printerType")) == "NeXT 400 dpi Laser Printer")
    }

    /// Every object of a catalogued NeXTSTEP or Draw class in the corpus, nested archives
    /// included, is a LaidOutObject.
    @Test(.needsCorpus) func everyNeXTSTEPObjectOfTheCorpusIsLaidOut() throws {
        var queue = try #require(AppKitCorpus.files())
        var typed: [String: Int] = [:]
        while !queue.isEmpty {
            let (name, bytes) = queue.removeFirst()
            let pass = try AppKitCorpus.pass(bytes)
            for (index, nested) in pass.nested.enumerated() { queue.append(("\(name)#\(index)", nested)) }
            for object in try Self.objects(in: pass) {
                let chain = (object as? LaidOutObject)?.archiveClassChain ?? (object as? GenericObject)?.archiveClassChain ?? []
                guard let own = chain.first?.name, Self.familyClasses.contains(own), chain.last?.name == "Object" else { continue }
                #expect(object is LaidOutObject, "\(name): \(chain.map(\.description).joined(separator: " : ")) stayed generic")
                typed[own, default: 0] += 1
            }
        }
        print("NeXTSTEP objects laid out: \(typed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        #expect(typed["MenuCell", default: 0] >= 139 + 72)
        #expect(typed["IBControlConnector", default: 0] == 147)
        #expect(typed["TextGraphic", default: 0] == 13)
    }
}
