/// Splits a subcommand's arguments by its ``CommandConfiguration``.
///
/// Rules, in the spirit of swift-argument-parser and POSIX `getopt`:
/// * `--name value` and `--name=value` for options; `-n value` and `-nvalue` for short options;
///   short flags may be grouped (`-rq`).
/// * `-` on its own is a positional value (standard input); `--` ends options.
/// * `-h` or `--help` anywhere before `--` asks for help, whatever else is wrong.
/// * Every mistake throws a ``UsageError`` that names the argument at fault.
enum ArgumentParser {
    /// The outcome of parsing.
    enum Outcome {
        /// The user asked for help.
        case help
        /// The arguments, split.
        case parsed(ParsedArguments)
    }

    /// Parses `commandLine[start...]` for `configuration`; indices in the result and in errors
    /// refer to the whole `commandLine`. Throws ``UsageError``.
    static func parse(_ commandLine: [String], from start: Int, for configuration: CommandConfiguration) throws(UsageError) -> Outcome {
        for argument in commandLine[start...] {
            if argument == "--" { break }
            if argument == "--help" || argument == "-h" { return .help }
        }

        var result = ParsedArguments(commandLine: commandLine)
        var positionals: [ParsedArguments.Value<String>] = []
        var onlyPositionals = false
        var index = start
        while index < commandLine.count {
            let argument = commandLine[index]
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(.init(argument, index: index))
                index += 1
            } else if argument == "--" {
                onlyPositionals = true
                index += 1
            } else if argument.hasPrefix("--") {
                index = try parseLong(argument, at: index, in: commandLine, configuration, into: &result)
            } else {
                index = try parseShortGroup(argument, at: index, in: commandLine, configuration, into: &result)
            }
        }
        try assign(positionals, to: configuration, into: &result)
        return .parsed(result)
    }

    /// Parses `--name`, `--name=value` or `--name value`; returns the index of the next argument.
    private static func parseLong(_ argument: String, at index: Int, in commandLine: [String],
                                  _ configuration: CommandConfiguration, into result: inout ParsedArguments) throws(UsageError) -> Int {
        let body = argument.dropFirst(2)
        let name: Substring
        let inlineValue: Substring?
        if let equals = body.firstIndex(of: "=") {
            name = body[..<equals]
            inlineValue = body[body.index(after: equals)...]
        } else {
            name = body
            inlineValue = nil
        }
        if let option = configuration.option(long: name) {
            if let inlineValue {
                try record(option, value: String(inlineValue), valueIndex: index, optionIndex: index, into: &result)
                return index + 1
            }
            guard index + 1 < commandLine.count else {
                throw UsageError("option '--\(option.long)' needs a value <\(option.valueName)>", at: index)
            }
            try record(option, value: commandLine[index + 1], valueIndex: index + 1, optionIndex: index, into: &result)
            return index + 2
        }
        if let flag = configuration.flag(long: name) {
            guard inlineValue == nil else {
                throw UsageError("flag '--\(flag.long)' takes no value", at: index)
            }
            result.flagIndices[flag.long, default: []].append(index)
            return index + 1
        }
        let spelled = "--" + name
        throw UsageError("unknown option '\(spelled)'" + suggestion(for: spelled, among: configuration.spellings), at: index)
    }

    /// Parses `-r`, `-rq`, `-j4` or `-j 4`; returns the index of the next argument.
    private static func parseShortGroup(_ argument: String, at index: Int, in commandLine: [String],
                                        _ configuration: CommandConfiguration, into result: inout ParsedArguments) throws(UsageError) -> Int {
        let letters = argument.dropFirst()
        var position = letters.startIndex
        while position < letters.endIndex {
            let letter = letters[position]
            position = letters.index(after: position)
            if let flag = configuration.flag(short: letter) {
                result.flagIndices[flag.long, default: []].append(index)
            } else if let option = configuration.option(short: letter) {
                if position < letters.endIndex {
                    try record(option, value: String(letters[position...]), valueIndex: index, optionIndex: index, into: &result)
                    return index + 1
                }
                guard index + 1 < commandLine.count else {
                    throw UsageError("option '-\(letter)' needs a value <\(option.valueName)>", at: index)
                }
                try record(option, value: commandLine[index + 1], valueIndex: index + 1, optionIndex: index, into: &result)
                return index + 2
            } else {
                let spelled = "-" + String(letter)
                let context = letters.count > 1 ? " in '\(argument)'" : ""
                throw UsageError("unknown option '\(spelled)'\(context)" + suggestion(for: spelled, among: configuration.spellings), at: index)
            }
        }
        return index + 1
    }

    private static func record(_ option: CommandConfiguration.Option, value: String, valueIndex: Int, optionIndex: Int,
                               into result: inout ParsedArguments) throws(UsageError) {
        if !option.repeatable, result.optionValues[option.long] != nil {
            throw UsageError("option '--\(option.long)' is given more than once", at: optionIndex)
        }
        result.optionValues[option.long, default: []].append(.init(value, index: valueIndex))
    }

    /// Hands the positional values to the configured arguments in order.
    private static func assign(_ values: [ParsedArguments.Value<String>], to configuration: CommandConfiguration,
                               into result: inout ParsedArguments) throws(UsageError) {
        var next = 0
        let required = configuration.arguments.reduce(0) { $0 + $1.arity.minimum }
        var requiredLeft = required
        for argument in configuration.arguments {
            requiredLeft -= argument.arity.minimum
            let available = values.count - next - requiredLeft
            let take: Int
            switch argument.arity {
            case .one: take = available >= 1 ? 1 : 0
            case .optional: take = min(1, max(0, available))
            case .oneOrMore, .zeroOrMore: take = max(0, available)
            }
            if take < argument.arity.minimum {
                throw UsageError("missing argument <\(argument.name)>", position: .end)
            }
            result.positionals[argument.name] = Array(values[next..<next + take])
            next += take
        }
        if next < values.count {
            let extra = values[next]
            let message = configuration.arguments.isEmpty
                ? "unexpected argument '\(extra.value)': '\(configuration.name)' takes no arguments"
                : "unexpected argument '\(extra.value)'"
            throw UsageError(message, at: extra.index)
        }
    }

    /// "; did you mean '--jobs'?" when a known spelling is close to `word`, else "".
    static func suggestion(for word: String, among candidates: [String]) -> String {
        guard let best = closest(to: word, among: candidates) else { return "" }
        return "; did you mean '\(best)'?"
    }

    /// The candidate within edit distance 2 (or with `word` as a prefix), if any.
    static func closest(to word: String, among candidates: [String]) -> String? {
        guard word.count > 2 else { return nil } // "-x" is not a typo of "-h"
        var best: (String, Int)?
        for candidate in candidates where candidate.count > 2 {
            let distance = candidate.hasPrefix(word) && word.count >= 3 ? 1 : editDistance(word, candidate)
            if distance <= 2, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance between two strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
