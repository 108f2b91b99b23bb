/// ISO 8601 formatting of dates (seconds since 2001-01-01 00:00:00 UTC, as `NSDate` stores
/// them) without Foundation.
enum ISODate {
    /// Seconds from 1970 to 2001.
    private static let offset1970: Double = 978_307_200
    /// 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z in seconds since 1970: the range a
    /// four-digit year can write.
    private static let range1970: Range<Double> = -62_135_596_800 ..< 253_402_300_800

    /// "2001-01-01T00:00:00Z" for 0: whole seconds, rounded down, as CoreFoundation writes
    /// XML property list dates (whose grammar has no fraction). `nil` when `seconds` is not
    /// finite or falls outside the years 1 to 9999.
    static func format(secondsSince2001 seconds: Double) -> String? {
        guard let (whole, _) = split(seconds) else { return nil }
        return civil(whole) + "Z"
    }

    /// As ``format(secondsSince2001:)``, with the fraction of a second the value holds when it
    /// is not zero, in the fewest digits (up to nine) that give the same `Double` back:
    /// `700000000.523` → "2023-03-07T20:26:40.523Z".
    static func formatWithFraction(secondsSince2001 seconds: Double) -> String? {
        guard let (whole, fraction) = split(seconds) else { return nil }
        guard fraction > 0 else { return civil(whole) + "Z" }
        let base = Double(whole) - offset1970
        var scale = 1.0
        var digits = 0
        var units: Int64 = 0
        for count in 1...9 {
            scale *= 10
            units = Int64((fraction * scale).rounded())
            digits = count
            if base + Double(units) / scale == seconds { break }
        }
        if units >= Int64(scale) { return civil(whole + 1) + "Z" }  // rounded up to the next second
        var text = String(units)
        text = String(repeating: "0", count: digits - text.count) + text
        while text.hasSuffix("0") { text.removeLast() }
        return civil(whole) + (text.isEmpty ? "" : "." + text) + "Z"
    }

    /// Whole seconds since 1970 (rounded down) and the fraction left, or `nil` out of range.
    private static func split(_ seconds: Double) -> (Int64, Double)? {
        let unix = seconds + offset1970
        guard unix.isFinite, range1970.contains(unix) else { return nil }
        let whole = unix.rounded(.down)
        return (Int64(whole), seconds - (whole - offset1970))
    }

    /// "YYYY-MM-DDTHH:MM:SS" for whole seconds since 1970.
    private static func civil(_ unix: Int64) -> String {
        var days = unix >= 0 ? unix / 86400 : (unix - 86399) / 86400
        let secondsOfDay = unix - days * 86400
        // Civil-from-days (Howard Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + "-\(two(month))-\(two(day))T\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))"
    }
}
