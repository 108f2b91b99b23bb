import TypedStreamFoundation

/// Reads and writes `history.plist`, the undo/redo history kept between runs.
///
/// ```text
/// <dict>
///   format          "ModelDocument history"
///   formatVersion   2                      (1: thumbnails inside, still read)
///   documentVersion 2                      layout of the record archives below
///   archiveSHA256   "…"                    the document archive this history belongs to
///   undo            [edit …]               oldest first; the last is undone next
///   redo            [edit …]               oldest first; the last is redone next
/// </dict>
/// edit:   { label, index, before: [record …], after: [record …] }
/// record: { archive: <data>  the Model archived alone (typedstream, root object)
///           thumbnailSHA256: "…", thumbnailLength: N   (optional) the thumbnail, stored once
///                             as history-thumbnails/SHA256 however many records share it
///           nameLink / typeLink: "INDEX.name" | "INDEX.type" (optional) }
/// ```
///
/// The file holds no image bytes, so its size and the cost of writing it do not depend on the
/// thumbnails (format 1 kept them inline as `thumbnail: <data>`; such files are still read).
///
/// A record archived alone would lose the string objects it shared with other records (the
/// Objective-C app shares constant strings like `@"photo"`). So each record notes, per string,
/// one model that held the same string object in the document state where the record is put back
/// (`nameLink`); on load the link is re-established, and undo across runs writes the same bytes.
enum HistoryFile {
    static let format = "ModelDocument history"
    static let formatVersion = 2
    /// The oldest format still read.
    static let oldestFormatVersion = 1

    /// The history as property-list bytes, for `models` (the current document) in `version`.
    static func encode(_ history: EditHistory, models: [Model], version: DocumentVersion, archiveSHA256: String) throws(ModelDocumentError) -> [UInt8] {
        var undo: [SettingsValue] = []
        var state = models
        for edit in history.undoStack.reversed() {
            let afterState = state
            guard edit.revert(&state) else { throw ModelDocumentError(.malformedHistory, "an undo entry does not fit the document") }
            undo.append(try encode(edit, beforeState: state, afterState: afterState, version: version))
        }
        var redo: [SettingsValue] = []
        state = models
        for edit in history.redoStack.reversed() {
            let beforeState = state
            guard edit.apply(to: &state) else { throw ModelDocumentError(.malformedHistory, "a redo entry does not fit the document") }
            redo.append(try encode(edit, beforeState: beforeState, afterState: state, version: version))
        }
        return try SettingsValue.xmlBytes([
            "format": .string(format),
            "formatVersion": .integer(formatVersion),
            "documentVersion": .integer(version.rawValue),
            "archiveSHA256": .string(archiveSHA256),
            "undo": .array(undo.reversed()),
            "redo": .array(redo.reversed()),
        ])
    }

    private static func encode(_ edit: Edit, beforeState: [Model], afterState: [Model], version: DocumentVersion) throws(ModelDocumentError) -> SettingsValue {
        var before: [SettingsValue] = []
        for (offset, model) in edit.before.enumerated() {
            before.append(try encode(model, at: edit.index + offset, in: beforeState, version: version))
        }
        var after: [SettingsValue] = []
        for (offset, model) in edit.after.enumerated() {
            after.append(try encode(model, at: edit.index + offset, in: afterState, version: version))
        }
        return .dictionary(["label": .string(edit.label), "index": .integer(edit.index),
                            "before": .array(before), "after": .array(after)])
    }

    private static func encode(_ model: Model, at position: Int, in state: [Model], version: DocumentVersion) throws(ModelDocumentError) -> SettingsValue {
        let bytes: [UInt8]
        do { bytes = try ModelArchive.encodeRecord(model, version: version) } catch {
            throw ModelDocumentError(error, path: DocumentFiles.history, code: .notRepresentable)
        }
        var entry: [String: SettingsValue] = ["archive": .data(bytes)]
        if let source = model.thumbnailSource {
            guard let digest = source.sha256 else {
                throw ModelDocumentError(.notRepresentable, path: DocumentFiles.history, "the thumbnail of an undo entry has no digest yet")
            }
            entry["thumbnailSHA256"] = .string(digest)
            entry["thumbnailLength"] = .integer(source.length)
        }
        if let link = link(for: model.nameObject, excluding: position, in: state) { entry["nameLink"] = .string(link) }
        if let link = link(for: model.typeObject, excluding: position, in: state) { entry["typeLink"] = .string(link) }
        return .dictionary(entry)
    }

    /// "3.name": the first other model in `state` holding `object`.
    private static func link(for object: AnyObject?, excluding position: Int, in state: [Model]) -> String? {
        guard let object else { return nil }
        for (index, other) in state.enumerated() where index != position {
            if other.nameObject === object { return "\(index).name" }
            if other.typeObject === object { return "\(index).type" }
        }
        return nil
    }

