import TypedStream

extension ClassLayouts {
    /// Menus, menu items and the placeholders of OPENSTEP and Mac OS X nibs, as the corpus's
    /// nibs hold them.
    static let appKitMenus: [ClassLayout] = [
        // `flags` is 0 or 0x80000000 in every nib seen; `name` is the menu's special role
        // (`_NSMainMenu`, `_NSRecentDocumentsMenu` …) or nil.
        ClassLayout("NSMenu", 204, [
            .one("i@@@", "flags", "title/NSTitle", "items/NSMenuItems", "name/NSName"),
        ]),
        // The menu items of Mac OS X nibs: the same groups in every version the corpus holds.
    ] + [321, 505, 671].map { version in
        ClassLayout("NSMenuItem", version, [
            .one("@", "menu/NSMenu"),
            .one("i@@IIi@@@@:i@", "isDisabled/NSIsDisabled", "title/NSTitle", "keyEquivalent/NSKeyEquiv",
                 "keyEquivalentModifierMask/NSKeyEquivModMask", "mnemonicLocation/NSMnemonicLoc", "state/NSState",
                 "image/NSImage", "onStateImage/NSOnImage", "offStateImage/NSOffImage", "mixedStateImage/NSMixedImage",
                 "action/NSAction", "tag/NSTag", "representedObject/NSRepresentedObject"),
            .one("@", "target/NSTarget"),
            .one("@", "submenu/NSSubmenu"),
        ])
    } + [
        // OPENSTEP's menu item is a button cell (NSMenuItem : NSMenuCell : NSButtonCell …):
        // title, key equivalent and action are the cell's; NSMenuCell adds the submenu (an
        // NSMenuTemplate) and NSMenuItem nothing.
        ClassLayout("NSMenuCell", 17, [
            .one("@", "submenu/NSSubmenu"),
        ]),
        ClassLayout("NSMenuItem", 1, []),
        // OPENSTEP's menu: its place on screen, three flag bytes (their meaning is not
        // described here), its title, the class to make (`NSMenu` or a subclass), the NSMatrix
        // of its items (NSMenuItem cells) and its supermenu. The fourth object is nil in every
        // menu seen.
        ClassLayout("NSMenuTemplate", 41, [
            .one("ffccc@@@@", "location.x", "location.y", "flag1", "flag2", "flag3", "title/NSTitle", "menuClassName", "itemMatrix", "reserved"),
            .one("@", "supermenu"),
        ]),
        // A stand-in for an object the nib's owner makes (`className`), e.g. File's Owner.
        // `extension` is nil in every nib seen.
        ClassLayout("NSCustomObject", 41, [
            .one("@@", "className/NSClassName", "extension/NSExtension"),
        ]),
        // An image or sound named by a nib (`className` "NSImage", `resourceName` "NSMenuCheckmark").
        ClassLayout("NSCustomResource", 41, [
            .one("@@", "className/NSClassName", "resourceName/NSResourceName"),
        ]),
    ]
}
