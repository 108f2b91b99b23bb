import TypedStream

extension ClassRegistry {
    /// Every class codec this module ships: Foundation, AppKit and NeXTSTEP classes, and a
    /// ``LaidOutObject`` for every other class the ``ClassLayouts`` catalogue describes.
    public static var foundation: ClassRegistry { shippedCodecs }

    /// Built once: the catalogue registers a few hundred names.
    private static let shippedCodecs: ClassRegistry = {
        var registry = ClassRegistry()
        registry.register(LaidOutObject.self, forClassNames: ClassLayouts.classNames)
        registry.register(PlainObject.self, forClassNames: ["NSObject", "Object"])
        registry.register(StringObject.self, forClassNames: ["NSString", "NSMutableString"])
        registry.register(ArrayObject.self, forClassNames: ["NSArray", "NSMutableArray"])
        registry.register(DataObject.self, forClassNames: ["NSData", "NSMutableData"])
        registry.register(DateObject.self, forClassName: "NSDate")
        registry.register(ValueObject.self, forClassName: "NSValue")
        registry.register(NumberObject.self, forClassName: "NSNumber")
        registry.register(SetObject.self, forClassNames: ["NSSet", "NSMutableSet"])
        registry.register(DictionaryObject.self, forClassNames: ["NSDictionary", "NSMutableDictionary"])
        registry.register(NullObject.self, forClassName: "NSNull")
        registry.register(URLObject.self, forClassName: "NSURL")
        registry.register(AttributedStringObject.self, forClassNames: ["NSAttributedString", "NSMutableAttributedString"])
        registerAppKitAndNeXT(&registry)
        return registry
    }()
}