    /// Parses a history file for the document whose archive has `archiveSHA256` and whose current
    /// models are `models`; thumbnails are found (not read) in the folder `store`. Throws
    /// ``ModelDocumentError`` `malformedHistory` when the file is malformed, belongs to another
    /// archive, or names a thumbnail missing from `store` (the caller then starts with an empty
    /// history).
    static func decode(_ bytes: [UInt8], models: [Model], version: DocumentVersion, archiveSHA256: String, store: String) throws(ModelDocumentError) -> EditHistory {
        let root = try SettingsValue.parseDictionary(bytes, path: DocumentFiles.history, code: .malformedHistory)
        func bad(_ reason: String) -> ModelDocumentError { ModelDocumentError(.malformedHistory, path: DocumentFiles.history, reason) }
        guard root["format"]?.stringValue == format, let fileFormat = root["formatVersion"]?.integerValue,
              (oldestFormatVersion...formatVersion).contains(fileFormat) else {
            throw bad("not an undo history of format \(oldestFormatVersion)…\(formatVersion)")
        }
        guard root["archiveSHA256"]?.stringValue == archiveSHA256 else { throw bad("belongs to another version of the archive") }
        guard let recordVersion = root["documentVersion"]?.integerValue.flatMap(DocumentVersion.init(rawValue:)) else {
            throw bad("unknown documentVersion")
        }
        guard recordVersion <= version else { throw bad("records are newer than the document") }
        var history = EditHistory()
        var state = models
        for value in (root["undo"]?.arrayValue ?? []).reversed() {
            let afterState = state
            var edit = try decode(value, recordVersion, store: store)
            guard edit.revert(&state) else { throw bad("an undo entry does not fit the document") }
            relink(&edit.before, at: edit.index, in: state, value, "before")
            relink(&edit.after, at: edit.index, in: afterState, value, "after")
            history.undoStack.insert(edit, at: 0)
        }
        state = models
        for value in (root["redo"]?.arrayValue ?? []).reversed() {
            let beforeState = state
            var edit = try decode(value, recordVersion, store: store)
            guard edit.apply(to: &state) else { throw bad("a redo entry does not fit the document") }
            relink(&edit.before, at: edit.index, in: beforeState, value, "before")
            relink(&edit.after, at: edit.index, in: state, value, "after")
            history.redoStack.insert(edit, at: 0)
        }
        for edit in history.undoStack + history.redoStack {
            for model in edit.before + edit.after { model.layout = version }
        }
        return history
    }

    private static func decode(_ value: SettingsValue, _ version: DocumentVersion, store: String) throws(ModelDocumentError) -> Edit {
        guard let entry = value.dictionaryValue, let label = entry["label"]?.stringValue,
              let index = entry["index"]?.integerValue,
              let before = entry["before"]?.arrayValue, let after = entry["after"]?.arrayValue else {
            throw ModelDocumentError(.malformedHistory, path: DocumentFiles.history, "an edit lacks label, index, before or after")
        }
        return Edit(label: label, index: index, before: try decodeRecords(before, version, store: store),
                    after: try decodeRecords(after, version, store: store))
    }

    private static func decodeRecords(_ values: [SettingsValue], _ version: DocumentVersion, store: String) throws(ModelDocumentError) -> [Model] {
        var models: [Model] = []
        for value in values {
            guard let entry = value.dictionaryValue, let bytes = entry["archive"]?.dataValue else {
                throw ModelDocumentError(.malformedHistory, path: DocumentFiles.history, "a record has no archive")
            }
            let model: Model
            do { model = try ModelArchive.decodeRecord(bytes, version: version) } catch {
                throw ModelDocumentError(.malformedHistory, path: DocumentFiles.history, offset: error.offset, "a record does not decode: \(error.reason)")
            }
            model.thumbnailSource = try thumbnail(of: entry, store: store)
            models.append(model)
        }
        return models
    }

    /// The thumbnail a record names: a file of `store` (checked to exist with the recorded
    /// length, not read), or format 1's inline bytes.
    private static func thumbnail(of entry: [String: SettingsValue], store: String) throws(ModelDocumentError) -> ThumbnailSource? {
        if let bytes = entry["thumbnail"]?.dataValue { return ThumbnailSource(bytes: bytes) }
        guard let value = entry["thumbnailSHA256"] else { return nil }
        guard let digest = value.stringValue, SHA256.isHexDigest(digest),
              let length = entry["thumbnailLength"]?.integerValue, length >= 0 else {
            throw ModelDocumentError(.malformedHistory, path: DocumentFiles.history, "a record's thumbnail is not a SHA-256 and a length")
        }
        let path = DurableIO.join(store, digest)
        guard DurableIO.fileSize(path) == length else {
            throw ModelDocumentError(.malformedHistory, path: DocumentFiles.history,
                                     "the thumbnail \(DocumentFiles.historyThumbnails)/\(digest) of an undo entry is missing or has not \(length) bytes")
        }
        return ThumbnailSource(file: path, length: length, sha256: digest)
    }

    /// Re-establishes the string sharing noted in `nameLink`/`typeLink` of `value`'s `key` records.
    private static func relink(_ records: inout [Model], at index: Int, in state: [Model], _ value: SettingsValue, _ key: String) {
        guard let entries = value.dictionaryValue?[key]?.arrayValue else { return }
        for (offset, entry) in entries.enumerated() where offset < records.count {
            let model = records[offset]
            let position = index + offset
            if let target = resolve(entry.dictionaryValue?["nameLink"]?.stringValue, in: state, excluding: position),
               target.bytes == model.nameObject?.bytes {
                model.nameObject = target
            }
            if let target = resolve(entry.dictionaryValue?["typeLink"]?.stringValue, in: state, excluding: position),
               target.bytes == model.typeObject?.bytes {
                model.typeObject = target
            }
        }
    }

    private static func resolve(_ link: String?, in state: [Model], excluding position: Int) -> StringObject? {
        guard let link else { return nil }
        let parts = link.split(separator: ".")
        guard parts.count == 2, let index = Int(parts[0]), index >= 0, index < state.count, index != position else { return nil }
        switch parts[1] {
        case "name": return state[index].nameObject
        case "type": return state[index].typeObject
        default: return nil
        }
    }
}
