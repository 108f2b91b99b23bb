import TypedStream

extension ClassLayouts {
    /// Views, controls, window and menu templates, and the nib data of OPENSTEP and Mac OS X
    /// nibs (`NSIBObjectData` and its connectors), as the corpus's nibs hold them. Cells are
    /// separate objects: a control names its cell in the `cell` field.
    ///
    /// A rectangle or size is written as separate floats; its parts are named `frame.x`,
    /// `frame.y`, `frame.width`, `frame.height` (or `.width`, `.height` for a size) and all
    /// carry the one key the keyed archiver writes for the whole value (`NSFrame`).
    static let appKitViews: [ClassLayout] = viewClasses + controlClasses + windowAndMenuTemplates + nibData + classSwappers

    // MARK: Steps shared by the classes and by the class swapper

    /// What `NSResponder` writes.
    private static let responderSteps: [ClassLayout.Step] = [
        .one("@", "nextResponder/NSNextResponder"),
    ]

    /// What `NSView` writes (version 41, the only one in the corpus).
    private static let viewSteps: [ClassLayout.Step] = [
        .one("i", "flags/NSvFlags"),
        // `frameMatrix` is an NSPSMatrix in a few views and nil elsewhere; `drawMatrix` is nil
        // in every view seen (both named after NSView's instance variables of the era).
        .one("@@@@ffffffff", "subviews/NSSubviews", "frameMatrix", "drawMatrix", "dragTypes/NSDragTypes",
             "frame.x/NSFrame", "frame.y/NSFrame", "frame.width/NSFrame", "frame.height/NSFrame",
             "bounds.x/NSBounds", "bounds.y/NSBounds", "bounds.width/NSBounds", "bounds.height/NSBounds"),
        .one("@", "superview/NSSuperview"),
        .one("@", "reserved1"),  // nil in every view seen
        .one("@", "nextKeyView/NSNextKeyView"),
        .one("@", "reserved2"),  // nil in every view seen
    ]

    /// What `NSControl` writes (version 41).
    private static let controlSteps: [ClassLayout.Step] = [
        // `isEnabled` is 1 in every control but most scrollers; `flags` is 0 in every one.
        .one("icc@", "tag/NSTag", "isEnabled/NSEnabled", "flags", "cell/NSCell"),
    ]

    /// What `NSTextField` writes (version 25): the delegate and error action, nil in nibs
    /// (named after NSTextField's instance variables of the era).
    private static let textFieldSteps: [ClassLayout.Step] = [
        .one("@", "delegate"),
        .one(":", "errorAction"),
    ]

    /// What `NSImageView` writes (version 26).
    private static let imageViewSteps: [ClassLayout.Step] = [
        .one("c", "flags"),  // 1 in every image view seen
    ]

    /// What `NSTableView` writes (version 61).
    private static let tableViewSteps: [ClassLayout.Step] = [
        // The two selectors are named in the order of NSTableView's instance variables of the
        // era (action, then double action); a combo box's list has `tableViewAction:` first.
        .one("@@@ff@@f::i", "headerView/NSHeaderView", "cornerView/NSCornerView", "tableColumns/NSTableColumns",
             "intercellSpacing.width/NSIntercellSpacingWidth", "intercellSpacing.height/NSIntercellSpacingHeight",
             "backgroundColor/NSBackgroundColor", "gridColor/NSGridColor", "rowHeight/NSRowHeight",
             "action", "doubleAction", "flags/NSTvFlags"),
        // Nil in plain table views; a combo box's list has its combo box cell in the first and
        // last, and in the middle only when the combo box archives no data source of its own:
        // what each holds is not known for certain.
        .one("@", "reference1"),
        .one("@", "reference2"),
        .one("@", "reference3"),
    ]

