import Foundation
import Testing
@testable import ModelDocument
import TestSupport

/// A fresh folder under the system temporary directory, removed by `cleanUp()`.
struct TemporaryFolder {
    let path: String

    /// A folder under the system temporary directory, or under `/dev/shm` (memory, where `fsync`
    /// costs nothing) when `inMemory` and it exists.
    init(_ label: String = "model", inMemory: Bool = false) {
        let shm = "/dev/shm"
        let base = inMemory && DurableIO.isDirectory(shm) && access(shm, W_OK) == 0 ? shm : FileManager.default.temporaryDirectory.path
        path = base + "/\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func sub(_ name: String) -> String { path + "/" + name }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// Every file under `root` (relative path → bytes), for "nothing changed" checks.
func treeSnapshot(_ root: String) -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return out }
    while let relative = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let full = root + "/" + relative
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            out[relative] = (try? Array(Data(contentsOf: URL(fileURLWithPath: full)))) ?? []
        }
    }
    return out
}

/// Opens the document in `directory`, runs `body` on it and saves it, as the `model` verbs do;
/// returns the document's warnings.
@discardableResult
func edit(_ directory: String, _ body: (ModelDocument) throws -> Void) throws -> [String] {
    let document = try ModelDocument.open(at: directory)
    try body(document)
    try document.save()
    return document.warnings
}

/// A record named `name` whose thumbnail is read from the file `thumbnail`, when given.
func record(_ name: String, thumbnail: String? = nil) throws -> ModelRecord {
    var record = ModelRecord(name: name)
    if let thumbnail { try record.readThumbnail(fromFile: thumbnail) }
    return record
}

func readBytes(_ path: String) throws -> [UInt8] { try DurableIO.read(path) }

func writeBytes(_ path: String, _ bytes: [UInt8]) throws { try DurableIO.writeSynced(path, bytes) }

/// The three committed files of a document folder.
struct CommittedFiles: Equatable {
    var archive: [UInt8]?
    var settings: [UInt8]?
    var history: [UInt8]?

    init(_ directory: String) {
        archive = try? DurableIO.read(directory + "/" + DocumentFiles.archive)
        settings = try? DurableIO.read(directory + "/" + DocumentFiles.settings)
        history = try? DurableIO.read(directory + "/" + DocumentFiles.history)
    }

    init(_ prepared: ModelDocument.PreparedSave) {
        let files = Dictionary(uniqueKeysWithValues: prepared.plan.files.map { ($0.name, $0.bytes) })
        archive = files[DocumentFiles.archive]
        settings = files[DocumentFiles.settings]
        history = files[DocumentFiles.history]
    }
}

/// The seed from the environment variable `name`, else a fresh one; printed either way.
func testSeed(_ name: String, _ label: String) -> UInt64 {
    TestSeed.resolve(name, label: label)
}

/// Hand assembly: ASCII bytes of `text`.
func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A literal shared string as written: `84`, length, bytes.
func newShared(_ text: String) -> [UInt8] { [0x84, UInt8(text.utf8.count)] + ascii(text) }

/// Apple's header: v4, `streamtyped`, system version 1000.
let appleHeader: [UInt8] = [0x04, 0x0B] + ascii("streamtyped") + [0x81, 0xE8, 0x03]

/// A document made by hand on disk: `archive` plus a settings file saying `version` (no checksum
/// keys, as the Objective-C app wrote it).
func writeLegacyDocument(_ directory: String, archive: [UInt8], version: Int, extraSettings: [String: SettingsValue] = [:]) throws {
    try DurableIO.makeDirectories(directory)
    try writeBytes(directory + "/" + DocumentFiles.archive, archive)
    var entries = extraSettings
    entries["version"] = .integer(version)
    try writeBytes(directory + "/" + DocumentFiles.settings, SettingsValue.xmlBytes(entries))
}
