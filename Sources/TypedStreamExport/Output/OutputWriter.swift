/// The one buffered writer every renderer writes through: appends go into a buffer (64 KiB by
/// default) that is handed to an ``OutputSink`` whenever it fills, and at ``flush()``.
///
/// Every write is checked. The first failure is kept in ``error`` and everything after it is
/// dropped, so a renderer never has to handle a failure at each append: it may look at
/// ``failed`` now and then to stop early, and its caller looks at ``error`` after the last
/// ``flush()``.
///
/// ```swift
/// var out = OutputWriter(sink: FileDescriptorOutput.standardOutput)
/// out.append("objects: ")
/// out.appendDecimal(42)
/// out.append(0x0A)
/// out.flush()
/// if let error = out.error { … }   // "cannot write standard output: No space left on device"
/// ```
///
/// It is not copyable (it owns its buffer) and not synchronized: one thread writes at a time.
public struct OutputWriter: ~Copyable {
    /// The default buffer size: 64 KiB.
    public static let defaultCapacity = 1 << 16

    /// Where full buffers go.
    public let sink: any OutputSink
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    /// Bytes appended before the buffer's current contents (written or dropped).
    private var drained = 0
    /// The first failed write, if any; nothing is written after it.
    public private(set) var error: OutputError?

    /// Creates a writer over `sink` with a buffer of `capacity` bytes (at least 256).
    public init(sink: any OutputSink, capacity: Int = OutputWriter.defaultCapacity) {
        self.sink = sink
        self.capacity = max(capacity, 256)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        if count > 0, error == nil {
            let pending = UnsafeRawBufferPointer(start: base, count: count)
            try? sink.write(pending)
        }
        base.deallocate()
    }

    /// Whether a write has failed (everything since was dropped).
    public var failed: Bool { error != nil }

    /// Every byte appended so far, written, buffered or dropped after a failure: what budgets
    /// on the size of an output count.
    public var bytesAppended: Int { drained + count }

    /// Hands the buffer to the sink (or drops it after a failure) and empties it.
    public mutating func flush() {
        guard count > 0 else { return }
        let pending = UnsafeRawBufferPointer(start: base, count: count)
        drained += count
        count = 0
        guard error == nil else { return }
        do throws(OutputError) { try sink.write(pending) } catch { self.error = error }
    }

    /// Appends one byte.
    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if count == capacity { flush() }
        base[count] = byte
        count += 1
    }

    /// Appends bytes; a run longer than the buffer goes to the sink directly.
    @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if bytes.count <= capacity - count {
            (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            count += bytes.count
            return
        }
        appendPastBuffer(bytes)
    }

    /// Appends bytes that do not fit in what is left of the buffer.
    private mutating func appendPastBuffer(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        flush()
        if bytes.count < capacity {
            base.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            count = bytes.count
            return
        }
        drained += bytes.count
        guard error == nil else { return }
        do throws(OutputError) { try sink.write(bytes) } catch { self.error = error }
    }

    /// Appends bytes.
    @inline(__always)
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends bytes.
    @inline(__always)
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends text as UTF-8. (A string literal goes to the `StaticString` form, which copies
    /// its bytes without looking at a `String`.)
    @inline(__always)
    @_disfavoredOverload
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a literal as UTF-8.
    @inline(__always)
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `count` spaces.
    public mutating func appendSpaces(_ count: Int) {
        var remaining = count
        while remaining > 0 {
            if self.count == capacity { flush() }
            let n = min(remaining, capacity - self.count)
            (base + self.count).update(repeating: 0x20, count: n)
            self.count += n
            remaining -= n
        }
    }

    /// Appends a decimal integer.
    @inline(__always)
    public mutating func appendDecimal(_ value: Int) { appendDecimal(Int64(value)) }

    /// Appends a decimal integer.
    public mutating func appendDecimal(_ value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(UInt64(value))
        }
    }

    /// Appends a decimal integer.
    public mutating func appendDecimal(_ value: UInt64) {
        withSpace(20) { pointer in
            var digits = 1
            var rest = value
            while rest >= 10 {
                rest /= 10
                digits += 1
            }
            var v = value
            var i = digits - 1
            repeat {
                pointer[i] = 0x30 + UInt8(truncatingIfNeeded: v % 10)
                v /= 10
                i -= 1
            } while v > 0
            return digits
        }
    }

    /// Lowercase hex digits.
    public static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `value` in lowercase hex, zero-padded to at least `digits` digits (at most 16).
    public mutating func appendHex(_ value: UInt64, digits: Int) {
        var shown = max(1, min(digits, 16))
        while shown < 16 && value >> (4 * UInt64(shown)) != 0 { shown += 1 }
        withSpace(16) { pointer in
            var rest = value
            var i = shown
            while i > 0 {
                i -= 1
                let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
                pointer[i] = nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble
                rest >>= 4
            }
            return shown
        }
    }

    /// Gives `body` room for at least `maximum` bytes (at most the buffer size) at the end of
    /// the buffer; `body` writes there and returns how many it wrote. The fast way to format.
    @inline(__always)
    public mutating func withSpace(_ maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        precondition(maximum <= capacity, "OutputWriter.withSpace: more than the buffer holds")
        if capacity - count < maximum { flush() }
        let written = body(base + count)
        count += written
    }
}