    /// What `NSScrollView` writes (version 226).
    private static let scrollViewSteps: [ClassLayout.Step] = [
        .one("@", "verticalScroller/NSVScroller"),
        .one("@", "horizontalScroller/NSHScroller"),
        .one("@", "contentView/NSContentView"),
        .one("@", "headerClipView/NSHeaderClipView"),
        .one("@", "cornerView/NSCornerView"),
        // Line and page scroll amounts (10, 10 and a page amount in every scroll view seen).
        .one("ffffi", "scrollAmount1/NSScrollAmts", "scrollAmount2/NSScrollAmts", "scrollAmount3/NSScrollAmts",
             "scrollAmount4/NSScrollAmts", "flags/NSsFlags"),
    ]

    /// What `NSSplitView` writes (version 523).
    private static let splitViewSteps: [ClassLayout.Step] = [
        .one("@", "reserved"),  // nil in every split view seen
        .one("c", "flags"),     // 2 or 3
    ]

    // MARK: Views

    private static let viewClasses: [ClassLayout] = [
        ClassLayout("NSResponder", 0, responderSteps),
        ClassLayout("NSView", 41, viewSteps),
        ClassLayout("_NSCornerView", 0, []),
        // OPENSTEP's text object (WorldWideWeb's nib): the same settings as NeXTSTEP's Text
        // (see ``text``), with two colours where Text has grays — taken to be the background
        // and text colours by that likeness — and a last byte not known.
        ClassLayout("NSText", 1, [.one("@", "object1")]),  // nil in the one text seen
        ClassLayout("NSCStringText", 1, [
            .one("ffff", "textRect.x", "textRect.y", "textRect.width", "textRect.height"),
            .one("ciifffc@@s", "value1", "value2", "value3", "value4", "value5", "value6", "value7",
                 "backgroundColor", "textColor", "textFlags"),
        ] + textLimitsAndRTF + [
            .one("c", "value13"),
        ]),
        // A view of a class the nib's owner defines (`className`), placed as an instance of the
        // class it extends (`extension`, "NSView" or "NSResponder" in the corpus, or nil).
        ClassLayout("NSCustomView", 41, [
            .one("@@", "className/NSClassName", "extension/NSExtension"),
        ]),
        // The three bytes are flags whose bits are not known for certain: the first is 0, 2, 3,
        // 6, 11 or 12 in the corpus, the second 0 or 2, the third 0.
        ClassLayout("NSBox", versions: 41...42, [
            .one("ff@@ccc", "offsets.width/NSOffsets", "offsets.height/NSOffsets", "titleCell/NSTitleCell",
                 "contentView/NSContentView", "flags", "flags2", "flags3"),
            .one("@", "reserved"),  // nil in every box seen
        ]),
        // `flags` is 0 or 0x08000000; the two bytes are 1 in every tab view seen; the last
        // object is nil in every one.
        ClassLayout("NSTabView", 4, [
            .one("@@@icc", "tabViewItems/NSTabViewItems", "selectedTabViewItem/NSSelectedTabViewItem", "font/NSFont",
                 "flags", "flag1", "flag2"),
            .one("@", "reserved"),
        ]),
        // The fifth and sixth objects are nil in every item seen.
        ClassLayout("NSTabViewItem", 0, [
            .one("@@@@@@@", "identifier/NSIdentifier", "view/NSView", "label/NSLabel", "color/NSColor",
                 "reserved1", "reserved2", "tabView/NSTabView"),
        ]),
        ClassLayout("NSScrollView", 226, scrollViewSteps),
        // The OPENSTEP scroll view: two scroll amounts.
        ClassLayout("NSScrollView", 42, [
            .one("@", "verticalScroller/NSVScroller"),
            .one("@", "horizontalScroller/NSHScroller"),
            .one("@", "contentView/NSContentView"),
            .one("@", "headerClipView/NSHeaderClipView"),
            .one("@", "cornerView/NSCornerView"),
            .one("ffi", "scrollAmount1", "scrollAmount2", "flags/NSsFlags"),
        ]),
        // The three bytes are 0, 0, 1 in every clip view seen.
        ClassLayout("NSClipView", 58, [
            .one("@", "documentView/NSDocView"),
            .one("@@ccc", "backgroundColor/NSBGColor", "cursor/NSCursor", "flag1", "flag2", "flag3"),
        ]),
        ClassLayout("NSTableHeaderView", 28, [
            .one("@", "tableView/NSTableView"),
        ]),
        ClassLayout("NSSplitView", 523, splitViewSteps),
        // The first byte is 0 in every indicator seen, the second 0 or 1, the last 0 or 4.
        ClassLayout("NSProgressIndicator", 220, [
            .one("ccddc", "flag1", "flag2", "minValue/NSMinValue", "maxValue/NSMaxValue", "flag3"),
        ]),
        // A 3×4 matrix of a view's frame (12 floats) and three bytes (1, 0, 0 in the corpus).
        ClassLayout("NSPSMatrix", 17, [
            .one("[12f]", "elements"),
            .one("c", "flag1"),
            .one("c", "flag2"),
            .one("c", "flag3"),
        ]),
        // The text object of a nib: the class name it stands for ("NSText", "NSTextView").
        ClassLayout("NSViewTemplate", 46, [
            .one("@", "className/NSClassName"),
        ]),
        // `rtfdData` holds the text as serialized RTFD; the sizes are a width and height each
        // (the second's height is 10000000, a text's usual maximum); the bytes are flags.
        ClassLayout("NSTextTemplate", 454, [
            .one("@", "rtfdData"),
            .one("@", "reserved1"),
            .one("@", "font"),
            .one("i", "flags"),
            .one("@", "color"),
            .one("ff", "size1.width", "size1.height"),
            .one("ff", "size2.width", "size2.height"),
            .one("@", "reserved2"),
            .any("c", "flag"),
        ]),
        // The meaning of most values is not known: the colors and dictionaries (the first
        // holds text colors, as selected-text attributes do) keep neutral names.
        ClassLayout("NSTextViewTemplate", 454, [
            .one("@", "reserved1"),
            .one("@", "color1"),
            .one("@", "attributes1"),
            .one("@", "color2"),
            .one("ff", "size1.width", "size1.height"),
            .one("ff", "size2.width", "size2.height"),
            .one("ff", "size3.width", "size3.height"),
            .one("@", "reserved2"),
            .any("c", "flag"),
            .one("@", "attributes2"),
        ]),
        // A drawer: its sizes, edge and offsets; the integer after the edge and the three
        // objects are 0 and nil in the one drawer seen.
        ClassLayout("NSDrawer", 1, [
            .one("ff", "contentSize.width/NSContentSize", "contentSize.height/NSContentSize"),
            .one("ff", "minContentSize.width/NSMinContentSize", "minContentSize.height/NSMinContentSize"),
            .one("ff", "maxContentSize.width/NSMaxContentSize", "maxContentSize.height/NSMaxContentSize"),
            .one("IIff", "preferredEdge/NSPreferredEdge", "flags", "leadingOffset/NSLeadingOffset",
                 "trailingOffset/NSTrailingOffset"),
            .one("@", "reserved1"),
            .one("@", "reserved2"),
            .one("@", "reserved3"),
        ]),
    ]

