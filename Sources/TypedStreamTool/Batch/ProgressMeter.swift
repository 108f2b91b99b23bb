/// The progress line of a batch run, drawn on standard error only when it is a terminal:
/// `[########............]  45/108 files  1.2 MB  3.4 MB/s  ETA 0:02`.
struct ProgressMeter {
    /// How many files the batch holds.
    let totalFiles: Int
    /// How many bytes the batch holds, when every size was known up front.
    let totalBytes: Int?
    /// Width of the bar between the brackets.
    var barWidth = 24

    /// The line for the given state; `elapsed` in seconds. A pure function, so it can be tested.
    func line(doneFiles: Int, doneBytes: Int, elapsed: Double) -> String {
        let fraction: Double
        if let totalBytes, totalBytes > 0 {
            fraction = min(1, Double(doneBytes) / Double(totalBytes))
        } else {
            fraction = totalFiles > 0 ? min(1, Double(doneFiles) / Double(totalFiles)) : 1
        }
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]"
        var text = "\(bar)  \(doneFiles)/\(totalFiles) files  \(TextFormatting.byteCount(doneBytes))"
        if elapsed > 0 {
            text += "  \(TextFormatting.byteCount(Int(Double(doneBytes) / elapsed)))/s"
        }
        let eta: String
        if fraction >= 1 {
            eta = "0:00"
        } else if fraction > 0, elapsed > 0 {
            eta = TextFormatting.duration(elapsed / fraction - elapsed)
        } else {
            eta = "--:--"
        }
        return text + "  ETA " + eta
    }

    /// What to write to redraw the line in place: carriage return, the line, clear to end.
    static func redraw(_ line: String) -> String { "\r" + line + "\u{1B}[K" }

    /// What to write to remove the line.
    static let erase = "\r\u{1B}[K"
}
