import ModelDocument
import TypedStreamExport

/// `typedstream model VERB …`: create, list and edit Model documents (a folder holding the
/// archive, its version settings file and the thumbnails).
struct ModelCommand: Subcommand {
    /// The verbs, their arguments and what they do (for help and validation).
    static let verbs: [(name: String, arguments: [String], help: String)] = [
        ("new", ["DIR"], "create a document with placeholder models (--empty: none)"),
        ("list", ["DIR"], "list the models"),
        ("add", ["DIR"], "add a model: --name, --type, --rect x,y,w,h, --flag, --kind, --para, --thumbnail FILE"),
        ("delete", ["DIR", "NAME"], "delete the first model called NAME"),
        ("undo", ["DIR"], "undo the last change (the history survives between runs)"),
        ("redo", ["DIR"], "redo the last undone change"),
        ("migrate", ["DIR"], "rewrite an older document in the current version (a backup is kept)"),
        ("export", ["DIR"], "write the document as a keyed archive (--to keyed, --output FILE)"),
        ("import", ["FILE", "DIR"], "make a document from a keyed archive written by 'export'"),
    ]

    static let configuration = CommandConfiguration(
        name: "model",
        abstract: "Create, list and edit Model documents (archive + version settings + thumbnails).",
        discussion: "Verbs:\n" + verbs.map { "  \($0.name) \($0.arguments.joined(separator: " "))  — \($0.help)" }.joined(separator: "\n") + """


            Saving is atomic for the archive and the settings file together: after a crash at any \
            moment both are the old ones or both the new ones, and a half-written save is \
            recovered the next time the document is opened.
            """,
        arguments: [
            .init("VERB", help: "One of: \(verbs.map(\.name).joined(separator: ", ")).", arity: .one),
            .init("ARGS", help: "The verb's arguments (DIR, NAME, FILE).", arity: .zeroOrMore),
        ],
        options: [
            .init("name", valueName: "text", help: "add: the model's name."),
            .init("type", valueName: "text", help: "add: the model's type."),
            .init("rect", valueName: "x,y,w,h", help: "add: the rectangle, four numbers."),
            .init("flag", valueName: "n", help: "add: the flag (unsigned 32-bit)."),
            .init("kind", valueName: "n", help: "add: the kind (signed 32-bit)."),
            .init("para", valueName: "n", help: "add: the para value (signed 32-bit)."),
            .init("thumbnail", valueName: "file", help: "add: an image file kept beside the archive."),
            .init("to", valueName: "format", help: "export: the format (keyed).", defaultDescription: "keyed"),
            .init("output", short: "o", valueName: "file", help: "export: where to write.", defaultDescription: "DIR/document.keyedarchive"),
        ],
        flags: [.init("empty", help: "new: start with no models.")])

    let verb: ParsedArguments.Value<String>
    let rest: [ParsedArguments.Value<String>]
    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(UsageError) {
        verb = try arguments.requiredValue("VERB")
        rest = arguments.values("ARGS")
        self.arguments = arguments
    }

    func validate() throws(UsageError) {
        guard let spec = Self.verbs.first(where: { $0.name == verb.value }) else {
            throw UsageError("unknown verb '\(verb.value)': expected one of \(Self.verbs.map(\.name).joined(separator: ", "))", at: verb.index)
        }
        if rest.count < spec.arguments.count {
            throw UsageError("'model \(spec.name)' needs \(spec.arguments.map { "<\($0)>" }.joined(separator: " "))", position: .end)
        }
        if rest.count > spec.arguments.count {
            throw UsageError("unexpected argument '\(rest[spec.arguments.count].value)' for 'model \(spec.name)'", at: rest[spec.arguments.count].index)
        }
        let addOnly = ["name", "type", "rect", "flag", "kind", "para", "thumbnail"]
        for option in addOnly where spec.name != "add" {
            if let value = arguments.option(option) {
                throw UsageError("'--\(option)' applies only to 'model add'", at: value.index)
            }
        }
        for option in ["to", "output"] where spec.name != "export" {
            if let value = arguments.option(option) {
                throw UsageError("'--\(option)' applies only to 'model export'", at: value.index)
            }
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let values = rest.map(\.value)
        let verbs = ModelVerbs(context: context)
        switch verb.value {
        case "new": return verbs.new(directory: values[0], empty: arguments.flag("empty"))
        case "list": return verbs.list(directory: values[0])
        case "add":
            let options: ModelAddOptions
            do {
                options = try ModelAddOptions(name: arguments.option("name")?.value, type: arguments.option("type")?.value,
                                              rect: arguments.option("rect")?.value, flag: arguments.option("flag")?.value,
                                              kind: arguments.option("kind")?.value, para: arguments.option("para")?.value,
                                              thumbnail: arguments.option("thumbnail")?.value)
            } catch {
                return verbs.failed(error.description, status: .usage)
            }
            return verbs.add(directory: values[0], options)
        case "delete": return verbs.delete(directory: values[0], name: values[1])
        case "undo": return verbs.undo(directory: values[0])
        case "redo": return verbs.redo(directory: values[0])
        case "migrate": return verbs.migrate(directory: values[0])
        case "export":
            let output = arguments.option("output")?.value
            if let output {
                // Writing over one of the document's own files would wreck the document.
                for name in DocumentFiles.committed {
                    try FileIdentity.refuseWriting(output, over: AtomicFile.folder(of: values[0] + "/") + "/" + name, context: context)
                }
            }
            return verbs.export(directory: values[0], to: arguments.option("to")?.value ?? "keyed", output: output)
        case "import":
            return verbs.importKeyed(try context.readFile(values[0]), file: values[0], directory: values[1])
        default: return .usage
        }
    }
}
