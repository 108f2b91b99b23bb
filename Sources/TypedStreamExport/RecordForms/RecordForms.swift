/// The registry of ``RecordForm``s, keyed by class name, that the keyed exporter
/// (``KeyedArchiveExporter/Options/recordForms``), the keyed importer
/// (``KeyedArchiveImporter/Options/recordForms``) and the plain-JSON writer
/// (``PlainJSON/Options/recordForms``) consult. Empty by default: every class without a codec
/// keeps its generic form. Two registries are equal when they hold forms of the same types for
/// the same class names.
///
/// ```swift
/// var forms = RecordForms()
/// forms.register(SpriteForm())
/// let form = forms.form(forClassName: "Sprite")
/// ```
public struct RecordForms: Sendable, Hashable {
    /// The forms, one per class name, in registration order (few: a linear search is fastest).
    private var forms: [any RecordForm] = []

    /// An empty registry.
    public init() {}

    /// A registry holding `forms` (a later form for the same class name replaces an earlier one).
    public init(_ forms: [any RecordForm]) {
        for form in forms { register(form) }
    }

    /// Registers `form` for its class name, replacing the form registered for that name before.
    public mutating func register(_ form: any RecordForm) {
        if let index = forms.firstIndex(where: { $0.className == form.className }) {
            forms[index] = form
        } else {
            forms.append(form)
        }
    }

    /// Whether no form is registered.
    public var isEmpty: Bool { forms.isEmpty }

    /// The class names that have a form, in registration order.
    public var classNames: [String] { forms.map(\.className) }

    /// The form registered for `className`, if any.
    public func form(forClassName className: String) -> (any RecordForm)? {
        forms.first { $0.className == className }
    }

    /// The form registered for the class named by the UTF-8 bytes `name`, if any (no string is made).
    func form(forClassNameBytes name: some Collection<UInt8>) -> (any RecordForm)? {
        forms.first { $0.className.utf8.elementsEqual(name) }
    }

    /// Equal when the same form types are registered for the same class names, in order.
    public static func == (lhs: RecordForms, rhs: RecordForms) -> Bool {
        lhs.forms.count == rhs.forms.count && zip(lhs.forms, rhs.forms).allSatisfy {
            $0.className == $1.className && ObjectIdentifier(type(of: $0)) == ObjectIdentifier(type(of: $1))
        }
    }

    /// Hashes the class names and form types.
    public func hash(into hasher: inout Hasher) {
        for form in forms {
            hasher.combine(form.className)
            hasher.combine(ObjectIdentifier(type(of: form)))
        }
    }
}
