import Foundation

/// Clocks, memory readings and statistics.
enum Measure {
    /// Seconds on the monotonic clock.
    static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU seconds this process has used (all threads). On a shared machine this is steadier
    /// than wall time: it does not count time spent waiting for a core.
    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A `kB` field of `/proc/self/status` (`VmHWM`, the peak resident set; `VmRSS`, the current one).
    static func statusKB(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).filter(\.isNumber))
        }
        return nil
    }

    /// Resets `VmHWM` to the current resident set (`echo 5 > /proc/self/clear_refs`, Linux ≥ 4.0),
    /// so a phase's peak does not include transients of loading its input. False if refused.
    @discardableResult
    static func resetPeak() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return posixWrite(descriptor, "5", 1) == 1
    }

    /// The median of `values` (0 for none).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
