import TypedStream

extension ClassRegistry {
    /// Registers the AppKit (NSColor, NSFont, NSColorList) and NeXTSTEP (List, HashTable,
    /// Storage, StreamTable, Font) codecs.
    ///
    /// `NSColorList` has no class codec: `.clr` files are not one root object (see
    /// ``ColorListDocument``) and no archive with an `NSColorList` object is known.
    static func registerAppKitAndNeXT(_ registry: inout ClassRegistry) {
        registry.register(ColorObject.self, forClassName: "NSColor")
        registry.register(FontObject.self, forClassName: "NSFont")
        registry.register(ListObject.self, forClassName: "List")
        registry.register(HashTableObject.self, forClassName: "HashTable")
        registry.register(StorageObject.self, forClassName: "Storage")
        registry.register(StreamTableObject.self, forClassName: "StreamTable")
        registry.register(NeXTFontObject.self, forClassName: "Font")
    }
}
