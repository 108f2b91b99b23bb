import ObjCTypeEncoding

import TypedStream

/// An error from a Model document: a code, the file it concerns, the byte offset in that file
/// when known, and a human reason, as in
/// "/docs/a/document.typedstream: offset 0x2f (47): expected type 'i', found '@'".
///
/// `==` compares codes only.
public struct ModelDocumentError: CodedError {
    /// The kinds of failure.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The folder holds no Model document (no settings file).
        case notADocument
        /// A document already exists where a new one was to be created.
        case alreadyExists
        /// The document's version is newer than this program understands; nothing was changed.
        case newerVersion
        /// The settings file's version is not a version at all (0, negative, not a number).
        case invalidVersion
        /// The settings file is not a property list of the expected shape.
        case malformedSettings
        /// The archive does not decode as the document's version says it should.
        case malformedArchive
        /// Files disagree (checksum mismatch, unreadable commit journal): refusing to guess.
        case damaged
        /// Another program saved the document since it was opened; nothing was written.
        case conflict
        /// A file system call failed.
        case io
        /// A value the document's version has no place for (e.g. `para` in version 1).
        case notRepresentable
        /// No model has the given name or index.
        case noSuchModel
        /// A model with that name already exists (the thumbnail is found by name).
        case duplicateName
        /// The undo history file is malformed (it is then ignored, with a warning).
        case malformedHistory
        /// A keyed archive (`NSKeyedArchiver`) could not be read or written.
        case keyedArchive
    }

    /// What went wrong.
    public var code: Code
    /// The file or folder concerned, when there is one.
    public var path: String?
    /// The byte offset in that file, when known.
    public var offset: Int?
    /// A human explanation.
    public var reason: String
    /// For a failed file operation, what was being done to ``path`` ("read", "write", "remove",
    /// "create the folder"): the description is then "cannot write 'PATH': reason".
    public var action: String?

    /// Creates an error.
    public init(_ code: Code, path: String? = nil, offset: Int? = nil, _ reason: String) {
        self.code = code
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// A failed file operation (code `io`): "cannot `action` 'path': reason", as in
    /// "cannot write '/docs/a/settings.plist.new': Permission denied".
    public static func fileOperation(_ action: String, path: String, _ reason: String) -> ModelDocumentError {
        var error = ModelDocumentError(.io, path: path, reason)
        error.action = action
        return error
    }

    /// Wraps a coder error about the archive at `path`.
    public init(_ error: CoderError, path: String?, code: Code = .malformedArchive) {
        self.init(code, path: path, offset: error.offset, error.reason)
    }

    /// "path: offset 0x2f (47): reason", or "cannot write 'path': reason" for a failed file
    /// operation.
    public var description: String {
        if let action, let path { return "cannot \(action) '\(path)': \(reason)" }
        var text = ""
        if let path { text += "\(path): " }
        return text + Self.located(reason, at: offset)
    }

}
