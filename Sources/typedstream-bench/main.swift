import TypedStream
import TypedStreamFoundation
import Foundation

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
if let path = CommandLine.arguments.first(where: { $0.hasPrefix("--file=") }) {
    let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: String(path.dropFirst(7)))))
    let mode = CommandLine.arguments.last ?? ""
    let a = now()
    switch mode {
    case "scan":
        var reader = TokenReader(bytes: data)
        var n = 0
        while let _ = try reader.next() { n += 1 }
        print(n)
    case "graph": _ = try ArchiveReader.read(data)
    case "typed": _ = try Unarchiver(bytes: data, registry: .foundation).decodeRootObject()
    case "write": _ = try ArchiveWriter.write(try ArchiveReader.read(data))
    default: break
    }
    print(mode, Double(data.count) / (now() - a) / 1e6, "MB/s")
    exit(0)
}
var strings: [AnyObject?] = []
for i in 0..<(Int(CommandLine.arguments.dropFirst().first ?? "400000") ?? 400_000) { strings.append(StringObject("string number \(i) of the benchmark")) }
let t0 = now()
let bytes = try Archiver.archivedBytes(withRootObject: ArrayObject(strings, mutable: true))
let t1 = now()
if CommandLine.arguments.contains("--save") { try Data(bytes).write(to: URL(fileURLWithPath: "/tmp/strings.ts")) }
print("encode: \(bytes.count) bytes in \(t1 - t0) s = \(Double(bytes.count) / (t1 - t0) / 1e6) MB/s")
for _ in 0..<3 {
    let a = now()
    var reader = TokenReader(bytes: bytes)
    var n = 0
    while let _ = try reader.next() { n += 1 }
    let b = now()
    print("scan: \(n) tokens \(Double(bytes.count) / (b - a) / 1e6) MB/s")
    let archive = try ArchiveReader.read(bytes)
    let c = now()
    print("graph: \(Double(bytes.count) / (c - b) / 1e6) MB/s")
    let u = Unarchiver(archive: archive, registry: .foundation)
    _ = try u.decodeRootObject()
    let d = now()
    print("typed: \(Double(bytes.count) / (d - c) / 1e6) MB/s")
    _ = try ArchiveWriter.write(archive)
    let e = now()
    print("write graph: \(Double(bytes.count) / (e - d) / 1e6) MB/s")
}
