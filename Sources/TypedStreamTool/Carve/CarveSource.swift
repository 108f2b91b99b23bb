#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random access to the bytes of a file that `carve` (and `inspect`/`detect --offset`) look
/// into, one bounded piece at a time: a regular file or a block device is read with `pread`, so
/// a multi-gigabyte disk image or memory dump is never held whole; standard input, which cannot
/// be read out of order, is read whole first (within the tool's input limit).
final class CarveSource {
    private enum Storage {
        case descriptor(Int32)
        case memory([UInt8])
    }

    private let storage: Storage
    /// The path as given (`-` for standard input), for messages.
    let path: String
    /// The number of bytes.
    let size: Int

    /// Opens the FILE argument `path` (`-`: standard input, read whole). Throws
    /// ``FileReadError`` when it cannot be opened, is a folder, or is neither a regular file nor
    /// a block device (a pipe: save it to a file first).
    init(path: String, context: CommandContext) throws(FileReadError) {
        self.path = path
        if path == "-" {
            let bytes = try context.standardInput()
            storage = .memory(bytes)
            size = bytes.count
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, reason: FileReading.lastErrorText()) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = FileReading.lastErrorText()
            close(descriptor)
            throw FileReadError(path: path, reason: reason)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            size = Int(info.st_size)
        case S_IFBLK:
            // A block device reports no size in `st_size`; its end is where seeking to the end lands.
            size = Int(max(0, lseek(descriptor, 0, SEEK_END)))
        case S_IFDIR:
            close(descriptor)
            throw FileReadError(path: path, reason: "it is a folder")
        default:
            close(descriptor)
            throw FileReadError(path: path, reason: "not a regular file or disk device (a pipe cannot be read out of order; save it to a file first)")
        }
        storage = .descriptor(descriptor)
    }

    /// A source over bytes in memory (tests).
    init(bytes: [UInt8], path: String = "-") {
        self.path = path
        storage = .memory(bytes)
        size = bytes.count
    }

    deinit {
        if case .descriptor(let descriptor) = storage { close(descriptor) }
    }

    /// Up to `count` bytes from `offset` (fewer where the source ends; none past it). Throws
    /// ``FileReadError`` when the system refuses the read.
    func read(at offset: Int, count: Int) throws(FileReadError) -> [UInt8] {
        let wanted = max(0, min(count, size - min(max(offset, 0), size)))
        var failure: FileReadError?
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            do throws(FileReadError) {
                initialized = try read(at: offset, into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads up to `buffer.count` bytes from `offset` into `buffer` (fewer where the source
    /// ends) and returns how many: for a buffer used again and again. Throws ``FileReadError``
    /// when the system refuses the read.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(FileReadError) -> Int {
        let start = min(max(offset, 0), size)
        let wanted = max(0, min(buffer.count, size - start))
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        switch storage {
        case .memory(let bytes):
            bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress! + start, byteCount: wanted) }
            return wanted
        case .descriptor(let descriptor):
            var filled = 0
            while filled < wanted {
                let got = pread(descriptor, base + filled, wanted - filled, off_t(start + filled))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw FileReadError(path: path, reason: FileReading.lastErrorText())
                }
                if got == 0 { break }  // the file shrank while being read
                filled += got
            }
            return filled
        }
    }
}
