/// A mistake on the command line. The program prints it with the command line echoed and a
/// caret under the offending argument, then exits `64`:
///
/// ```
/// error: unknown option '--frob' (argument 3); did you mean '--jobs'?
///   typedstream verify a.typedstream --frob
///                                    ^^^^^^
/// usage: typedstream verify [--recursive] [--jobs <n>] <FILE> ...
/// See 'typedstream help verify' for more.
/// ```
///
/// Subcommands create these in `init(_:)`, `validate()` or `run(_:)` with the index of the
/// argument at fault (from ``ParsedArguments/Value/index``); the dispatcher adds the command line.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// Where on the command line the mistake is.
    public enum Position: Sendable, Hashable {
        /// The argument with this index in the argument list (program name excluded, so the
        /// first argument after `typedstream` has index 0 and is called "argument 1").
        case argument(Int)
        /// After the last argument: something is missing.
        case end
        /// Nowhere in particular.
        case none
    }

    /// What is wrong, in one line, without the `error:` prefix.
    public var message: String
    /// Where it is.
    public var position: Position
    /// The full argument list (program name excluded); filled in by the dispatcher.
    public var commandLine: [String] = []
    /// The usage line to show below the caret; filled in by the dispatcher.
    public var usage: String?
    /// The `help` hint to end with; filled in by the dispatcher.
    public var helpHint: String?

    /// Creates a usage error pointing at the argument with index `index`.
    public init(_ message: String, at index: Int) {
        self.message = message
        self.position = .argument(index)
    }

    /// Creates a usage error at a position.
    public init(_ message: String, position: Position) {
        self.message = message
        self.position = position
    }

    /// The one-line message with where it is: "unknown option '--frob' (argument 3)".
    public var description: String {
        switch position {
        case .argument(let index): return "\(message) (argument \(index + 1))"
        case .end: return "\(message) (at the end of the command line)"
        case .none: return message
        }
    }

    /// The whole text for standard error: message, echoed command line with caret, usage, hint.
    public func rendered(programName: String) -> String {
        var text = "error: \(description)\n"
        if position != .none {
            let (line, caret) = Self.echo(programName: programName, arguments: commandLine, position: position)
            text += "  \(line)\n  \(caret)\n"
        }
        if let usage { text += "usage: \(usage)\n" }
        if let helpHint { text += helpHint + "\n" }
        return text
    }

    /// The command line as a shell would show it and a line with carets under `position`.
    static func echo(programName: String, arguments: [String], position: Position) -> (String, String) {
        var line = programName
        var caret = ""
        var column = line.count
        for (index, argument) in arguments.enumerated() {
            let shown = shellQuoted(argument)
            line += " " + shown
            column += 1
            if case .argument(index) = position {
                caret = String(repeating: " ", count: column) + String(repeating: "^", count: max(1, shown.count))
            }
            column += shown.count
        }
        if position == .end || caret.isEmpty {
            caret = String(repeating: " ", count: column + 1) + "^"
        }
        return (line, caret)
    }

    /// `argument` quoted for a POSIX shell when it needs it.
    static func shellQuoted(_ argument: String) -> String {
        if argument.isEmpty { return "''" }
        let plain = argument.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_./=:,+@%^".unicodeScalars.contains(scalar)
        }
        if plain { return argument }
        return "'" + argument.replacingAll("'", with: "'\\''") + "'"
    }
}

extension String {
    /// Every occurrence of `target` replaced (standard library only).
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
