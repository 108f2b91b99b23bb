#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each file of a `convert` batch goes: decided for the whole batch before anything is
/// written, so that no two inputs share an output and no output is one of the inputs.
///
/// Names, in order (documented in `convert`'s help and the README):
/// 1. `DIR/relative` — the path under the folder argument the file was found in, or the file
///    name of a FILE argument (`stdin` for `-`) — with its last extension replaced by the
///    format's: `x.typedstream` → `x.json` (`--to typedstream` keeps the name).
/// 2. Inputs that would share a name because only their extensions differ (`x.nib` beside
///    `x.typedstream`) keep their whole name and add the format's: `x.nib.json`,
///    `x.typedstream.json`.
/// 3. Inputs that would still share a name (the same relative path under different FILE
///    arguments: `a/x.typedstream`, `b/x.typedstream`) go under the folder they were named in,
///    less the leading folders those share and `.`/`..`: `DIR/a/x.json`, `DIR/b/x.json` (also
///    for `/data/a/x.typedstream` and `/data/b/x.typedstream`).
/// 4. Anything that still collides — the same file named twice — is a usage error listing the
///    inputs. So is a destination that is one of the inputs.
///
/// Files found in a folder are planned only when their first bytes are a typedstream's (the
/// others are skipped), so a `notes.json` beside `notes.typedstream` does not rename it.
struct OutputPlan {
    /// The destination of each item, in item order; `nil` for an item that is not converted
    /// (skipped by the walk, or found in a folder and not a typedstream).
    let destinations: [String?]

    /// A batch whose outputs cannot all be kept apart: one line per output, with its inputs.
    struct Collision: Error {
        /// `'out/x.json' ← 'a/x.typedstream', 'a/x.typedstream'`, one per shared output.
        var lines: [String]
    }

    /// Plans `items` into `folder` for `format`. Throws ``Collision`` when two inputs would
    /// still share an output after the rules above, or an output is an input.
    static func make(_ items: [BatchItem], folder: String, format: ConversionFormat) throws(Collision) -> OutputPlan {
        let candidates: [Candidate] = items.indices.compactMap { index in
            let item = items[index]
            guard item.skipReason == nil else { return nil }
            if item.discovered, !startsLikeTypedStream(item.path) { return nil }
            return Candidate(index: index, item: item)
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var keepExtension = [Bool](repeating: false, count: candidates.count)
        var mirror = [String](repeating: "", count: candidates.count)
        func destination(_ position: Int) -> String {
            base + mirror[position] + outputName(candidates[position].relative, format: format, keepExtension: keepExtension[position])
        }
        // Rule 2, then rule 3, each applied to the groups that still collide.
        for rule in 0..<2 {
            for group in collisions(candidates.indices.map(destination)) {
                if rule == 0 {
                    let differ = Set(group.map { candidates[$0].relative }).count > 1
                    for position in group { keepExtension[position] = differ }
                } else {
                    let folders = group.map { candidates[$0].givenFolder }
                    var shared = 0
                    while folders.allSatisfy({ $0.count > shared && $0[shared] == folders[0][shared] }) { shared += 1 }
                    for (position, folder) in zip(group, folders) {
                        mirror[position] = folder.dropFirst(shared).map { $0 + "/" }.joined()
                    }
                }
            }
        }
        let planned = candidates.indices.map(destination)
        var lines = collisions(planned).map { group in
            "'\(planned[group[0]])' ← " + group.map { "'\(CommandContext.displayName(candidates[$0].item.path))'" }.joined(separator: ", ")
        }
        lines += overwrittenInputs(planned, items: items)
        if !lines.isEmpty { throw Collision(lines: lines) }
        var destinations = [String?](repeating: nil, count: items.count)
        for (position, candidate) in candidates.enumerated() { destinations[candidate.index] = planned[position] }
        return OutputPlan(destinations: destinations)
    }

    /// One item to be named.
    private struct Candidate {
        let index: Int
        let item: BatchItem
        /// The path under its folder argument, or its file name.
        let relative: String
        /// The folder it was named in, as components without `.`, `..` or empty ones.
        let givenFolder: [Substring]

        init(index: Int, item: BatchItem) {
            self.index = index
            self.item = item
            if item.path == "-" {
                relative = "stdin"
                givenFolder = []
            } else if let root = item.root {
                let prefix = root.hasSuffix("/") ? root : root + "/"
                relative = item.path.hasPrefix(prefix) ? String(item.path.dropFirst(prefix.count)) : Self.fileName(item.path)
                givenFolder = Self.cleaned(root)
            } else {
                relative = Self.fileName(item.path)
                givenFolder = Self.cleaned(String(item.path.dropLast(relative.count)))
            }
        }

        private static func fileName(_ path: String) -> String {
            path.split(separator: "/").last.map(String.init) ?? path
        }

        /// `path`'s components without `.`, `..` or empty ones.
        private static func cleaned(_ path: String) -> [Substring] {
            path.split(separator: "/").filter { $0 != "." && $0 != ".." }
        }
    }

    /// `relative` with the format's extension: in place of the last one, or after the whole
    /// name when `keepExtension`. `--to typedstream` keeps the name as it is.
    static func outputName(_ relative: String, format: ConversionFormat, keepExtension: Bool = false) -> String {
        guard format != .typedstream else { return relative }
        var name = Substring(relative)
        if !keepExtension, let dot = name.lastIndex(of: "."), !name[dot...].contains("/"),
           dot != name.startIndex, name[name.index(before: dot)] != "/" {
            name = name[..<dot]
        }
        return name + "." + format.fileExtension
    }

    /// The groups of positions (two or more) whose paths are the same. File systems that
    /// ignore case (macOS by default) make `X.json` and `x.json` one file, so there they are
    /// compared without case.
    private static func collisions(_ paths: [String]) -> [[Int]] {
        var groups: [String: [Int]] = [:]
        for (position, path) in paths.enumerated() {
            #if canImport(Darwin)
            groups[path.lowercased(), default: []].append(position)
            #else
            groups[path, default: []].append(position)
            #endif
        }
        return groups.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
    }

    /// A line for each planned destination that already exists and is one of the inputs.
    private static func overwrittenInputs(_ planned: [String], items: [BatchItem]) -> [String] {
        let existing = planned.compactMap { path in FileWalker.FileIdentity(path: path).map { (path, $0) } }
        guard !existing.isEmpty else { return [] }
        var inputs: [FileWalker.FileIdentity: String] = [:]
        for item in items where item.skipReason == nil {
            if let identity = FileWalker.FileIdentity(path: item.path) { inputs[identity] = item.path }
        }
        return existing.compactMap { path, identity in
            inputs[identity].map { "'\(path)' is the input '\($0)' (use --in-place to replace inputs)" }
        }
    }

    /// Whether the file at `path` starts with a typedstream signature (the first 16 bytes read).
    private static func startsLikeTypedStream(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return true }  // let the conversion report why it cannot be read
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 16)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return FormatDetector.isTypedStream(Array(head.prefix(max(0, count))))
    }
}