    /// What `NSMatrix` writes (versions 60 and 62): a matrix of cells. The selectors, the two
    /// objects after the prototype and the order of the two colors follow NSMatrix's instance
    /// variables of the era; the two objects are nil in every matrix seen.
    private static let matrixSteps: [ClassLayout.Step] = [
        .one("#iiii:::ffffi@@@@@", "cellClass/NSCellClass", "selectedRow/NSSelectedRow",
             "selectedColumn/NSSelectedCol", "numberOfRows/NSNumRows", "numberOfColumns/NSNumCols",
             "action", "doubleAction", "errorAction",
             "cellSize.width/NSCellSize", "cellSize.height/NSCellSize",
             "intercellSpacing.width/NSIntercellSpacing", "intercellSpacing.height/NSIntercellSpacing",
             "flags/NSMatrixFlags", "cells/NSCells", "backgroundColor/NSBackgroundColor",
             "cellBackgroundColor/NSCellBackgroundColor", "font", "prototype/NSProtoCell"),
        .one("@", "reserved1"),
        .one("@", "reserved2"),
        .one("@", "selectedCell/NSSelectedCell"),
    ]

    /// What `NSScroller` writes (versions 17, 209 and 211). `isHorizontal` is 1 for every wide
    /// scroller seen and 0 for every tall one; the last byte is 0 or 32.
    private static let scrollerSteps: [ClassLayout.Step] = [
        .one("@", "target/NSTarget"),
        .one("ff:", "floatValue/NSCurValue", "knobProportion/NSPercent", "action/NSAction"),
        .one("c", "isHorizontal"),
        .one("c", "flags"),
    ]

