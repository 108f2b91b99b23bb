import Foundation

/// Standard input, read once and kept, so `-` may be named more than once: given bytes (tests),
/// or a file descriptor read lazily — only as far as asked (``head(_:limit:)`` reads the first
/// bytes; ``all(limit:)`` the rest, up to the limit).
final class StandardInput: @unchecked Sendable {
    private let descriptor: Int32?
    private var bytes: [UInt8]
    private var ended: Bool
    private var failure: FileReadError?
    /// How much of ``bytes`` ``readChunk(into:maximum:)`` has handed out.
    private var streamed = 0
    private let lock = NSLock()

    /// Standard input that holds `bytes`.
    init(bytes: [UInt8]) {
        descriptor = nil
        self.bytes = bytes
        ended = true
    }

    /// Standard input read from `descriptor` when asked.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        bytes = []
        ended = false
    }

    /// Everything, at most `limit` bytes. Throws ``FileReadError`` (unreadable, or larger than
    /// `limit`).
    func all(limit: Int) throws(FileReadError) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        if !ended, let descriptor {
            do throws(FileReadError) {
                try FileReading.readRest(descriptor: descriptor, path: "-", limit: limit, into: &bytes)
                ended = true
            } catch {
                failure = error
                throw error
            }
        }
        guard bytes.count <= limit else { throw .tooLarge("-", limit: limit) }
        return bytes
    }

    /// The first `count` bytes (fewer when it is shorter) and whether they are all of it.
    /// Throws ``FileReadError``.
    func head(_ count: Int) throws(FileReadError) -> (bytes: [UInt8], isWhole: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        if !ended, bytes.count <= count, let descriptor {
            do throws(FileReadError) {
                // One byte more than asked tells whether there is more.
                ended = try FileReading.readMore(descriptor: descriptor, path: "-", into: &bytes, upTo: count + 1)
            } catch {
                failure = error
                throw error
            }
        }
        return (Array(bytes.prefix(count)), ended && bytes.count <= count)
    }

    /// Appends the next bytes of standard input — at most `maximum` — to `buffer` without
    /// keeping them (for reading a stream of records of any total size); returns `true` once it
    /// has ended. Bytes read before (by ``head(_:)``) come first. Do not mix with ``all(limit:)``.
    /// Throws ``FileReadError``.
    func readChunk(into buffer: inout [UInt8], maximum: Int) throws(FileReadError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        if streamed < bytes.count {
            let end = min(bytes.count, streamed + maximum)
            buffer.append(contentsOf: bytes[streamed..<end])
            streamed = end
            return false
        }
        guard !ended, let descriptor else { return true }
        do throws(FileReadError) {
            ended = try FileReading.readSome(descriptor: descriptor, path: "-", into: &buffer, maximum: maximum)
        } catch {
            failure = error
            throw error
        }
        return ended
    }
}
