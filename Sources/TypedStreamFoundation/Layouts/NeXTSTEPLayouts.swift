import TypedStream

extension ClassLayouts {
    /// The NeXTSTEP Application Kit classes rooted at `Object` (views, controls, cells, menus,
    /// images, sounds, print settings) and Interface Builder's own classes of a NeXTSTEP 3
    /// `data.nib` (the object data, window and menu templates, custom objects and views,
    /// connectors), as the corpus's NeXTSTEP nibs and Draw document hold them.
    ///
    /// A rectangle (`NXRect`, `"ffff"`) is four values: its origin's x and y, then its width and
    /// height; a size (`NXSize`, `"ff"`) is a width and a height. Strings are C strings (`*`).
    /// Flags are the class's bit fields as archived (their bits differ from the keyed
    /// archiver's, so they carry no keyed name).
    static let nextStep: [ClassLayout] = [
        ClassLayout("Responder", 0, [
            .one("@", "nextResponder/NSNextResponder"),
        ]),
        ClassLayout("View", 0, [
            // 0 in every file seen; presumably the frame's rotation.
            .one("f", "angle"),
            .one("ffff", "frameX", "frameY", "frameWidth", "frameHeight"),
            .one("ffff", "boundsX", "boundsY", "boundsWidth", "boundsHeight"),
            .one("@", "superview/NSSuperview"),
            // nil in every file seen (perhaps the window, written conditionally).
            .one("@", "reserved1"),
            // `reserved2` is nil in every file seen.
            .one("@ss@", "subviews/NSSubviews", "viewFlags", "viewFlags2", "reserved2"),
        ]),
        ClassLayout("Control", 0, [
            .one("i@s", "tag/NSTag", "cell/NSCell", "controlFlags"),
        ]),
        ClassLayout("Button", 0, []),
        ClassLayout("TextField", 0, [
            .one("@", "nextText"),
            .one("@", "previousText"),
            .one("@", "delegate/NSDelegate"),
            .one(":", "errorAction"),
        ]),
        ClassLayout("Matrix", 2, matrixSteps),
        ClassLayout("Matrix", 5, matrixSteps),
        ClassLayout("Form", 1, []),
        ClassLayout("Form", 2, []),
        ClassLayout("Slider", 0, []),
        ClassLayout("SliderCell", 1, [
            // 1, 0 and 0 in the one slider seen: the value and its limits, in an order not
            // established.
            .one("ddd", "number1", "number2", "number3"),
        ]),
        ClassLayout("Scroller", 0, [
            .one("@", "target/NSTarget"),
            .one("ff:s", "value/NSCurValue", "knobProportion/NSPercent", "action/NSAction", "scrollerFlags"),
        ]),
        // The columns' matrix class and cell prototype, then sizes and flags whose order is
        // not established (1, 1, 1, 47 and one int in the one browser seen), then two strings
        // (an empty one, then the first column's title).
        ClassLayout("NXBrowser", 2, [
            .one("@@::#@ssssi**", "target/NSTarget", "delegate/NSDelegate", "action/NSAction", "doubleAction",
                 "matrixClass", "cellPrototype/NSCellPrototype", "value1", "value2", "value3", "value4",
                 "browserFlags", "string1", "title"),
        ]),
        ClassLayout("Box", 0, [
            .one("ff", "offsetWidth", "offsetHeight"),
            .one("@@s", "titleCell/NSTitleCell", "contentView/NSContentView", "boxFlags"),
        ]),
        // Scroll amounts: 10 and 10 in the one scroll view seen (which is the page context and
        // which the line amount is not established).
        ClassLayout("ScrollView", 1, [
            .one("@@@ffs", "verticalScroller/NSVScroller", "horizontalScroller/NSHScroller",
                 "contentView/NSContentView", "scrollAmount1", "scrollAmount2", "scrollViewFlags"),
        ]),
        ClassLayout("ClipView", 3, [
            .one("@fs", "documentView/NSDocView", "backgroundGray", "clipViewFlags"),
            // 2 in the one clip view seen, as in a TextFieldCell's colour kinds.
            .one("c", "backgroundColorKind"),
            .one("@", "cursor/NSCursor"),
        ]),
        // The text object of a nib: see ``text``.
        text,
        // An Interface Builder stand-in for a view of a custom class (`className`).
        ClassLayout("CustomView", 0, [
            .one("*@", "className/NSClassName", "object"),
        ]),

        // Cells: the Cell's contents are its title (or its icon's name).
        ClassLayout("Cell", versions: 0...1, [
            .one("*@ss", "contents/NSContents", "support/NSSupport", "cellFlags", "cellFlags2"),
        ]),
        ClassLayout("ActionCell", versions: 0...1, [
            .one("@", "target/NSTarget"),
            .one("i:", "tag/NSTag", "action/NSAction"),
        ]),
        // A button cell with icons (`icon`, `alternateIcon`) …
        ClassLayout("ButtonCell", versions: 0...1, [
            .one("ss", "periodicDelay/NSPeriodicDelay", "periodicInterval/NSPeriodicInterval"),
            .one("*@ss", "alternateContents/NSAlternateContents", "sound/NSSound", "buttonFlags", "buttonFlags2"),
            .one("@@", "icon/NSNormalImage", "alternateIcon/NSAlternateImage"),
        ]),
        // … or without: the font of its key equivalent and that font's descent.
        ClassLayout("ButtonCell", versions: 0...1, [
            .one("ss", "periodicDelay/NSPeriodicDelay", "periodicInterval/NSPeriodicInterval"),
            .one("*@ss", "alternateContents/NSAlternateContents", "sound/NSSound", "buttonFlags", "buttonFlags2"),
            .one("@f", "keyEquivalentFont", "keyEquivalentDescent"),
        ]),
        ClassLayout("MenuCell", versions: 0...1, [
            // The submenu's template (also the cell's target) or nil.
            .one("@", "submenu"),
            .one(":", "updateAction"),
        ]),
        ClassLayout("TextFieldCell", 0, [
            .one("ff", "backgroundGray", "textGray"),
        ]),
        // Each grey may come with a colour: the kind is 2 for a plain grey in every cell seen;
        // one cell has kind 192 followed by three shorts (presumably the colour's components).
        ClassLayout("TextFieldCell", 1, [
            .one("ff", "backgroundGray", "textGray"),
            .one("c", "backgroundColorKind"),
            .optional("sss", "backgroundColor1", "backgroundColor2", "backgroundColor3"),
            .one("c", "textColorKind"),
        ]),
        ClassLayout("FormCell", 1, [
            .one("f@", "titleWidth", "titleCell/NSTitleCell"),
        ]),
        ClassLayout("NXBrowserCell", 1, []),

        // NeXTSTEP 1 and 2 icons (inside the StreamTables of NeXTSTEP 2 nibs): the icon's name,
        // then three numbers whose meaning is not established (0, 8 or 35–36, 0 in the files).
        // A bitmap that holds its pixels goes on with its size, seven numbers (not
        // established) and its planes of bytes.
        ClassLayout("Bitmap", 0, [
            .one("*iis", "name", "value1", "value2", "value3"),
            .optional("ff", "width", "height"),
            .optional("i", "value4"),
            .optional("iii", "value5", "value6", "value7"),
            .optional("iiii", "value8", "value9", "value10", "value11"),
            .any("[*c]", "planes"),
        ]),
        // An image representation: its size in points.
        ClassLayout("NXImageRep", 0, [.one("ff", "width", "height")]),
        // A bitmap: its size in pixels, four numbers (1, 3, 8, 0 in the files: taken to be
        // the planar flag, the colours, the bits per sample and the alpha flag, not
        // established), the bytes per row, and the pixels (`bytesPerRow` × `pixelsHigh` bytes).
        ClassLayout("NXBitmapImageRep", 0, [
            .one("iissss", "pixelsWide", "pixelsHigh", "value1", "value2", "value3", "value4"),
            .one("s", "value5"),
            .one("is", "bytesPerRow", "value6"),
            .one("[*c]", "data"),
        ]),
        // Images, cursors, sounds, print settings.
        // An image with its representation (a bitmap), as NeXTSTEP 2's colour panel holds
        // them; the other values are 1, 0, 2 and nil in every such image seen.
        ClassLayout("NXImage", 2, [
            .one("s*", "imageFlags", "name"),
            .one("s", "value1"),
            .one("c", "value2"),
            .one("@", "representation"),
            .one("c", "value3"),
            .one("@", "reserved1"),
        ]),
        // A named image.
        ClassLayout("NXImage", 2, [
            .one("s*", "imageFlags", "name"),
        ]),
        ClassLayout("NXCursor", 0, [
            .one("ff", "hotSpotX", "hotSpotY"),
            .one("s@", "cursorFlags", "image/NSImage"),
        ]),
        // A sound named by a nib; the other values are 0 or nil in every file seen.
        ClassLayout("Sound", 0, [
            .one("*i@i", "name", "value1", "reserved1", "value2"),
        ]),
        ClassLayout("PrintInfo", 0, [
            .one("ffff", "paperRectX", "paperRectY", "paperRectWidth", "paperRectHeight"),
            // `string1` is NULL and `value1` 1 in the one print info seen.
            .one("*fffffcsiii*s***i", "paperType", "leftMargin", "rightMargin", "topMargin", "bottomMargin",
                 "scalingFactor", "orientation", "printFlags", "firstPage", "lastPage", "copies", "string1",
                 "value1", "printerName", "printerType", "printerHost", "resolution"),
        ]),

        // Interface Builder's classes of a NeXTSTEP 3 data.nib.
        // The root object: the File's Owner, every object with its parent, the objects' names,
        // the windows listed apart (a window shown at launch in the one nib that has one), the
        // connections (a List of connectors), and a value nil in every file seen.
        ClassLayout("IBObjectData", 0, [
            .one("@i", "fileOwner/NSRoot", "objectCount"),
            .counted("@@", by: "objectCount", "object", "parent"),
            .one("i", "nameCount"),
            .counted("@*", by: "nameCount", "namedObject", "name"),
            .one("i", "windowCount"),
            .counted("@", by: "windowCount", "window"),
            .one("@", "connections/NSConnections"),
            .one("@", "reserved1"),
        ]),
        // The root object of a NeXTSTEP 2 nib (inside its StreamTable): two Storages and a
        // List whose roles are not established, nil and 0 in every nib seen.
        ClassLayout("NibData", 0, [
            .one("@@@@s", "storage1", "storage2", "list", "reserved1", "value1"),
        ]),
        // A class a NeXTSTEP 2 nib describes: its name, its superclass's name, a header's path
        // (empty or nil but once), the kind of nib it was made in ("genericobject_nib",
        // "windownib" …), 0, then two HashTables (presumably its outlets and actions).
        ClassLayout("HeaderClass", 1, [
            .one("%%%%i@@", "className", "superclassName", "headerPath", "nibKind", "value1", "table1", "table2"),
        ]),
        // A stand-in for an object the nib's owner makes (`className`), e.g. File's Owner.
        ClassLayout("CustomObject", 0, [
            .one("*@", "className/NSClassName", "object"),
        ]),
        ClassLayout("IBConnector", 0, [
            .one("@@*", "source/NSSource", "destination/NSDestination", "label/NSLabel"),
        ]),
        ClassLayout("IBControlConnector", 0, []),
        ClassLayout("IBOutletConnector", 0, []),
        // A window to make when the nib loads: its content rectangle, style (1 titled, 6 with a
        // resize bar …), backing, button mask and event mask, title, view and window classes,
        // content view and flags; then two pieces, each there when the flag before it is 1: a
        // rectangle ((0, 0, 1084, 910) in every file seen) and a size (perhaps the minimum).
        ClassLayout("WindowTemplate", 0, [
            .one("ffff", "contentRectX", "contentRectY", "contentRectWidth", "contentRectHeight"),
            .one("iiii***@s@", "style", "backing/NSWindowBacking", "buttonMask", "eventMask",
                 "title/NSWindowTitle", "viewClass/NSViewClass", "windowClass/NSWindowClass",
                 "contentView/NSWindowView", "windowTemplateFlags", "reserved1"),
        ]),
        ClassLayout("WindowTemplate", 1, [
            .one("ffff", "contentRectX", "contentRectY", "contentRectWidth", "contentRectHeight"),
            .one("iiii***@s@", "style", "backing/NSWindowBacking", "buttonMask", "eventMask",
                 "title/NSWindowTitle", "viewClass/NSViewClass", "windowClass/NSWindowClass",
                 "contentView/NSWindowView", "windowTemplateFlags", "reserved1"),
            .one("c", "hasRect"),
            .optional("ffff", "rectX", "rectY", "rectWidth", "rectHeight"),
            .one("c", "hasSize"),
            .optional("ff", "width", "height"),
        ]),
        // A menu to make when the nib loads: its supermenu's template, its location, title,
        // matrix of MenuCells and class name ("Menu").
        ClassLayout("MenuTemplate", 2, [
            .one("@", "supermenu"),
            .one("ff", "locationX", "locationY"),
            .one("*@*@ccc", "title/NSTitle", "matrix", "menuClass", "reserved1", "flag1", "flag2", "flag3"),
        ]),
    ]

