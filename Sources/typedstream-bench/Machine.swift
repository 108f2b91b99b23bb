import Foundation

/// What the numbers were measured on.
enum Machine {
    /// Lines describing the CPU, cores, memory, kernel, load and date.
    static func summary() -> [String] {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let lines = cpuinfo.split(separator: "\n")
        let model = lines.first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?" } ?? "unknown CPU"
        let processors = lines.filter { $0.hasPrefix("processor") }.count
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let totalKB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Int($0.filter(\.isNumber)) } ?? 0
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?")
            .split(separator: " ").prefix(3).joined(separator: " ")
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let date = ISO8601DateFormatter().string(from: Date())
        return [
            "date: \(date)",
            "machine: \(model), \(processors) logical cores (\(ProcessInfo.processInfo.activeProcessorCount) usable), \(String(format: "%.1f", Double(totalKB) / 1_048_576)) GiB memory, Linux \(kernel)",
            "load average at start: \(load)",
            "build: \(buildConfiguration)",
        ]
    }

    /// "release", or a warning for debug builds.
    static var buildConfiguration: String {
        #if DEBUG
        "DEBUG — these numbers mean little; run `swift run -c release typedstream-bench`"
        #else
        "release"
        #endif
    }
}
