import TypedStream

extension ClassLayouts {
    /// Menus, menu items and the placeholders of Mac OS X nibs, as the corpus's nibs hold them.
    static let appKitMenus: [ClassLayout] = [
        // `flags` is 0 in every nib seen; `name` is the menu's special role
        // (`_NSMainMenu`, `_NSRecentDocumentsMenu` …) or nil.
        ClassLayout("NSMenu", 204, [
            .one("i@@@", "flags", "title/NSTitle", "items/NSMenuItems", "name/NSName"),
        ]),
        ClassLayout("NSMenuItem", 671, [
            .one("@", "menu/NSMenu"),
            .one("i@@IIi@@@@:i@", "isDisabled/NSIsDisabled", "title/NSTitle", "keyEquivalent/NSKeyEquiv",
                 "keyEquivalentModifierMask/NSKeyEquivModMask", "mnemonicLocation/NSMnemonicLoc", "state/NSState",
                 "image/NSImage", "onStateImage/NSOnImage", "offStateImage/NSOffImage", "mixedStateImage/NSMixedImage",
                 "action/NSAction", "tag/NSTag", "representedObject/NSRepresentedObject"),
            .one("@", "target/NSTarget"),
            .one("@", "submenu/NSSubmenu"),
        ]),
        // A stand-in for an object the nib's owner makes (`className`), e.g. File's Owner.
        ClassLayout("NSCustomObject", 41, [
            .one("@@", "className/NSClassName", "object/NSObject"),
        ]),
        // An image or sound named by a nib (`className` "NSImage", `resourceName` "NSMenuCheckmark").
        ClassLayout("NSCustomResource", 41, [
            .one("@@", "className/NSClassName", "resourceName/NSResourceName"),
        ]),
    ]
}
