import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// The views, controls, templates, nib data and connectors of the corpus's nibs decode as
/// ``LaidOutObject``s with the values the nibs hold, under the names of the `appKitViews`
/// catalogue.
struct AppKitViewLayoutTests {
    /// The catalogued class names of the family.
    private static let familyClasses = Set(ClassLayouts.appKitViews.map(\.className))

    /// Every object of `bytes`, each once, decoded over the graph with the Foundation registry.
    private static func objects(_ bytes: [UInt8]) throws -> (objects: [(className: String, object: AnyObject)], warnings: [String]) {
        let archive = try ArchiveReader.read(bytes)
        let decoder = Unarchiver(archive: archive, registry: .foundation)
        var seen = Set<ObjectIdentifier>()
        var found: [(className: String, object: AnyObject)] = []
        var stack: [ArchivedValue] = archive.groups.flatMap(\.values).reversed()
        while let value = stack.popLast() {
            switch value {
            case .object(let entry?, _):
                guard seen.insert(ObjectIdentifier(entry)).inserted else { continue }
                found.append((entry.className, try decoder.object(for: entry)))
                stack += entry.groups.flatMap(\.values).reversed()
            case .array(let values), .structure(let values):
                stack += values.reversed()
            default:
                break
            }
        }
        return (found, decoder.warnings)
    }

    /// The objects of the nib `name` of the corpus, decoded once.
    private struct Nib {
        let objects: [(className: String, object: AnyObject)]

        init(_ name: String) throws {
            let corpus = try #require(CorpusFontPlists.corpusDirectory)
            let data = try #require(FileManager.default.contents(atPath: corpus.appendingPathComponent("nib/\(name)").path))
            objects = try AppKitViewLayoutTests.objects([UInt8](data)).objects
        }

        /// The laid-out objects of class `className`.
        func laidOut(_ className: String) -> [LaidOutObject] {
            objects.filter { $0.className == className }.compactMap { $0.object as? LaidOutObject }
        }
    }

    private func text(_ object: LaidOutObject, _ field: String) -> String? {
        (object.object(named: field) as? StringObject)?.string
    }

    private func integer(_ object: LaidOutObject, _ field: String) -> Int64? {
        switch object.value(named: field) {
        case .integer(let v, _)?: v
        case .byte(let b)?: Int64(b)
        default: nil
        }
    }

    private func float(_ object: LaidOutObject, _ field: String) -> Float? {
        if case .float(let f, _)? = object.value(named: field) { f } else { nil }
    }

    private func frame(_ view: LaidOutObject) -> [Float?] {
        ["frame.x", "frame.y", "frame.width", "frame.height"].map { float(view, $0) }
    }

    /// Every object of the family's classes in the corpus is laid out, with no warning about
    /// it, and every nib holding them is written back byte for byte.
    @Test(.needsCorpus) func everyObjectOfTheFamilyIsLaidOutAndRoundTrips() throws {
        let files = try #require(AppKitCorpus.files())
        var counts: [String: Int] = [:]
        for (name, bytes) in files {
            let (objects, warnings) = try Self.objects(bytes)
            let ours = objects.filter { Self.familyClasses.contains($0.className) }
            guard !ours.isEmpty else { continue }
            for (className, object) in ours {
                #expect(object is LaidOutObject, "\(name): \(className) decoded as \(type(of: object))")
                counts[className, default: 0] += 1
            }
            for warning in warnings where Self.familyClasses.contains(where: { warning.contains("\($0) v") }) {
                Issue.record("\(name): \(warning)")
            }
            #expect(try AppKitCorpus.pass(bytes).output == bytes, "\(name): decode → encode changed the bytes")
        }
        #expect(counts["NSView", default: 0] >= 129)
        #expect(counts["NSTextField", default: 0] >= 299)
        #expect(counts["NSNibOutletConnector", default: 0] >= 528)
        #expect(counts["NSIBObjectData", default: 0] >= 19)
        #expect(counts["NSWindowTemplate", default: 0] >= 61)
        #expect(counts["NSClassSwapper", default: 0] >= 11)
    }

    /// The window, nib data, custom view, slider and connectors of TLayer's demo nib.
    @Test(.needsCorpus) func tLayerDemoWindowViewsAndConnections() throws {
        let nib = try Nib("macosx-TLayer-TLayerDemo.nib.typedstream")
        let window = try #require(nib.laidOut("NSWindowTemplate").first)
        #expect(text(window, "title") == "Transparency Layers")
        #expect(window.layout.groups[0].fields[7].keyedName == "NSWindowTitle")
        #expect(text(window, "windowClass") == "NSWindow")
        #expect(integer(window, "styleMask") == 14)
        #expect(integer(window, "backing") == 2)
        #expect(["contentRect.x", "contentRect.y", "contentRect.width", "contentRect.height"].map { float(window, $0) }
                == [16, 75, 800, 649])
        let contentView = try #require(window.object(named: "contentView") as? LaidOutObject)
        #expect(contentView.className == "NSView")

        let data = try #require(nib.laidOut("NSIBObjectData").first)
        #expect(integer(data, "objectCount") == 11)
        #expect(integer(data, "nameCount") == 7)
        #expect(integer(data, "oidCount") == 19)
        #expect(integer(data, "nextOid") == 187)
        #expect(text(data, "framework") == "IBCocoaFramework")
        let names = data.fields.filter { $0.field.name == "name" }.compactMap { field -> String? in
            guard case .object(let entry?, _) = field.value else { return nil }
            return (data.contents.object(for: entry) as? StringObject)?.string
        }
        #expect(names == ["View", "View1", "Window", "NSSlider1", "2", "NSButton4", "File's Owner"])

