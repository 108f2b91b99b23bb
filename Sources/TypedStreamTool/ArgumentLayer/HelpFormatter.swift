/// Prints help in the sections OVERVIEW, USAGE, ARGUMENTS, OPTIONS (and SUBCOMMANDS for the
/// program itself), wrapped to 80 columns.
enum HelpFormatter {
    /// Total width of help text.
    static let width = 80
    /// Width of the left column (names) in ARGUMENTS / OPTIONS / SUBCOMMANDS.
    static let nameColumn = 26

    /// The usage line without the `usage:` prefix:
    /// `typedstream verify [--recursive] [--jobs <n>] <FILE> ...`.
    static func usage(for configuration: CommandConfiguration, programName: String) -> String {
        var parts = [programName, configuration.name]
        for flag in configuration.flags { parts.append("[--\(flag.long)]") }
        for option in configuration.options {
            parts.append("[--\(option.long) <\(option.valueName)>]" + (option.repeatable ? " ..." : ""))
        }
        for argument in configuration.arguments {
            switch argument.arity {
            case .one: parts.append("<\(argument.name)>")
            case .optional: parts.append("[<\(argument.name)>]")
            case .oneOrMore: parts.append("<\(argument.name)> ...")
            case .zeroOrMore: parts.append("[<\(argument.name)> ...]")
            }
        }
        return parts.joined(separator: " ")
    }

    /// The full help of one subcommand.
    static func help(for configuration: CommandConfiguration, programName: String) -> String {
        var text = "OVERVIEW: " + wrap(configuration.abstract, indent: 10, firstLineUsed: 10) + "\n"
        if !configuration.discussion.isEmpty {
            text += "\n" + reflow(configuration.discussion, indent: 0) + "\n"
        }
        text += "\nUSAGE: " + wrap(usage(for: configuration, programName: programName), indent: 7, firstLineUsed: 7) + "\n"
        if !configuration.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in configuration.arguments {
                text += row("<\(argument.name)>", argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in configuration.options {
            let short = option.short.map { "-\($0), " } ?? ""
            var help = option.help
            if let defaultDescription = option.defaultDescription {
                let sentence = help.hasSuffix(".")
                if sentence { help.removeLast() }
                help += " (default: \(defaultDescription))" + (sentence ? "." : "")
            }
            text += row("\(short)--\(option.long) <\(option.valueName)>", help)
        }
        for flag in configuration.flags {
            let short = flag.short.map { "-\($0), " } ?? ""
            text += row("\(short)--\(flag.long)", flag.help)
        }
        text += row("-h, --help", "Show help information.")
        return text
    }

    /// The help of the program: overview, usage and the list of subcommands.
    static func rootHelp(programName: String, abstract: String, discussion: String, subcommands: [CommandConfiguration]) -> String {
        var text = "OVERVIEW: " + wrap(abstract, indent: 10, firstLineUsed: 10) + "\n"
        if !discussion.isEmpty { text += "\n" + reflow(discussion, indent: 0) + "\n" }
        text += "\nUSAGE: \(programName) <subcommand> [<options>] [<arguments>]\n"
        text += "\nOPTIONS:\n"
        text += row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for subcommand in subcommands {
            text += row(subcommand.name, subcommand.abstract)
        }
        text += "\n  See '\(programName) help <subcommand>' for detailed help.\n"
        return text
    }

    /// One "  name    help" row; the help wraps under itself, and a long name gets its own line.
    static func row(_ name: String, _ help: String) -> String {
        let left = "  " + name
        if left.count + 2 > nameColumn {
            return left + "\n" + String(repeating: " ", count: nameColumn) + wrap(help, indent: nameColumn, firstLineUsed: nameColumn) + "\n"
        }
        return left + String(repeating: " ", count: nameColumn - left.count) + wrap(help, indent: nameColumn, firstLineUsed: nameColumn) + "\n"
    }

    /// Re-wraps paragraphs (separated by blank lines); lines that start with two spaces are kept.
    static func reflow(_ text: String, indent: Int) -> String {
        var output: [String] = []
        var paragraph: [Substring] = []
        func flush() {
            if !paragraph.isEmpty {
                let joined = paragraph.joined(separator: " ")
                output.append(String(repeating: " ", count: indent) + wrap(joined, indent: indent, firstLineUsed: indent))
                paragraph = []
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                flush()
                output.append("")
            } else if line.hasPrefix("  ") {
                flush()
                output.append(String(repeating: " ", count: indent) + line)
            } else {
                paragraph.append(line)
            }
        }
        flush()
        while output.last?.isEmpty == true { output.removeLast() }
        return output.joined(separator: "\n")
    }

    /// Word-wraps `text`; continuation lines are indented by `indent`.
    static func wrap(_ text: String, indent: Int, firstLineUsed: Int) -> String {
        var lines: [String] = []
        var line = ""
        var used = firstLineUsed
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, used + 1 + word.count > width {
                lines.append(line)
                line = ""
                used = indent
            }
            if !line.isEmpty {
                line += " "
                used += 1
            }
            line += word
            used += word.count
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
