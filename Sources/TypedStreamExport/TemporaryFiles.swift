#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files of ``AtomicFile``: those being written now (so a signal handler can
/// remove them), and those a killed run left behind (removed by the next write of the same
/// destination).
///
/// Writes in progress are kept in a fixed table of C strings allocated once, so the signal
/// handler only reads memory and calls `unlink`, `signal` and `raise` (all async-signal-safe).
/// A slot is filled before it is marked used and marked free before it is reused. When every
/// slot is taken (more than ``slotCount`` writes at once) a write goes unregistered: cleanup on
/// a signal is best effort.
enum TemporaryFiles {
    /// Writes tracked at once.
    static let slotCount = 64
    /// The longest path tracked, with its terminating zero.
    static let slotSize = Int(PATH_MAX)

    /// `slotCount` paths of `slotSize` bytes each.
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotSize)
        pointer.initialize(repeating: 0, count: slotCount * slotSize)
        return pointer
    }()

    /// Per slot: 1 while its path names a file being written, else 0.
    nonisolated(unsafe) private static let used: UnsafeMutablePointer<Int32> = {
        let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: slotCount)
        pointer.initialize(repeating: 0, count: slotCount)
        return pointer
    }()

    /// Guards the table (writers run on several threads) and the stale-file listing.
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let pointer = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(pointer, nil)
        return pointer
    }()

    /// When this process first wrote a file: temporary files last modified before it are left
    /// from an earlier run.
    nonisolated(unsafe) private static var firstWrite: time_t = 0

    /// Per folder listed: the names there that look like temporary files and are older than
    /// ``firstWrite``.
    nonisolated(unsafe) private static var staleNames: [String: [String]] = [:]

    // MARK: - Writes in progress

    /// Records `path` as a file being written; returns its slot (`nil` when untracked).
    static func register(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < slotSize else { return nil }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard let slot = (0..<slotCount).first(where: { used[$0] == 0 }) else { return nil }
        let start = paths + slot * slotSize
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = memcpy(start, chars.baseAddress!, chars.count)
            }
        }
        start[bytes.count] = 0
        used[slot] = 1
        return slot
    }

    /// Forgets the file in `slot` (renamed into place or removed).
    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        pthread_mutex_lock(mutex)
        used[slot] = 0
        pthread_mutex_unlock(mutex)
    }

    /// Installs the handler for `SIGINT`, `SIGTERM` and `SIGHUP` (not for a signal that is
    /// ignored).
    static func installSignalHandlers() {
        _ = (paths, used)  // allocated now, not in the handler
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(signalNumber) { number in TemporaryFiles.removeAllAndReraise(number) }
            if isIgnore(previous) { signal(signalNumber, SIG_IGN) }
        }
    }

    /// The handler: removes every file being written, then ends the process by `number`.
    private static func removeAllAndReraise(_ number: Int32) {
        for slot in 0..<slotCount where used[slot] != 0 {
            unlink(paths + slot * slotSize)
        }
        signal(number, SIG_DFL)
        raise(number)
    }

    private static func isIgnore(_ handler: (@convention(c) (Int32) -> Void)?) -> Bool {
        guard let handler else { return false }
        let ignore: (@convention(c) (Int32) -> Void)? = SIG_IGN
        guard let ignore else { return false }
        return unsafeBitCast(handler, to: UnsafeRawPointer.self) == unsafeBitCast(ignore, to: UnsafeRawPointer.self)
    }

    // MARK: - Left by a killed run

    /// Removes the temporary files `.NAME.tmp-XXXXXX` of the destination `name` in `folder`
    /// that a killed run left: regular files owned by this user, matching that pattern
    /// exactly (six letters or digits), last modified before this process first wrote. The
    /// folder is listed once per process. Best effort: failures are ignored.
    static func removeStale(of name: String, in folder: String) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if firstWrite == 0 { firstWrite = time(nil) }
        if staleNames[folder] == nil { staleNames[folder] = listStale(in: folder) }
        guard let names = staleNames[folder], !names.isEmpty else { return }
        let prefix = "." + name + ".tmp-"
        var kept: [String] = []
        for candidate in names {
            if candidate.hasPrefix(prefix), isTemporarySuffix(candidate.utf8.dropFirst(prefix.utf8.count)) {
                unlink(folder + "/" + candidate)
            } else {
                kept.append(candidate)
            }
        }
        staleNames[folder] = kept
    }

    /// The names in `folder` of the form `.X.tmp-XXXXXX` that are regular files of this user
    /// modified before ``firstWrite``.
    private static func listStale(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            // The name is read in place, up to its NUL: the entry may end before the whole
            // 256-byte `d_name` (its length is `d_reclen`), so copying the field could read past
            // the listing's buffer.
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 1) { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
            }
            let utf8 = name.utf8
            guard utf8.count > 12, utf8.first == UInt8(ascii: "."), isTemporarySuffix(utf8.suffix(6)),
                  utf8.dropLast(6).suffix(5).elementsEqual(".tmp-".utf8) else { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  info.st_uid == geteuid(), modificationSeconds(info) < firstWrite else { continue }
            names.append(name)
        }
        return names
    }

    private static func modificationSeconds(_ info: stat) -> time_t {
        #if canImport(Darwin)
        info.st_mtimespec.tv_sec
        #else
        info.st_mtim.tv_sec
        #endif
    }

    /// Six random ASCII letters and digits, as `mkstemp` puts for `XXXXXX`.
    static func randomSuffix() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return String(decoding: (0..<6).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }, as: UTF8.self)
    }

    /// Whether `suffix` is what `mkstemp` puts for `XXXXXX`: six ASCII letters or digits.
    private static func isTemporarySuffix(_ suffix: some Collection<UInt8>) -> Bool {
        suffix.count == 6 && suffix.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
