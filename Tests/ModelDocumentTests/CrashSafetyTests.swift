import Foundation
import Testing
@testable import ModelDocument
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// A save interrupted at any moment leaves, after the next open, the old or the new document —
/// archive, settings file and history together.
@Suite(.serialized) struct CrashSafetyTests {
    /// Restores `directory` to exactly `snapshot`.
    static func restore(_ directory: String, _ snapshot: [String: [UInt8]]) throws {
        try? FileManager.default.removeItem(atPath: directory)
        try DurableIO.makeDirectories(directory)
        for (relative, bytes) in snapshot {
            let path = directory + "/" + relative
            if let slash = path.lastIndex(of: "/") { try DurableIO.makeDirectories(String(path[..<slash])) }
            try writeBytes(path, bytes)
        }
    }

    /// Opens `directory` and checks it holds `old` or `new` whole; returns which.
    static func checkConsistent(_ directory: String, old: CommittedFiles, new: CommittedFiles, _ context: String) throws -> Bool {
        let document = try ModelDocument.open(at: directory)
        let now = CommittedFiles(directory)
        let isOld = now == old
        let isNew = now == new
        #expect(isOld || isNew, "\(context): the committed files are neither the old nor the new generation")
        #expect(try document.archiveBytes() == now.archive, "\(context): the archive does not re-encode to itself")
        let leftovers = try DurableIO.list(directory).filter { $0.hasSuffix(".new") || $0.hasSuffix(".tmp") || $0 == DocumentFiles.journal }
        #expect(leftovers.isEmpty, "\(context): leftovers \(leftovers)")
        return isNew
    }

    @Test func aCrashBeforeEveryStepIsRecovered() throws {
        let folder = TemporaryFolder("crash-steps")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let created = try ModelDocument.create(at: directory, records: VersioningTests.v1Records, version: .v1)
        try created.delete(at: 0)
        try created.save()
        let template = treeSnapshot(directory)
        let old = CommittedFiles(directory)

        var crashAt = 1
        var outcomes: [Bool] = []
        while true {
            try Self.restore(directory, template)
            let document = try ModelDocument.open(at: directory)
            // A save that touches everything: a migration (backups), a new thumbnail, a removed one.
            _ = document.undo()
            try document.delete(named: "Two")
            try document.add(ModelRecord(name: "Three", thumbnail: [3, 3, 3]))
            document.pendingExtraFiles = [("backups/extra.bin", [1, 2])]
            let prepared = try document.prepareSave()
            let new = CommittedFiles(prepared)
            var crashed = false
            do {
                try prepared.plan.execute { step throws(ModelDocumentError) in
                    if step == crashAt { throw ModelDocumentError(.io, "simulated crash before step \(step)") }
                }
            } catch {
                guard error.reason.hasPrefix("simulated crash") else { throw error }
                crashed = true
            }
            outcomes.append(try Self.checkConsistent(directory, old: old, new: new, "crash before step \(crashAt)"))
            if !crashed { break }
            crashAt += 1
        }
        print("crash-before-step test: \(crashAt - 1) steps; old after \(outcomes.filter { !$0 }.count), new after \(outcomes.filter { $0 }.count)")
        #expect(outcomes.first == false)
        #expect(outcomes.last == true)
        #expect(crashAt > 10)
    }

    @Test func recoveryOfAPartlyRenamedCommit() throws {
        let folder = TemporaryFolder("crash-partial")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let document = try ModelDocument.create(at: directory)
        try document.delete(at: 0)
        let prepared = try document.prepareSave()
        // Stop after the archive was renamed into place but before the settings file.
        var renames = 0
        do {
            try prepared.plan.execute { step throws(ModelDocumentError) in
                if DurableIO.exists(directory + "/" + DocumentFiles.journal) {
                    if renames == 1 { throw ModelDocumentError(.io, "simulated crash") }
                    renames += 1
                }
            }
        } catch {}
        #expect(DurableIO.exists(directory + "/" + DocumentFiles.journal))
        #expect(DurableIO.exists(directory + "/" + DocumentFiles.settings + ".new"))
        let reopened = try ModelDocument.open(at: directory)
        #expect(reopened.recovery.rolledForward == 2)
        #expect(reopened.records == Array(ModelDocument.placeholderRecords.dropFirst()))
        #expect(CommittedFiles(directory) == CommittedFiles(prepared))
    }

    @Test func aDamagedStagedFileUnderAJournalIsRefused() throws {
        let folder = TemporaryFolder("crash-damaged")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let document = try ModelDocument.create(at: directory)
        try document.delete(at: 0)
        let prepared = try document.prepareSave()
        do {
            try prepared.plan.execute { step throws(ModelDocumentError) in
                if DurableIO.exists(directory + "/" + DocumentFiles.journal) { throw ModelDocumentError(.io, "simulated crash") }
            }
        } catch {}
        try writeBytes(directory + "/" + DocumentFiles.archive + ".new", [0])
        let before = treeSnapshot(directory)
        #expect(throws: ModelDocumentError(.damaged, "")) { try ModelDocument.open(at: directory) }
        #expect(treeSnapshot(directory) == before)
    }

