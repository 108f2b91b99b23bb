#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path or descriptor leads to: its device and inode numbers (`st_dev`,
/// `st_ino`), after symbolic links are followed. Two paths with the same identity are the same
/// file, however they are spelled (`a.ts`, `./a.ts`, an absolute path, a symbolic or hard link).
struct FileIdentity: Hashable, Sendable {
    /// `st_dev`.
    var device: UInt64
    /// `st_ino`.
    var inode: UInt64

    /// The identity of the file `path` leads to (`stat`, following links), or `nil` when there
    /// is none (a missing file).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the regular file open on `descriptor`, or `nil` when it is something
    /// else (a pipe, a terminal) or closed.
    init?(regularFileOn descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// Refuses to write `output` when it is the input `input` (`-`: standard input) — by
    /// identity, so `./a.ts`, a link or an absolute path to the input are caught as well as the
    /// same spelling. Called before anything is read or written. Throws a ``CommandFailure``
    /// with exit status 64 naming both paths; `hint` ends the message.
    static func refuseWriting(_ output: String, over input: String, context: CommandContext, hint: String = "") throws(CommandFailure) {
        guard output != "-", let written = FileIdentity(path: output) else { return }
        let read = input == "-" ? context.standardInputIdentity : FileIdentity(path: input)
        guard written == read else { return }
        throw CommandFailure("refusing to write '\(output)': it is the input '\(CommandContext.displayName(input))'\(hint)", exitCode: .usage)
    }
}
