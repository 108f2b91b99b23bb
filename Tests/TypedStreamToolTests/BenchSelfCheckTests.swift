import Foundation
import Testing

/// The benchmark's input generators are deterministic. `typedstream-bench` is an executable
/// target (tests cannot import it), so these tests run the built binary's `--self-check`, which
/// generates every kind twice in one process and checks the bytes are the same, that they
/// round-trip byte for byte through the archive graph and decode with the Foundation codecs.
/// Running it in two processes and comparing the digests catches anything that depends on
/// per-process state (hash seeds, addresses).
@Suite struct BenchSelfCheckTests {
    /// The `typedstream-bench` next to this test binary (SwiftPM builds every product before
    /// running tests).
    static var benchPath: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("typedstream-bench").path
    }

    /// Runs the bench with `arguments`; returns its exit status and standard output.
    static func runBench(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: benchPath)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The `kind → digest` lines of a self-check's output.
    static func digests(_ output: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("self-check ") && line.hasSuffix(" ok") {
            let words = line.split(separator: " ")
            if let digest = words.first(where: { $0.hasPrefix("fnv1a=") }) { result[String(words[1])] = String(digest) }
        }
        return result
    }

    @Test func generatorsAreDeterministicAcrossProcesses() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.benchPath),
                     "typedstream-bench not built at \(Self.benchPath) (swift build --product typedstream-bench)")
        let first = try Self.runBench(["--self-check", "--seed", "42"])
        let second = try Self.runBench(["--self-check", "--seed", "42"])
        #expect(first.status == 0, "self-check failed:\n\(first.output)")
        #expect(!first.output.contains("FAILED"), "\(first.output)")
        let kinds = ["strings", "dicts", "attributed", "data", "models", "blobs"]
        #expect(Set(Self.digests(first.output).keys) == Set(kinds), "\(first.output)")
        #expect(Self.digests(first.output) == Self.digests(second.output))
    }

    @Test func anotherSeedGivesOtherBytes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.benchPath),
                     "typedstream-bench not built at \(Self.benchPath) (swift build --product typedstream-bench)")
        let a = Self.digests(try Self.runBench(["--self-check", "--seed", "1"]).output)
        let b = Self.digests(try Self.runBench(["--self-check", "--seed", "2"]).output)
        #expect(a.count == 6 && b.count == 6)
        for (kind, digest) in a { #expect(b[kind] != digest, "\(kind) ignores the seed") }
    }

    @Test func badUsageExits64() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.benchPath),
                     "typedstream-bench not built at \(Self.benchPath) (swift build --product typedstream-bench)")
        let result = try Self.runBench(["--sizes", "zero"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
    }
}
