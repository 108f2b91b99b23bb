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

    /// Seconds since 2001-01-01 of "YYYY-MM-DDTHH:MM:SSZ" (what plists hold), or nil.
    static func parse(_ text: String) -> Double? {
        let u = Array(text.utf8)
        guard u.count == 20, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            var v: Int64 = 0
            for b in u[from..<from + count] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                v = v * 10 + Int64(b - 0x30)
            }
            return v
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // Days-from-civil (Howard Hinnant's algorithm), the inverse of `format`.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86400 + hour * 3600 + minute * 60 + second) - 978_307_200
    }
}
