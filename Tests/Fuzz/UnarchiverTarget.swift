// libFuzzer target "unarchiver": the archive graph and the full unarchiver (object graph and
// every class codec) over arbitrary bytes.
//
// Properties: nothing traps; whatever ArchiveReader accepts, ArchiveWriter writes back to the
// same bytes (the graph loses nothing); the unarchiver with every Foundation, AppKit and
// NeXTSTEP codec either decodes every top-level item or throws.
import TypedStream
import TypedStreamFoundation

@_cdecl("LLVMFuzzerTestOneInput")
public func unarchiverFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    guard let archive = try? ArchiveReader.read(bytes) else { return 0 }
    do {
        let written = try ArchiveWriter.write(archive)
        if written != bytes { fatalError("the graph of an accepted archive wrote different bytes") }
    } catch {
        fatalError("the writer refused a graph the reader produced: \(error)")
    }
    let unarchiver = Unarchiver(archive: archive, registry: .foundation)
    if let items = try? unarchiver.decodeTopLevelItems() {
        // Natural values walk every typed object (cycle- and depth-safe).
        for case .object(let object) in items { _ = naturalValue(of: object) }
    }
    return 0
}