    /// Runs saves in a forked child and kills it with SIGKILL after a random delay, hundreds of
    /// times; after each kill the document must open as the old or the new generation. A fresh
    /// document every 30 kills keeps the undo history (and so each open) small.
    @Test func killedSavesLeaveTheOldOrTheNewDocument() throws {
        let seed = testSeed("MODEL_KILL_SEED", "kill test")
        var random = SplitMix64(seed: seed)
        // In memory when possible: SIGKILL tests the protocol, not the disk, and fsync on a real
        // disk would make each save take ~100 ms.
        let folder = TemporaryFolder("crash-kill", inMemory: true)
        defer { folder.cleanUp() }
        let iterations = Int(ProcessInfo.processInfo.environment["MODEL_KILL_ITERATIONS"] ?? "") ?? 300

        // Warm up the commit path in this process (so the child needs nothing new), then time
        // whole saves in a child to choose the window the kills fall in.
        let warmup = folder.sub("warmup")
        _ = try ModelDocument.create(at: warmup)
        var durations: [UInt64] = []
        for round in 0..<5 {
            let document = try ModelDocument.open(at: warmup)
            try document.add(ModelRecord(name: "warm\(round)", thumbnail: [UInt8(round)]))
            let prepared = try document.prepareSave()
            if round == 0 { try prepared.plan.execute(); continue }
            // The child reports when its save finished (the monotonic clock is system-wide);
            // its exit takes longer and must not widen the window.
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let start = DispatchTime.now().uptimeNanoseconds
            let pid = fork()
            if pid == 0 {
                do { try prepared.plan.execute() } catch { _exit(3) }
                var done = DispatchTime.now().uptimeNanoseconds
                _ = write(fds[1], &done, 8)
                _exit(0)
            }
            // Never wait forever: a child stuck after fork (another test thread held a lock the
            // child needs) is killed after 10 s and left out of the measurement.
            var done: UInt64 = 0
            var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 10_000) == 1 { _ = read(fds[0], &done, 8) } else { kill(pid, SIGKILL) }
            close(fds[0])
            close(fds[1])
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            guard done > 0 else { continue }
            durations.append(done > start ? done - start : 0)
            #expect(status == 0, "a warm-up save in a child failed")
        }
        // Microseconds; then adapted so that about half of the children are killed mid-save.
        var window = max(200, durations.isEmpty ? 5000 : durations.sorted()[durations.count / 2] / 1000)
        let firstWindow = window

        var outcomeNew = 0, outcomeOld = 0, rolledForward = 0, rolledBack = 0, finished = 0
        var directory = ""
        for iteration in 0..<iterations {
            if iteration % 30 == 0 {
                directory = folder.sub("doc\(iteration)")
                _ = try ModelDocument.create(at: directory)
            }
            let document = try ModelDocument.open(at: directory)
            let old = CommittedFiles(directory)
            switch random.next() % 5 {
            case 0 where document.count > 1: try document.delete(at: Int(random.next() % UInt64(document.count)))
            case 1 where document.canUndo: _ = document.undo()
            case 2 where document.canRedo: _ = document.redo()
            case 3 where document.count > 0:
                var record = document.records[0]
                record.flag = UInt32(truncatingIfNeeded: random.next())
                record.thumbnail = [UInt8(truncatingIfNeeded: random.next())]
                try document.update(at: 0, to: record)
            default:
                try document.add(ModelRecord(name: "m\(iteration)", type: "kill", flag: UInt32(iteration), thumbnail: [UInt8(truncatingIfNeeded: iteration)]))
            }
            let prepared = try document.prepareSave()
            let new = CommittedFiles(prepared)
            let delay = UInt32(random.next() % window)

            let pid = fork()
            if pid == 0 {
                do { try prepared.plan.execute() } catch { _exit(3) }
                _exit(0)
            }
            #expect(pid > 0, "fork failed")
            guard pid > 0 else { return }
            usleep(delay)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if status & 0x7F == 0 {
                #expect((status >> 8) & 0xFF == 0, "iteration \(iteration): the child's save failed")
                finished += 1
                window = max(100, window * 9 / 10)
            } else {
                window = window * 11 / 10
            }

            let reopened = try ModelDocument.open(at: directory)
            if reopened.recovery.rolledForward != nil { rolledForward += 1 }
            if !reopened.recovery.removed.isEmpty { rolledBack += 1 }
            if try Self.checkConsistent(directory, old: old, new: new, "iteration \(iteration) (seed \(seed), delay \(delay) µs)") {
                outcomeNew += 1
            } else {
                outcomeOld += 1
            }
        }
        print("kill test (seed \(seed)): \(iterations) kills within \(firstWindow) µs at first, \(window) µs at last; old \(outcomeOld), new \(outcomeNew); rolled forward \(rolledForward), rolled back \(rolledBack), finished before the kill \(finished)")
        #expect(outcomeOld + outcomeNew == iterations)
    }
}
