// libFuzzer target "jsonimporter": the lossless JSON importer over arbitrary text.
//
// Properties: nothing traps; JSON the importer accepts either writes or is refused by the
// writer with an error; bytes the writer produces read back as an archive — all three with one
// set of small limits (Tests/TestSupport/FuzzLimits.swift, which JSONImporterFindsTests also
// uses), so that inputs of a few kilobytes reach every limit: the importer and the writer must
// refuse what the reader refuses.
import TypedStream
import TypedStreamExport

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonImporterFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    for limits in [jsonImporterFuzzLimits, .default] {
        guard let archive = try? ArchiveJSON.decode(bytes, options: .init(limits: limits)),
              let written = try? ArchiveWriter.write(archive, limits: limits) else { continue }
        do {
            _ = try ArchiveReader.read(written, limits: limits)
            _ = try ArchiveIndex(bytes: written, limits: limits)
        } catch {
            fatalError("bytes written from imported JSON do not read back: \(error)")
        }
    }
    return 0
}
