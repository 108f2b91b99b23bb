import TypedStream

extension ClassRegistry {
    /// Every class codec this module ships: Foundation, AppKit and NeXTSTEP classes.
    public static var foundation: ClassRegistry {
        var registry = ClassRegistry()
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
    }
}
