/// Writes ``PlistValue``s as XML property lists. UIDs are written the way CoreFoundation
/// writes them in XML: `<dict><key>CF$UID</key><integer>n</integer></dict>`.
public enum XMLPlistWriter {
    /// The XML text of `value`.
    public static func write(_ value: PlistValue) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        append(value, indent: 0, into: &out)
        out += "</plist>\n"
        return out
    }

    private static func escape(_ s: String) -> String {
        var r = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": r += "&amp;"
            case "<": r += "&lt;"
            case ">": r += "&gt;"
            default: r.unicodeScalars.append(c)
            }
        }
        return r
    }

    private static func append(_ value: PlistValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "\t", count: indent)
        switch value {
        case .string(let s): out += "\(pad)<string>\(escape(s))</string>\n"
        case .integer(let v): out += "\(pad)<integer>\(v)</integer>\n"
        case .real(let d): out += "\(pad)<real>\(d)</real>\n"
        case .bool(let b): out += "\(pad)<\(b ? "true" : "false")/>\n"
        case .data(let bytes): out += "\(pad)<data>\(ByteText.base64(bytes[...]))</data>\n"
        case .date(let seconds): out += "\(pad)<date>\(ISODate.format(secondsSince2001: seconds))</date>\n"
        case .uid(let u): out += "\(pad)<dict>\n\(pad)\t<key>CF$UID</key>\n\(pad)\t<integer>\(u)</integer>\n\(pad)</dict>\n"
        case .array(let values):
            if values.isEmpty { out += "\(pad)<array/>\n"; return }
            out += "\(pad)<array>\n"
            for v in values { append(v, indent: indent + 1, into: &out) }
            out += "\(pad)</array>\n"
        case .dictionary(let entries):
            if entries.isEmpty { out += "\(pad)<dict/>\n"; return }
            out += "\(pad)<dict>\n"
            for e in entries {
                out += "\(pad)\t<key>\(escape(e.key))</key>\n"
                append(e.value, indent: indent + 1, into: &out)
            }
            out += "\(pad)</dict>\n"
        }
    }
}

/// ISO 8601 formatting and parsing of plist dates without Foundation.
enum ISODate {
    /// "2001-01-01T00:00:00Z" for 0.
    static func format(secondsSince2001 seconds: Double) -> String {
        let unix = Int64((seconds + 978_307_200).rounded(.down))
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
        return "\(year)-\(two(month))-\(two(day))T\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))Z"
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