    /// What a Matrix adds, the same in versions 2 and 5: four values nil in every file seen, its
    /// cells and selection, the cells' size and spacing, greys, prototype and class, and
    /// flags.
    private static let matrixSteps: [ClassLayout.Step] = [
        // nil in every file seen.
        .one("@", "reserved1"),
        .one("@", "reserved2"),
        .one("@", "reserved3"),
        .one("@", "reserved4"),
        .one("@:@iiii", "cells/NSCells", "action/NSAction", "selectedCell/NSSelectedCell", "selectedRow",
             "selectedColumn", "numberOfRows/NSNumRows", "numberOfColumns/NSNumCols"),
        .one("ff", "cellWidth", "cellHeight"),
        .one("ff", "intercellWidth", "intercellHeight"),
        .one("ff@@#::s", "backgroundGray", "cellBackgroundGray", "font/NSFont", "prototype/NSProtoCell",
             "cellClass/NSCellClass", "doubleAction/NSDoubleAction", "errorAction", "matrixFlags"),
        // 2 in every file seen; like a TextFieldCell's, presumably how the background
        // and the cells' background colours are given.
        .one("c", "backgroundColorKind"),
        .one("c", "cellBackgroundColorKind"),
    ]

    /// The Text layout: most of its settings are numbers whose meaning is not established;
    /// then come its size limits and its text, RTF bytes as many as `textLength` says (and as
    /// the type string of the last group holds).
    static let text =
        ClassLayout("Text", 0, [
            .one("@", "reserved1"),
            // The frame inset by the margins in the texts seen.
            .one("ffff", "textRectX", "textRectY", "textRectWidth", "textRectHeight"),
            .one("ciifffcfffs", "value1", "value2", "value3", "value4", "value5", "value6", "value7",
                 "value8", "value9", "value10", "textFlags"),
        ] + textLimitsAndRTF)

    /// The end of a text object's part, NeXTSTEP's `Text` and OPENSTEP's `NSCStringText` alike:
    /// its size limits, two numbers whose meaning is not established, and its RTF.
    static let textLimitsAndRTF: [ClassLayout.Step] = [
        .one("ff", "maxWidth", "maxHeight"),
        .one("ff", "minWidth", "minHeight"),
        .one("i", "value11"),
        .one("i", "value12"),
        .one("i", "textLength"),
        .one("[*c]", "rtf"),
    ]
}