        let custom = try #require(nib.laidOut("NSCustomView").first { text($0, "className") == "TLayerView" })
        #expect(text(custom, "extension") == "NSView")
        #expect(frame(custom) == [20, 20, 566, 610])
        #expect((custom.object(named: "superview") as? LaidOutObject) === contentView)

        let slider = try #require(nib.laidOut("NSSlider").first)
        #expect(integer(slider, "tag") == 2)
        #expect(integer(slider, "isEnabled") == 1)
        #expect(frame(slider) == [12, 10, 142, 21])
        #expect((slider.object(named: "cell") as AnyObject?) != nil)

        let outlets = nib.laidOut("NSNibOutletConnector")
        let colorWell = try #require(outlets.first { text($0, "label") == "colorWell" })
        #expect((colorWell.object(named: "destination") as? LaidOutObject)?.className == "NSColorWell")
        #expect((colorWell.object(named: "source") as? LaidOutObject)?.className == "NSCustomObject")
        #expect(colorWell.layout.groups.last?.fields.map(\.keyedName) == ["NSSource", "NSDestination", "NSLabel"])
    }

    /// Tool tips, tab view items, matrices and tables of FinkCommander's preferences.
    @Test(.needsCorpus) func finkCommanderHelpTabsAndMatrices() throws {
        let nib = try Nib("macosx-finkcommander-Preferences.nib.typedstream")
        let help = nib.laidOut("NSIBHelpConnector")
        let firewall = try #require(help.first { text($0, "marker") == "Allows use of apt-get from behind a firewall" })
        #expect(text(firewall, "file") == "NSToolTipHelpKey")
        #expect((firewall.object(named: "destination") as? LaidOutObject)?.className == "NSButton")

        let labels = nib.laidOut("NSTabViewItem").compactMap { text($0, "label") }
        #expect(labels.contains("Fink") && labels.contains("Download"))
        for item in nib.laidOut("NSTabViewItem") {
            #expect((item.object(named: "tabView") as? LaidOutObject)?.className == "NSTabView")
        }

        let matrix = try #require(nib.laidOut("NSMatrix").first { integer($0, "numberOfColumns") == 3 })
        #expect(integer(matrix, "numberOfRows") == 1)
        #expect(integer(matrix, "selectedRow") == 0)
        #expect(float(matrix, "cellSize.width") == 58)
        #expect(float(matrix, "intercellSpacing.width") == 4)
        #expect((matrix.object(named: "selectedCell") as AnyObject?) != nil)
    }

    /// The scroll views, scrollers, split views and class swappers of NotificationWatcher.
    @Test(.needsCorpus) func notificationWatcherScrollersAndSwappers() throws {
        let nib = try Nib("macosx-NotificationWatcher-MainMenu.nib.typedstream")
        for scrollView in nib.laidOut("NSScrollView") {
            let vertical = try #require(scrollView.object(named: "verticalScroller") as? LaidOutObject)
            let horizontal = try #require(scrollView.object(named: "horizontalScroller") as? LaidOutObject)
            #expect(integer(vertical, "isHorizontal") == 0)
            #expect(integer(horizontal, "isHorizontal") == 1)
            #expect((scrollView.object(named: "contentView") as? LaidOutObject)?.className == "NSClipView")
            #expect(scrollView.object(named: "nextKeyView") === scrollView.object(named: "contentView"))
            #expect(float(scrollView, "scrollAmount1") == 10)
        }
        for scroller in nib.laidOut("NSScroller") {
            guard case .sharedString(let action?, _)? = scroller.value(named: "action") else {
                Issue.record("scroller without action"); continue
            }
            #expect(String(decoding: action, as: UTF8.self) == "_doScroller:")
        }
        let swappers = nib.laidOut("NSClassSwapper")
        #expect(swappers.count == 3)
        for swapper in swappers {
            #expect(text(swapper, "className") != nil)
            #expect(swapper.layout.groups.contains { $0.fields.contains { $0.name == "frame.width" } })
        }
    }

    /// The OPENSTEP templates and connectors of WorldWideWeb's nib.
    @Test(.needsCorpus) func worldWideWebMenuTemplatesAndConnectors() throws {
        let nib = try Nib("WorldWideWeb-objects.nib.typedstream")
        let menus = nib.laidOut("NSMenuTemplate")
        let navigate = try #require(menus.first { text($0, "title") == "Navigate" })
        let supermenu = try #require(navigate.object(named: "supermenu") as? LaidOutObject)
        #expect(text(supermenu, "title") == "WorldWideWeb")
        #expect((navigate.object(named: "itemMatrix") as? LaidOutObject)?.className == "NSMatrix")
        #expect(float(navigate, "location.x") == 126)

        let data = try #require(nib.laidOut("NSIBObjectData").first)
        #expect(data.archiveClassChain.first?.version == 24)
        #expect(integer(data, "objectCount") == 228)
        #expect(data.value(named: "framework") == nil)

        let controls = nib.laidOut("NSIBControlConnector")
        #expect(controls.contains { text($0, "label") == "makeKeyAndOrderFront:" })
        for window in nib.laidOut("NSWindowTemplate") {
            #expect(window.archiveClassChain.first?.version == 41)
            #expect(float(window, "screenRect.width") != nil)
        }
    }
}
