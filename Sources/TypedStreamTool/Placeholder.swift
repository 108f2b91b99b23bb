import TypedStream
import TypedStreamFoundation
#if canImport(Glibc)
import Glibc
#endif
public enum TypedStreamCommand {
    public static func main() {
        var failures = 0
        for path in CommandLine.arguments.dropFirst() where !path.hasPrefix("--") {
            guard let f = fopen(path, "rb") else { print("cannot open \(path)"); continue }
            var data: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 65536)
            while true { let n = fread(&buf, 1, buf.count, f); if n <= 0 { break }; data += buf[0..<n] }
            fclose(f)
            do {
                let archive = try ArchiveReader.read(data)
                let policy: ArchiveWriter.Policy = CommandLine.arguments.contains("--archiver") ? .archiver : .recorded
                struct W { var bytes: [UInt8] }
                var writer = W(bytes: try ArchiveWriter.write(archive, policy: policy))
                if CommandLine.arguments.contains("--coder") {
                    let u = Unarchiver(archive: archive, registry: .foundation)
                    let enc = Archiver(header: archive.header)
                    while u.hasMoreGroups {
                        let root = try u.decodeObject()
                        try enc.encodeRootObject(root)
                    }
                    writer.bytes = try enc.encodedBytes()
                }
                if writer.bytes == data { print("identical \(path)") } else {
                    let i = (0..<min(writer.bytes.count, data.count)).first { writer.bytes[$0] != data[$0] } ?? min(writer.bytes.count, data.count)
                    print("DIFFER at \(i) \(path)"); failures += 1
                }
            } catch { print("ERROR \(path): \(error)"); failures += 1 }
        }
        print("failures: \(failures)")
    }
}
