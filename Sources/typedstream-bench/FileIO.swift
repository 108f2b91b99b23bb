import Foundation

/// Reading and writing input files, and the container the blobs are stored in.
enum FileIO {
    /// The whole file at `path`, read straight into one array (no intermediate `Data` copy, so a
    /// child's peak memory is not inflated by loading).
    static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw BenchError("cannot stat \(path)") }
        let size = Int(info.st_size)
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var done = 0
            while done < size {
                let got = posixRead(descriptor, buffer.baseAddress! + done, size - done)
                if got <= 0 { failure = "short read of \(path) at \(done) of \(size) bytes"; break }
                done += got
            }
            initialized = done
        }
        if let failure { throw BenchError(failure) }
        return bytes
    }

    /// Writes `bytes` to `path`, replacing it.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The blob container: for each archive a 4-byte little-endian length, then its bytes.
    static func packBlobs(_ blobs: [[UInt8]]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(blobs.reduce(0) { $0 + $1.count + 4 })
        for blob in blobs {
            let length = UInt32(blob.count)
            for shift in stride(from: 0, to: 32, by: 8) { result.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
            result += blob
        }
        return result
    }

    /// The archives of a blob container.
    static func unpackBlobs(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var blobs: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 4 <= bytes.count else { throw BenchError("blob container truncated at \(offset)") }
            var length = 0
            for index in 0..<4 { length |= Int(bytes[offset + index]) << (8 * index) }
            offset += 4
            guard length <= bytes.count - offset else { throw BenchError("blob at \(offset) runs past the end") }
            blobs.append(Array(bytes[offset..<offset + length]))
            offset += length
        }
        return blobs
    }
}

/// A bench failure with a message.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
