/// The status a subcommand ends with: `0` success, `1` bad data (or output that could not be
/// written), `64` usage error.
///
/// The three values are the whole contract of the `typedstream` program; scripts may rely on
/// them. `64` is `EX_USAGE` from BSD `<sysexits.h>`. When the reader of standard output goes
/// away (`typedstream tokens big.typedstream | head`), the program ends as other tools do,
/// killed by `SIGPIPE` (status 141 in a shell), without a message: ``brokenPipe``.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The process exit status.
    public var rawValue: Int32

    /// Creates an exit code from a process status.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: everything asked for was done and every input was well-formed.
    public static let success = ExitCode(rawValue: 0)
    /// `1`: an input was malformed, unreadable or did not round-trip.
    public static let failure = ExitCode(rawValue: 1)
    /// `64` (`EX_USAGE`): the command line was wrong; nothing was read.
    public static let usage = ExitCode(rawValue: 64)
    /// `141` (128 + `SIGPIPE`): standard output is a pipe whose reader has gone. The process
    /// does not exit with it but raises `SIGPIPE`, so a shell sees the usual status.
    public static let brokenPipe = ExitCode(rawValue: 141)

    /// "0", "1" or "64".
    public var description: String { String(rawValue) }
}

/// A failure of a subcommand's `run` that is about the data, not the command line: the program
/// prints `error: <message>` on standard error and exits with ``exitCode`` (default `1`).
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one line, without the `error:` prefix.
    public var message: String
    /// The exit code to end with.
    public var exitCode: ExitCode

    /// Creates a failure with a one-line message.
    public init(_ message: String, exitCode: ExitCode = .failure) {
        self.message = message
        self.exitCode = exitCode
    }

    /// The message.
    public var description: String { message }
}
