// libFuzzer target "jsonimporter": the lossless JSON importer over arbitrary text.
//
// Properties: nothing traps; JSON the importer accepts either writes or is refused by the
// writer with an error; bytes the writer produces read back as an archive — all three with one
// set of small limits (the same in JSONImporterFindsTests), so that inputs of a few kilobytes
// reach every limit: the importer and the writer must refuse what the reader refuses.
import TypedStream
import TypedStreamExport

let fuzzLimits: DecodingLimits = {
    var limits = DecodingLimits()
    limits.maximumNesting = 16
    limits.maximumTypeNesting = 8
    limits.maximumObjects = 512
    limits.maximumSharedStrings = 256
    limits.maximumEmptyElementArray = 64
    limits.maximumClassNameLength = 24
    limits.maximumClassChainLength = 8
    limits.maximumInputSize = 8192
    return limits
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonImporterFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    for limits in [fuzzLimits, .default] {
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
