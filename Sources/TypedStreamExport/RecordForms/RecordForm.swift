import TypedStream

/// The forms outside the typedstream of one archived class that this module has no codec for:
/// its keyed form (export, and import back to typedstream objects) and its plain-JSON form.
/// The module that owns the class writes the form and registers it in ``RecordForms``; the
/// keyed exporter, the keyed importer and the plain-JSON writer consult the registry they are
/// given, so this module never names the class or its fields.
///
/// A form works on what the lower layers see of the class: the groups of a ``GenericObject``
/// (keyed export), the keys of a keyed-archive object (import), a ``PlainJSONObject`` (plain
/// JSON). Every requirement has a default that declines, so a form implements only what it has.
///
/// ```swift
/// struct SpriteForm: RecordForm {
///     var className: String { "Sprite" }
///     func encodeKeyed(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> Bool {
///         guard object.groups.count == 1, case .integer(let frame, _) = object.groups[0].value(at: 0) else { return false }
///         encoder.encode(.integer(frame), forKey: "frame")
///         return true
///     }
/// }
/// var forms = RecordForms()
/// forms.register(SpriteForm())
/// var options = KeyedArchiveExporter.Options()
/// options.recordForms = forms
/// ```
public protocol RecordForm: Sendable {
    /// The archived class name (the first of an object's class chain) this form is for.
    var className: String { get }

    /// Writes the keyed form of `object`, a generic object of class ``className``, through
    /// `encoder` (``KeyedArchiveEncoder/encode(_:of:forKey:)`` writes one of its group values).
    /// Returns `false`, having written nothing, when the groups do not have the form's shape:
    /// the object then gets the generic keys (`TSVersion`, `TSClassVersions`, `TSGroups`).
    /// Throws what the encoder throws.
    func encodeKeyed(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> Bool

    /// The object to write to the typedstream for a keyed object of class ``className`` that has
    /// no `TSGroups` (so holds this form's own keys), read through `decoder`; `nil` when the keys
    /// are not this form's (the importer then refuses the object). An object that can refer back
    /// to itself is registered with ``KeyedRecordDecoder/remember(_:)`` before its keys' objects
    /// are read. Throws ``KeyedArchiveError`` `badObject` for keys of the wrong kind.
    func decodeKeyed(_ decoder: KeyedRecordDecoder) throws(KeyedArchiveError) -> AnyObject?

    /// What plain JSON writes for `object`, an object of class ``className`` (see
    /// ``PlainJSON/Natural``), or `nil` for what the next hook gives (the generic form at last).
    func plainJSON(_ object: PlainJSONObject, context: PlainJSONContext) -> PlainJSON.Natural?

    /// Whether ``plainJSON(_:context:)`` answers from the object's group type strings alone —
    /// never from its values, the objects it holds or the context — so that plain JSON may ask
    /// it once per shape of the class's objects and write every object of that shape from its
    /// tokens (`PlainJSONConverter+Records.swift`). Default `false`: asked for every object.
    var plainJSONFollowsTypesOnly: Bool { get }
}

extension RecordForm {
    /// No keyed form: the generic keys.
    public func encodeKeyed(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> Bool { false }

    /// No keyed form to import.
    public func decodeKeyed(_ decoder: KeyedRecordDecoder) throws(KeyedArchiveError) -> AnyObject? { nil }

    /// No plain-JSON form.
    public func plainJSON(_ object: PlainJSONObject, context: PlainJSONContext) -> PlainJSON.Natural? { nil }

    /// Asked for every object.
    public var plainJSONFollowsTypesOnly: Bool { false }
}
