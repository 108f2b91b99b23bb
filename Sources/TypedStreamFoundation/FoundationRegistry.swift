import TypedStream

extension ClassRegistry {
    /// Every class codec this module ships: Foundation, AppKit and NeXTSTEP classes.
    public static var foundation: ClassRegistry {
        var registry = ClassRegistry()
        registry.register(PlainObject.self, forClassNames: ["NSObject", "Object"])
        registry.register(StringObject.self, forClassNames: ["NSString", "NSMutableString"])
        registry.register(ArrayObject.self, forClassNames: ["NSArray", "NSMutableArray"])
        registerAppKitAndNeXT(&registry)
        return registry
    }
}
