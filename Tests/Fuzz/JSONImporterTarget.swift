// libFuzzer target "jsonimporter": the lossless JSON importer over arbitrary text.
//
// Properties: nothing traps; JSON the importer accepts either writes or is refused by the
// writer with an error; bytes the writer produces read back as an archive.
import TypedStream
import TypedStreamExport

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonImporterFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    guard let archive = try? ArchiveJSON.decode(bytes), let written = try? ArchiveWriter.write(archive) else { return 0 }
    do {
        _ = try ArchiveReader.read(written)
    } catch {
        fatalError("bytes written from imported JSON do not read back: \(error)")
    }
    return 0
}
