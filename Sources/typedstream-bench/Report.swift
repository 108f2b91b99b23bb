import Foundation

/// One line of the results table.
struct ReportRow {
    var kind: String
    var size: String
    var phase: String
    var megabytesPerSecond: Double?
    var cpuMegabytesPerSecond: Double?
    var objectsPerSecond: Double?
    var peakMB: Double?
    /// The phase's own memory (peak − resident before the runs) plus the input, ÷ the input.
    var memoryRatio: Double?
    var peerRatio: Double?
    /// This row's MB/s ÷ the `bare` scan's on the same input (for `scan` and `index`).
    var bareRatio: Double?

    /// The row for `result`, a measurement over `bytes` bytes holding `objects` objects.
    init(kind: String, size: String, phase: String, result: PhaseResult, bytes: Int, objects: Int, peerRatio: Double? = nil) {
        self.kind = kind
        self.size = size
        self.phase = phase
        let wall = Measure.median(result.wall), cpu = Measure.median(result.cpu)
        megabytesPerSecond = wall > 0 ? Double(bytes) / 1e6 / wall : nil
        cpuMegabytesPerSecond = cpu > 0 ? Double(bytes) / 1e6 / cpu : nil
        objectsPerSecond = wall > 0 ? Double(objects) / wall : nil
        peakMB = result.peakKB > 0 ? Double(result.peakKB) * 1024 / 1e6 : nil
        if result.peakKB > 0, bytes > 0 {
            memoryRatio = (Double(max(0, result.peakKB - result.baselineKB)) * 1024 + Double(bytes)) / Double(bytes)
        }
        self.peerRatio = peerRatio
    }
}

/// The Markdown report.
enum Report {
    static let header = "| kind | size | phase | MB/s | MB/s (CPU) | objects/s | peak MB | mem ÷ input | ÷ bare | ×peer |"
    static let rule = "|---|---|---|--:|--:|--:|--:|--:|--:|--:|"

    /// The table.
    static func table(_ rows: [ReportRow]) -> String {
        var lines = [header, rule]
        for row in rows {
            let peak: String = row.peakMB.map { String(format: "%.1f", $0) } ?? "—"
            let memory: String = row.memoryRatio.map { String(format: "%.2f", $0) } ?? "—"
            let bare: String = row.bareRatio.map { String(format: "%.2f", $0) } ?? ""
            let peer: String = row.peerRatio.map { String(format: $0 >= 10 ? "×%.0f" : "×%.1f", $0) } ?? ""
            let cells: [String] = [row.kind, row.size, row.phase, rate(row.megabytesPerSecond), rate(row.cpuMegabytesPerSecond),
                                   count(row.objectsPerSecond), peak, memory, bare, peer]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// "123", "12.3", "1.23".
    static func rate(_ value: Double?) -> String {
        guard let value else { return "—" }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// "1.23 M", "456 k", "789".
    static func count(_ value: Double?) -> String {
        guard let value else { return "—" }
        if value >= 1e6 { return String(format: "%.2f M", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0f k", value / 1e3) }
        return String(format: "%.0f", value)
    }
}
