/// SHA-256 (FIPS 180-4), used to tie the settings file, the commit journal and the undo history
/// to the exact archive bytes they belong to, and to name the undo history's thumbnails by their
/// content. Standard library only, so it also runs in the forked child of the crash test without
/// touching Foundation.
///
/// ```swift
/// SHA256.hexDigest(of: Array("abc".utf8))  // "ba7816bf…f20015ad"
/// ```
public enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest of `bytes`.
    public static func digest(of bytes: some Collection<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ digest(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(bytes).withUnsafeBytes { digest($0) }
    }

    /// The digest of the bytes in `message`: whole 64-byte blocks are read in place (no copy of
    /// the message), the padded tail from a small buffer. Pointers and wrapping shifts keep it
    /// fast in debug builds too, where a thumbnail of tens of megabytes is hashed.
    private static func digest(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        let whole = message.count / 64 * 64
        var tail = [UInt8](message[whole...])
        let bitLength = UInt64(message.count) &* 8
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength &>> UInt64(shift))) }
        state.withUnsafeMutableBufferPointer { h in
            k.withUnsafeBufferPointer { k in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                    guard let h = h.baseAddress, let k = k.baseAddress, let w = w.baseAddress else { return }
                    if let base = message.baseAddress, whole > 0 {
                        compress(base, blocks: whole / 64, into: h, k: k, w: w)
                    }
                    tail.withUnsafeBytes { buffer in
                        if let base = buffer.baseAddress { compress(base, blocks: buffer.count / 64, into: h, k: k, w: w) }
                    }
                }
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in state {
            out.append(UInt8(truncatingIfNeeded: word &>> 24))
            out.append(UInt8(truncatingIfNeeded: word &>> 16))
            out.append(UInt8(truncatingIfNeeded: word &>> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return out
    }

    /// Runs the compression function over `blocks` 64-byte blocks at `bytes`. Raw pointers and
    /// `while` loops: in a debug build, buffer subscripts and range iterators are calls.
    private static func compress(_ bytes: UnsafeRawPointer, blocks: Int, into h: UnsafeMutablePointer<UInt32>,
                                 k: UnsafePointer<UInt32>, w: UnsafeMutablePointer<UInt32>) {
        let input = bytes.assumingMemoryBound(to: UInt8.self)
        var block = 0
        while block < blocks {
            var q = input + block &* 64
            var i = 0
            while i < 16 {
                w[i] = UInt32(q[0]) &<< 24 | UInt32(q[1]) &<< 16 | UInt32(q[2]) &<< 8 | UInt32(q[3])
                q += 4
                i &+= 1
            }
            while i < 64 {
                let x = w[i &- 15], y = w[i &- 2]
                let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
                let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
                w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
                i &+= 1
            }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
            i = 0
            while i < 64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                i &+= 1
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d
            h[4] = h[4] &+ e; h[5] = h[5] &+ f; h[6] = h[6] &+ g; h[7] = h[7] &+ hh
            block &+= 1
        }
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hexDigest(of bytes: some Collection<UInt8>) -> String {
        hex(digest(of: bytes))
    }

    /// Whether `text` is a digest as ``hexDigest(of:)`` spells it: 64 lowercase hex digits.
    public static func isHexDigest(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Lowercase hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