    // MARK: Controls

    private static let controlClasses: [ClassLayout] = [
        ClassLayout("NSControl", 41, controlSteps),
        ClassLayout("NSButton", 0, []),
        ClassLayout("NSPopUpButton", 204, []),
        ClassLayout("NSSlider", 0, []),
        ClassLayout("NSTextField", 25, textFieldSteps),
        // Some combo boxes write one more object (nil in the corpus): read as the data
        // source, since their lists then have no cell as second reference.
        ClassLayout("NSComboBox", 1, [
            .optional("@", "dataSource/NSDataSource"),
        ]),
        ClassLayout("NSImageView", 26, imageViewSteps),
        // The three bytes are 0, 1, 0 in the one color well seen.
        ClassLayout("NSColorWell", 17, [
            .one("c", "flag1"),
            .one("c", "flag2"),
            .one("c", "flag3"),
            .one("@", "color/NSColor"),
        ]),
        ClassLayout("NSStepper", 0, [
            .one("iiii", "value1", "value2", "value3", "value4"),  // 0 in the one stepper seen
        ]),
        ClassLayout("NSMatrix", 62, matrixSteps),
        ClassLayout("NSMatrix", 60, matrixSteps),
        ClassLayout("NSForm", 1, []),
        ClassLayout("NSScroller", 211, scrollerSteps),
        ClassLayout("NSScroller", 209, scrollerSteps),
        ClassLayout("NSScroller", 17, scrollerSteps),
        ClassLayout("NSTableView", 61, tableViewSteps),
        ClassLayout("NSComboTableView", 0, []),
        // A column: its identifier, widths, header and data cells, then whether it is
        // resizable and editable, and its table view.
        ClassLayout("NSTableColumn", 41, [
            .one("@fff@@cc", "identifier/NSIdentifier", "width/NSWidth", "minWidth/NSMinWidth", "maxWidth/NSMaxWidth",
                 "headerCell/NSHeaderCell", "dataCell/NSDataCell", "isResizable/NSIsResizeable", "isEditable/NSIsEditable"),
            .one("@", "tableView/NSTableView"),
        ]),
    ]

    // MARK: Window and menu templates

    /// The part every window template writes first.
    private static let windowTemplateHead: [ClassLayout.Step] = [
        // `viewClass` is "View" in every template seen; the nil object and the byte (1) after
        // the content view are the same in every one.
        .one("iiffffi@@@@@c", "styleMask/NSWindowStyleMask", "backing/NSWindowBacking",
             "contentRect.x/NSWindowRect", "contentRect.y/NSWindowRect",
             "contentRect.width/NSWindowRect", "contentRect.height/NSWindowRect",
             "flags/NSWTFlags", "title/NSWindowTitle", "windowClass/NSWindowClass", "viewClass/NSViewClass",
             "contentView/NSWindowView", "reserved", "flag"),
        .one("ffff", "screenRect.x/NSScreenRect", "screenRect.y/NSScreenRect",
             "screenRect.width/NSScreenRect", "screenRect.height/NSScreenRect"),
        .one("c", "flag2"),  // 0 or 1
    ]

