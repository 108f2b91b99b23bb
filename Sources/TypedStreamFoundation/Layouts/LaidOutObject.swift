import TypedStream

/// An object of a class the ``ClassLayouts`` catalogue describes (AppKit and NeXTSTEP classes
/// of nibs, drawings and documents): its groups exactly as read, as a ``GenericObject`` keeps
/// them, and the name of every value.
///
/// ```swift
/// let root = try Unarchiver(bytes: nib, registry: .foundation).decodeRootObject()
/// if let item = root as? LaidOutObject {
///     item.className              // "NSMenuItem"
///     item.value(named: "title")  // the title's object value
///     item.object(named: "title") // the decoded NSString (a StringObject)
/// }
/// ```
///
/// Decoding throws `unsupportedVersion` when the groups match no layout of the class chain (a
/// version or a variant the catalogue does not know): the ``Unarchiver`` then keeps the object
/// as a ``GenericObject`` with a warning, so its bytes are never lost. Encoding writes the
/// groups back as read.
public final class LaidOutObject: ArchivableObject, HoldsObjects, CustomStringConvertible {
    /// The groups, class chain and decoded objects, exactly as read.
    public let contents = GenericObject()
    /// The names of the values of every group.
    public private(set) var layout = LayoutMatch(groups: [])

    /// The class chain as read, most derived first.
    public var archiveClassChain: [ArchiveClassLink] { contents.archiveClassChain }
    /// The object's own class name.
    public var className: String { archiveClassChain.first?.name ?? "" }

    /// Creates an empty object (filled by ``decodeContents(with:)``).
    public init() {}

    /// Reads every group, then names their values. Throws ``CoderError`` `unsupportedVersion`
    /// when the catalogue has no layout for them.
    ///
    /// Over the graph the groups are matched before any is read, as the refusal contract of
    /// ``ArchivableObject/decodeContents(with:)`` asks: no object inside is decoded (and none
    /// refers to this one) when the Unarchiver falls back to a generic object. A streaming
    /// decode reads first and matches after; its error makes the Unarchiver do the call again
    /// over the graph, which forgets what the stream decoded.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        let offset = decoder.currentObjectOffset
        let chain = decoder.currentClassChain
        var match = decoder.currentGraphObject.map { ClassLayouts.match(chain: chain, groups: $0.groups) }
        if case .some(.none) = match { throw Self.noLayout(chain, decoder.currentGraphObject?.groups ?? [], at: offset) }
        try contents.decodeContents(with: decoder)
        if match == nil { match = ClassLayouts.match(chain: chain, groups: contents.groups) }
        guard case .some(.some(let found)) = match else { throw Self.noLayout(chain, contents.groups, at: offset) }
        layout = found
    }

    private static func noLayout(_ chain: [ArchiveClassLink], _ groups: [ArchivedGroup], at offset: Int?) -> CoderError {
        let names = chain.map(\.description).joined(separator: " : ")
        let types = groups.map { "\"\($0.typeText)\"" }.joined(separator: " ")
        return CoderError(.unsupportedVersion, at: offset, "\(names): no known layout has the groups \(types)")
    }

    /// Writes the groups back as read.
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        try contents.encodeContents(with: encoder)
    }

    /// Every named value, in archive order: the field and its value. A field of a repeated
    /// group occurs once per repetition.
    public var fields: [(field: ClassLayout.Field, value: ArchivedValue)] {
        var out: [(field: ClassLayout.Field, value: ArchivedValue)] = []
        for (group, names) in zip(contents.groups, layout.groups) {
            for (index, field) in names.fields.enumerated() where index < group.valueCount {
                out.append((field, group.value(at: index)))
            }
        }
        return out
    }

    /// The value of the first field named `name`, if there is one.
    public func value(named name: String) -> ArchivedValue? {
        fields.first { $0.field.name == name }?.value
    }

    /// The decoded object of the first field named `name`, if it holds one.
    public func object(named name: String) -> AnyObject? {
        guard case .object(let entry?, _)? = value(named: name) else { return nil }
        return contents.object(for: entry)
    }

    /// Hands over the decoded objects of its groups (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        contents.moveHeldObjects(into: &pending)
    }

    deinit { releaseHeldObjects(of: self) }

    /// "NSMenuItem v671 (title, keyEquivalent, …)".
    public var description: String {
        let names = fields.map(\.field.name).joined(separator: ", ")
        return "\(archiveClassChain.first?.description ?? "?") (\(names))"
    }
}
