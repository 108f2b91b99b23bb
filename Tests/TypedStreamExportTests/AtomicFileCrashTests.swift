import Foundation
import Testing
import TypedStreamExport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// Every file the toolkit writes goes through ``AtomicFile``. A child process rewrites one file
/// over and over, alternating two contents; it is killed with SIGKILL at random moments
/// (seeded, hundreds of times). After each kill the file must hold one content or the other,
/// whole — never a mixture, never a truncated file — and no temporary file may be mistaken for it.
struct AtomicFileCrashTests {
    @Test func killedWritersNeverLeaveAPartialFile() throws {
        let seed = ProcessInfo.processInfo.environment["ATOMIC_KILL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("AtomicFileCrashTests seed: \(seed) (replay with ATOMIC_KILL_SEED=\(seed))")
        var generator = SplitMix64(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-kill-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/archive.typedstream"
        let first = [UInt8](repeating: 0x61, count: 256 * 1024)
        let second = [UInt8](repeating: 0x62, count: 384 * 1024)
        try AtomicFile.write(first, to: path)
        let kills = 200
        for round in 0..<kills {
            let child = fork()
            if child == 0 {
                while true {
                    _ = try? AtomicFile.write(second, to: path)
                    _ = try? AtomicFile.write(first, to: path)
                }
            }
            #expect(child > 0)
            usleep(UInt32(generator.next() % 20_000))
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            let now = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(now == first || now == second, "round \(round): \(now.count) bytes on disk")
            if now != first && now != second { break }
        }
        // Leftover temporary files are hidden and never replace the destination.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        print("AtomicFileCrashTests: \(kills) kills, \(names.count - 1) killed mid-write (temporary files left behind)")
        #expect(names.contains("archive.typedstream"))
        #expect(names.allSatisfy { $0 == "archive.typedstream" || $0.hasPrefix(".archive.typedstream.tmp-") })
    }
}
