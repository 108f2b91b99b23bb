/// The static description of one subcommand: its name, help texts, positional arguments,
/// options (which take a value) and flags (which do not).
///
/// The argument parser, the help printer and the usage-error printer all work from this one
/// value, so a subcommand never parses `CommandLine.arguments` itself.
///
/// ```swift
/// static let configuration = CommandConfiguration(
///     name: "verify",
///     abstract: "Check that archives re-encode to the same bytes.",
///     arguments: [.init("FILE", help: "A file or folder; '-' reads standard input.", arity: .oneOrMore)],
///     options: [.init("jobs", short: "j", valueName: "n", help: "Files checked at once.")],
///     flags: [.init("recursive", short: "r", help: "Walk folders.")])
/// ```
public struct CommandConfiguration: Sendable {
    /// How many values a positional argument takes.
    public enum Arity: Sendable, Hashable {
        /// Exactly one value.
        case one
        /// Zero or one value.
        case optional
        /// One or more values (only the last argument may repeat).
        case oneOrMore
        /// Zero or more values (only the last argument may repeat).
        case zeroOrMore

        /// The fewest values this arity accepts.
        var minimum: Int {
            switch self {
            case .one, .oneOrMore: 1
            case .optional, .zeroOrMore: 0
            }
        }

        /// Whether more than one value is accepted.
        var repeats: Bool { self == .oneOrMore || self == .zeroOrMore }
    }

    /// A positional argument such as `FILE`.
    public struct Argument: Sendable {
        /// The name shown in help, in capitals (`FILE`); also the key for ``ParsedArguments``.
        public var name: String
        /// One sentence for the ARGUMENTS section.
        public var help: String
        /// How many values it takes.
        public var arity: Arity

        /// Creates a positional argument.
        public init(_ name: String, help: String, arity: Arity = .one) {
            self.name = name
            self.help = help
            self.arity = arity
        }
    }

    /// An option that takes a value: `--jobs 4`, `--jobs=4`, `-j 4` or `-j4`.
    public struct Option: Sendable {
        /// The long name without dashes (`jobs`); also the key for ``ParsedArguments``.
        public var long: String
        /// The one-letter name, if any (`j`).
        public var short: Character?
        /// The placeholder for the value in help (`n` → `<n>`).
        public var valueName: String
        /// One sentence for the OPTIONS section.
        public var help: String
        /// What happens when the option is absent, shown as "(default: …)".
        public var defaultDescription: String?
        /// Whether the option may be given more than once (all values are kept).
        public var repeatable: Bool

        /// Creates an option.
        public init(_ long: String, short: Character? = nil, valueName: String, help: String,
                    defaultDescription: String? = nil, repeatable: Bool = false) {
            self.long = long
            self.short = short
            self.valueName = valueName
            self.help = help
            self.defaultDescription = defaultDescription
            self.repeatable = repeatable
        }
    }

    /// A flag that takes no value: `--recursive` or `-r` (short flags may be grouped: `-rq`).
    public struct Flag: Sendable {
        /// The long name without dashes (`recursive`); also the key for ``ParsedArguments``.
        public var long: String
        /// The one-letter name, if any (`r`).
        public var short: Character?
        /// One sentence for the OPTIONS section.
        public var help: String

        /// Creates a flag.
        public init(_ long: String, short: Character? = nil, help: String) {
            self.long = long
            self.short = short
            self.help = help
        }
    }

    /// The word that selects the subcommand (`verify`).
    public var name: String
    /// One sentence shown after OVERVIEW and in the list of subcommands.
    public var abstract: String
    /// Longer help shown below the overview; may be empty. Paragraphs are separated by blank
    /// lines and re-wrapped; lines starting with two spaces are kept as they are.
    public var discussion: String
    /// The positional arguments, in order.
    public var arguments: [Argument]
    /// The options that take a value.
    public var options: [Option]
    /// The flags.
    public var flags: [Flag]

    /// Creates a configuration.
    public init(name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
                options: [Option] = [], flags: [Flag] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.flags = flags
    }

    /// The option with this long name.
    func option(long: Substring) -> Option? { options.first { $0.long == long } }
    /// The option with this short name.
    func option(short: Character) -> Option? { options.first { $0.short == short } }
    /// The flag with this long name.
    func flag(long: Substring) -> Flag? { flags.first { $0.long == long } }
    /// The flag with this short name.
    func flag(short: Character) -> Flag? { flags.first { $0.short == short } }

    /// Every spelling the parser accepts (`--jobs`, `-j`, `--help` …), for suggestions.
    var spellings: [String] {
        var names = ["--help", "-h"]
        for option in options {
            names.append("--" + option.long)
            if let short = option.short { names.append("-" + String(short)) }
        }
        for flag in flags {
            names.append("--" + flag.long)
            if let short = flag.short { names.append("-" + String(short)) }
        }
        return names
    }

    /// Mistakes in the configuration itself: duplicate names, a repeating argument that is not
    /// last, the reserved `-h`/`--help`. Empty when the configuration is sound. Tests call this
    /// for every registered subcommand.
    public var problems: [String] {
        var problems: [String] = []
        var longs: Set<String> = ["help"]
        var shorts: Set<Character> = ["h"]
        for long in options.map(\.long) + flags.map(\.long) where !longs.insert(long).inserted {
            problems.append("'--\(long)' is defined twice or clashes with --help")
        }
        for short in options.compactMap(\.short) + flags.compactMap(\.short) where !shorts.insert(short).inserted {
            problems.append("'-\(short)' is defined twice or clashes with -h")
        }
        for (position, argument) in arguments.enumerated() where argument.arity.repeats && position != arguments.count - 1 {
            problems.append("argument \(argument.name) repeats but is not last")
        }
        var seenOptional = false
        for argument in arguments {
            if argument.arity.minimum == 0 { seenOptional = true }
            else if seenOptional { problems.append("required argument \(argument.name) follows an optional one") }
        }
        if name.isEmpty || name.hasPrefix("-") || name.contains(" ") {
            problems.append("subcommand name '\(name)' is not a plain word")
        }
        return problems
    }
}
