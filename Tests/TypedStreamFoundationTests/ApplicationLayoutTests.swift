import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// The application classes of the corpus's real documents (OsiriX regions, Apple Grapher
/// graphs) decode as ``LaidOutObject``s with their values named, and write back the same bytes.
@Suite("Application layouts: corpus", .needsCorpus)
struct ApplicationLayoutTests {
    /// A corpus file decoded through the Foundation registry: every object with its class name.
    private struct Decoded {
        var objects: [(className: String, object: AnyObject)] = []
        var untypedChains: [String] = []

        /// The laid-out objects of class `name`.
        func laidOut(_ name: String) -> [LaidOutObject] {
            objects.filter { $0.className == name }.compactMap { $0.object as? LaidOutObject }
        }

        /// The laid-out object of class `name` whose string field `field` is `value`.
        func laidOut(_ name: String, where field: String, is value: String) -> LaidOutObject? {
            laidOut(name).first { ($0.object(named: field) as? StringObject)?.string == value }
        }
    }

    private static let applicationClasses = Set(ClassLayouts.applications.map(\.className))

    private func decode(_ path: String) throws -> Decoded {
        let folder = try #require(CorpusFontPlists.corpusDirectory)
        let bytes = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(path).path))
        let pass = try AppKitCorpus.pass([UInt8](bytes))
        #expect(pass.output == [UInt8](bytes), "\(path): decode → encode changed the bytes")
        var decoded = Decoded()
        var seen = Set<ObjectIdentifier>()
        var pending: [ArchivedValue] = pass.archive.groups.flatMap(\.values)
        while let value = pending.popLast() {
            switch value {
            case .object(let entry?, _):
                guard seen.insert(ObjectIdentifier(entry)).inserted else { continue }
                let object = try pass.decoder.object(for: entry)
                decoded.objects.append((entry.className, object))
                let chain = entry.archivedClass.chain.map(\.nameText)
                if Self.applicationClasses.contains(entry.className), !(object is LaidOutObject) {
                    decoded.untypedChains.append(chain.joined(separator: " : "))
                }
                pending += entry.groups.flatMap(\.values)
            case .array(let values), .structure(let values):
                pending += values
            default:
                break
            }
        }
        return decoded
    }

    private func string(_ object: LaidOutObject?, _ field: String) -> String? {
        (object?.object(named: field) as? StringObject)?.string
    }

    private func integer(_ object: LaidOutObject?, _ field: String) -> Int64? {
        switch object?.value(named: field) {
        case .integer(let v, _)?: v
        case .byte(let b)?: Int64(b)
        default: nil
        }
    }

    private func real(_ object: LaidOutObject?, _ field: String) -> Double? {
        switch object?.value(named: field) {
        case .float(let v, _)?: Double(v)
        case .double(let v, _)?: v
        default: nil
        }
    }

    private func number(_ object: LaidOutObject?, _ field: String) -> NumberValue? {
        (object?.object(named: field) as? NumberObject)?.value
    }

    @Test func osiriXRegionsNameTheirPoints() throws {
        let file = try decode("misc/crabstep-HugeWithRefs-ROI-array.typedstream")
        #expect(file.untypedChains.isEmpty, "not laid out: \(file.untypedChains)")
        #expect(file.laidOut("MyPoint").count == 2030)
        let regions = file.laidOut("ROI")
        #expect(regions.count == 45)
        let region = try #require(regions.first { ($0.object(named: "points") as? ArrayObject)?.elements.count == 14 })
        #expect(string(region, "name") == "4th")
        #expect(string(region, "rect") == "{{0, 0}, {0, 0}}")
        #expect(string(region, "imageOrigin") == "{-119.267, -306.267}")
        #expect(number(region, "thickness") == .float(2))
        #expect(number(region, "colorBlue") == .float(65535))
        #expect(number(region, "type") == .float(15))
        let points = try #require(region.object(named: "points") as? ArrayObject)
        let first = try #require(points.elements.first as? LaidOutObject)
        #expect(first.className == "MyPoint")
        #expect(string(first, "point") == "{294.275, 313.361}")
    }

    @Test(arguments: ["misc/grapher-Empty2D-macOS-10.14.gcx.typedstream", "misc/grapher-Empty2D-macOS-13.gcx.typedstream"])
    func grapherObjectsAreLaidOut(path: String) throws {
        let file = try decode(path)
        #expect(file.untypedChains.isEmpty, "not laid out: \(file.untypedChains)")
        #expect(file.laidOut("CPClassValue").count == 168)

        let arcsinh = try #require(file.laidOut("FSimple", where: "name", is: "arcsinh"))
        #expect(integer(arcsinh, "argumentCount") == 1)
        let operation = try #require(arcsinh.object(named: "operation") as? LaidOutObject)
        guard case .classObject(let valueClass?, _)? = operation.value(named: "valueClass") else {
            Issue.record("no class in \(operation)"); return
        }
        #expect(valueClass.nameText == "OPArcSinh")
        #expect(integer(file.laidOut("FMultiple", where: "name", is: "hypot"), "argumentCount") == 32000)
        #expect(file.laidOut("FConstant", where: "name", is: "π") != nil)

        let logY = try #require(file.laidOut("GCartesianScale2D", where: "name", is: "Lin-Log Scale"))
        #expect(integer(logY, "isXLogarithmic") == 0)
        #expect(integer(logY, "isYLogarithmic") == 1)
        #expect(real(logY, "xMinimum") == -5)
        #expect(real(logY, "xMaximum") == 5)

        let abscissa = try #require(file.laidOut("GAbscissa2D", where: "name", is: "2D_ABSCISSA_AXIS_NAME"))
        #expect(string(abscissa, "variable") == "x")
        #expect(integer(abscissa, "isVisible") == 1)
        #expect(real(abscissa, "minimum") == -5)
        #expect(real(abscissa, "startX") == 0)
        #expect(real(abscissa, "vectorY") == -1)
        let polar = try #require(file.laidOut("GRadialAxis2D", where: "name", is: "2D_RADIAL_AXIS_NAME"))
        #expect(string(polar, "variable") == "r")
        #expect(integer(polar, "isVisible") == 0)

        let variable = try #require(file.laidOut("FVariable").first { $0.object(named: "axis") === abscissa })
        #expect(string(variable, "name") == "x")

        let label = try #require(abscissa.object(named: "label") as? LaidOutObject)
        let line = try #require(label.object(named: "line") as? LaidOutObject)
        let characters = try #require(line.object(named: "children") as? ArrayObject)
        let x = try #require(characters.elements.first as? LaidOutObject)
        #expect(x.className == "EQChar")
        #expect(integer(x, "character") == 120)
        #expect(x.object(named: "parent") === line)
    }

    @Test func grapherGridPointsAndViews() throws {
        let file = try decode("misc/grapher-Empty2D-macOS-13.gcx.typedstream")
        let grid = try #require(file.laidOut("GGrid2D", where: "name", is: "2D_GRID_FOR_2D_CARTESIAN_SYSTEM_NAME"))
        let points = try #require(grid.object(named: "points") as? ArrayObject)
        #expect(points.elements.count == 77)
        let first = try #require(points.elements.first as? LaidOutObject)
        #expect(real(first, "x") == 0)
        #expect(real(first, "y") == Double(Float(531.9051)))
        #expect(grid.object(named: "system") is LaidOutObject)

        let view = try #require(file.laidOut("GView2D").first)
        #expect(number(view, "dimension") == .int(2))
        #expect(real(view, "rect1Width") == 826)
        #expect(real(view, "rect1Height") == 539)
        let scale = try #require(view.object(named: "scale") as? LaidOutObject)
        #expect(string(scale, "name") == "Lin-Lin Scale")
        #expect(number(file.laidOut("GView3D").first, "dimension") == .int(3))
    }
}