    private static let windowAndMenuTemplates: [ClassLayout] = [
        // The Mac OS X window template.
        ClassLayout("NSWindowTemplate", 504, windowTemplateHead + [
            .one("ff", "minSize.width/NSMinSize", "minSize.height/NSMinSize"),
            .one("@", "frameAutosaveName/NSFrameAutosaveName"),
            .one("c", "flag3"),  // 0 or 2
            .optional("ff", "maxSize.width/NSMaxSize", "maxSize.height/NSMaxSize"),
        ]),
        // The OPENSTEP window template: a minimum size only in some.
        ClassLayout("NSWindowTemplate", 41, windowTemplateHead + [
            .optional("ff", "minSize.width/NSMinSize", "minSize.height/NSMinSize"),
        ]),
    ]

    // MARK: Nib data and connectors

    /// The start of every `NSIBObjectData`: the root object, each object's parent, each
    /// object's name, the visible windows, the connections, then each object's id.
    private static let objectDataSteps: [ClassLayout.Step] = [
        .one("@", "rootObject/NSRoot"),
        .one("i", "objectCount"),
        .counted("@@", by: "objectCount", "object/NSObjectsKeys", "parent/NSObjectsValues"),
        .one("i", "nameCount"),
        .counted("@@", by: "nameCount", "object/NSNamesKeys", "name/NSNamesValues"),
        .one("@", "visibleWindows/NSVisibleWindows"),
        .one("@", "connections/NSConnections"),
        .one("@", "reserved"),  // nil in every nib seen
        .one("i", "oidCount"),
        .counted("@i", by: "oidCount", "object/NSOidsKeys", "oid/NSOidsValues"),
        .one("i", "nextOid/NSNextOid"),
        .one("i", "classCount"),
        .counted("@@", by: "classCount", "object/NSClassesKeys", "className/NSClassesValues"),
    ]

    private static let nibData: [ClassLayout] = [
        ClassLayout("NSIBObjectData", 224, objectDataSteps + [
            .one("@", "framework/NSFramework"),  // "IBCocoaFramework"
        ]),
        ClassLayout("NSIBObjectData", 223, objectDataSteps),
        ClassLayout("NSIBObjectData", 24, objectDataSteps),
        ClassLayout("NSNibConnector", 17, [
            .one("@@@", "source/NSSource", "destination/NSDestination", "label/NSLabel"),
        ]),
        ClassLayout("NSNibControlConnector", 207, []),
        ClassLayout("NSNibOutletConnector", 207, []),
        ClassLayout("NSIBConnector", 17, [
            .one("@@@", "source/NSSource", "destination/NSDestination", "label/NSLabel"),
        ]),
        ClassLayout("NSIBControlConnector", 0, []),
        ClassLayout("NSIBOutletConnector", 0, []),
        // A help connector: its view, the kind of help ("NSToolTipHelpKey") and the text.
        ClassLayout("NSIBHelpConnector", 17, [
            .one("@@@", "destination/NSDestination", "file/NSFile", "marker/NSMarker"),
        ]),
    ]

    // MARK: Class swappers

    /// A class swapper stands for an object of a class the nib's owner defines (`className`)
    /// and writes, after that name and the class it extends, what that class writes: one
    /// layout per class it extends, longest first.
    private static let classSwappers: [ClassLayout] = {
        let head: [ClassLayout.Step] = [.one("@#", "className/NSClassName", "originalClass/NSOriginalClassName")]
        let view = head + responderSteps + viewSteps
        let control = view + controlSteps
        return [
            control + tableViewSteps,
            view + scrollViewSteps,
            control + textFieldSteps,
            control + imageViewSteps,
            view + splitViewSteps,
            control,
            view,
        ].map { ClassLayout("NSClassSwapper", 42, $0) }
    }()
}
