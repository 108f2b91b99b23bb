// libFuzzer target "keyedimporter": keyed archives (binary or XML property lists) through the
// bounded plist readers, the keyed-archive check, the typedstream importer and the Model
// documents' keyed import (what `model import` runs).
//
// Properties: nothing traps; a keyed archive the importer accepts writes a typedstream that
// reads back.
import TypedStream
import TypedStreamExport
import ModelDocument

@_cdecl("LLVMFuzzerTestOneInput")
public func keyedImporterFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    _ = try? KeyedModelArchive.decode(bytes)
    _ = try? AlbumLibrary.albums(fromArchive: bytes)
    guard let written = try? KeyedArchiveImporter.typedstream(fromKeyed: bytes) else { return 0 }
    do {
        _ = try ArchiveReader.read(written)
    } catch {
        fatalError("a typedstream imported from a keyed archive does not read back: \(error)")
    }
    return 0
}
