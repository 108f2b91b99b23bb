/// The command line of one subcommand, split by its ``CommandConfiguration``: positional
/// values, option values and flags, each remembering which argument it came from so that
/// `validate()` can point at it.
///
/// ```swift
/// init(_ arguments: ParsedArguments) throws(UsageError) {
///     files = arguments.values("FILE")
///     recursive = arguments.flag("recursive")
///     jobs = try arguments.option("jobs", as: Int.self)
/// }
/// ```
public struct ParsedArguments: Sendable {
    /// A value from the command line and the index of the argument it came from.
    public struct Value<Wrapped: Sendable>: Sendable {
        /// The value.
        public var value: Wrapped
        /// The index of its argument in the argument list (program name excluded), for
        /// ``UsageError/init(_:at:)``.
        public var index: Int

        /// Creates a located value.
        public init(_ value: Wrapped, index: Int) {
            self.value = value
            self.index = index
        }
    }

    /// The whole argument list (program name excluded).
    public let commandLine: [String]
    var positionals: [String: [Value<String>]] = [:]
    var optionValues: [String: [Value<String>]] = [:]
    var flagIndices: [String: [Int]] = [:]

    /// Creates an empty result over a command line.
    init(commandLine: [String]) {
        self.commandLine = commandLine
    }

    /// The values given for the positional argument `name` (e.g. `FILE`), in order.
    public func values(_ name: String) -> [Value<String>] { positionals[name] ?? [] }

    /// The single value of the positional argument `name`, if given.
    public func value(_ name: String) -> Value<String>? { positionals[name]?.first }

    /// The single value of the positional argument `name`; throws the parser's own
    /// "missing argument <NAME>" usage error when it was not given.
    public func requiredValue(_ name: String) throws(UsageError) -> Value<String> {
        guard let value = value(name) else { throw UsageError("missing argument <\(name)>", position: .end) }
        return value
    }

    /// Whether the flag `--long` was given.
    public func flag(_ long: String) -> Bool { !(flagIndices[long] ?? []).isEmpty }

    /// The value of the option `--long` (the last one if repeatable), if given.
    public func option(_ long: String) -> Value<String>? { optionValues[long]?.last }

    /// Every value given for the repeatable option `--long`, in order.
    public func options(_ long: String) -> [Value<String>] { optionValues[long] ?? [] }

    /// The value of `--long` converted to `T`. Throws ``UsageError`` pointing at the value when
    /// it does not convert ("invalid value 'x' for '--jobs': expected an integer").
    public func option<T: ArgumentValue>(_ long: String, as type: T.Type) throws(UsageError) -> Value<T>? {
        guard let raw = option(long) else { return nil }
        guard let converted = T(argument: raw.value) else {
            throw UsageError("invalid value '\(raw.value)' for '--\(long)': expected \(T.expectation)", at: raw.index)
        }
        return Value(converted, index: raw.index)
    }
}

/// A type that an option value can be converted to.
public protocol ArgumentValue: Sendable {
    /// Converts the text of an argument, or returns `nil` when it is not a valid value.
    init?(argument: String)
    /// What a valid value looks like, for error messages ("an integer").
    static var expectation: String { get }
}

extension Int: ArgumentValue {
    /// Parses a decimal integer, or hexadecimal with a `0x` prefix.
    public init?(argument: String) {
        if argument.hasPrefix("0x") || argument.hasPrefix("0X") {
            self.init(argument.dropFirst(2), radix: 16)
        } else {
            self.init(argument, radix: 10)
        }
    }

    /// "an integer".
    public static var expectation: String { "an integer" }
}

extension String: ArgumentValue {
    /// Any text is a valid string.
    public init?(argument: String) { self = argument }

    /// "a string".
    public static var expectation: String { "a string" }
}

extension Double: ArgumentValue {
    /// Parses a decimal number.
    public init?(argument: String) { self.init(argument) }

    /// "a number".
    public static var expectation: String { "a number" }
}
