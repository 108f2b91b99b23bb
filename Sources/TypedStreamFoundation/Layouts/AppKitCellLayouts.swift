import TypedStream

extension ClassLayouts {
    /// Cells, images, cursors, paths, formatters and the small value classes of OPENSTEP and
    /// Mac OS X nibs and documents, as the corpus holds them.
    ///
    /// A cell is its classes' parts root first: `NSCell` (flags, contents, font, formatter),
    /// `NSActionCell` (tag, action, target, control view), then the subclass's own part.
    static let appKitCells: [ClassLayout] = cells + cellSubclasses + images + formatters + values

    /// `NSCell` and `NSActionCell`, the same groups in every version the corpus holds.
    private static let cells: [ClassLayout] = [60, 62, 65].map { version in
        ClassLayout("NSCell", version, [
            .one("ii", "cellFlags/NSCellFlags", "cellFlags2/NSCellFlags2"),
            // `contents` is the title or string value of text cells and the image of image
            // cells; `font` (NSSupport) is nil for image cells. The fourth value is nil in
            // every cell seen.
            .one("@@@@", "contents/NSContents", "font/NSSupport", "formatter/NSFormatter", "reserved"),
        ])
    } + [
        ClassLayout("NSActionCell", 17, [
            .one("i:", "tag/NSTag", "action/NSAction"),
            .one("@", "target/NSTarget"),
            .one("@", "controlView/NSControlView"),
        ]),
    ]

    /// What each subclass of `NSActionCell` or `NSCell` adds.
    private static let cellSubclasses: [ClassLayout] = [
        // Version 57 (OPENSTEP) keeps the key equivalent's modifier mask as an unsigned
        // integer of its own; later versions keep it in the upper bits of `buttonFlags2`, whose
        // low bits hold the bezel style. The delays are milliseconds. `alternateImage` is the
        // key equivalent's font when the button shows its key equivalent instead of an image.
        ClassLayout("NSButtonCell", 57, [
            .one("ssIi@@@@@", "periodicDelay/NSPeriodicDelay", "periodicInterval/NSPeriodicInterval",
                 "keyEquivalentModifierMask", "buttonFlags/NSButtonFlags", "alternateTitle/NSAlternateContents",
                 "keyEquivalent/NSKeyEquivalent", "image/NSNormalImage", "alternateImage/NSAlternateImage", "sound"),
        ]),
    ] + [62, 63].map { version in
        ClassLayout("NSButtonCell", version, [
            .one("ssii@@@@@", "periodicDelay/NSPeriodicDelay", "periodicInterval/NSPeriodicInterval",
                 "buttonFlags2/NSButtonFlags2", "buttonFlags/NSButtonFlags", "alternateTitle/NSAlternateContents",
                 "keyEquivalent/NSKeyEquivalent", "image/NSNormalImage", "alternateImage/NSAlternateImage", "sound"),
        ])
    } + [61, 62].map { version in
        ClassLayout("NSTextFieldCell", version, [
            .one("c@@", "drawsBackground/NSDrawsBackground", "backgroundColor/NSBackgroundColor", "textColor/NSTextColor"),
        ])
    } + [
        ClassLayout("NSTableHeaderCell", 28, []),
        // `titleCell` is the NSCell that draws the title ("Name:") left of the field.
        ClassLayout("NSFormCell", 41, [
            .one("f@", "titleWidth/NSTitleWidth", "titleCell/NSTitleCell"),
        ]),
        // The order of `scaling` and `frameStyle` is read from the values (2, "none", on
        // pictures; 2, "gray bezel", on a photo well), not from a description.
        ClassLayout("NSImageCell", 41, [
            .one("iii", "alignment/NSAlign", "scaling/NSScale", "frameStyle/NSStyle"),
        ]),
        // The three integers are 0 or the tick mark count (10, 11, 17) then two 0/1 values,
        // taken as the tick mark position and whether values stop on tick marks.
        ClassLayout("NSSliderCell", 226, [
            .one("ddddiii", "maxValue/NSMaxValue", "minValue/NSMinValue", "value/NSValue", "altIncrementValue/NSAltIncValue",
                 "numberOfTickMarks/NSNumberOfTickMarks", "tickMarkPosition/NSTickMarkPosition",
                 "allowsTickMarkValuesOnly/NSAllowsTickMarkValuesOnly"),
        ]),
        // One stepper in the corpus: 0, 0, 90, 1 (the first two, both 0, could be the other way
        // round), then 0xC0000000 and four zeros.
        ClassLayout("NSStepperCell", 0, [
            .one("ddddiiiii", "value/NSValue", "minValue/NSMinValue", "maxValue/NSMaxValue", "increment/NSIncrement",
                 "flags", "reserved1", "reserved2", "reserved3", "reserved4"),
        ]),
        // `menuItem` is the item the cell draws; the second value is nil in every cell seen.
        ClassLayout("NSMenuItemCell", 210, [
            .one("@@", "menuItem/NSMenuItem", "reserved"),
        ]),
        // `flags` holds the pull-down and arrow settings; `selectedIndex` is -1 … 2 in the corpus.
        ClassLayout("NSPopUpButtonCell", 561, [
            .one("i@i", "flags", "menu/NSMenu", "selectedIndex"),
        ]),
        // A combo box that uses a data source (`usesDataSource` 1) writes the data source after
        // its list of items; one that does not writes no such group. `comboBox` is the cell's
        // NSComboBox in every nib seen.
        ClassLayout("NSComboBoxCell", 2, [
            .one("iccc", "visibleItemCount/NSVisibleItemCount", "hasVerticalScroller/NSHasVerticalScroller",
                 "usesDataSource/NSUsesDataSource", "completes/NSCompletes"),
            .one("@", "items/NSPopUpListData"),
            .one("@", "dataSource/NSDataSource"),
            .one("@", "comboBox"),
            .one("@", "buttonCell"),
            .one("@", "tableView"),
        ]),
        ClassLayout("NSComboBoxCell", 2, [
            .one("iccc", "visibleItemCount/NSVisibleItemCount", "hasVerticalScroller/NSHasVerticalScroller",
                 "usesDataSource/NSUsesDataSource", "completes/NSCompletes"),
            .one("@", "items/NSPopUpListData"),
            .one("@", "comboBox"),
            .one("@", "buttonCell"),
            .one("@", "tableView"),
        ]),
    ]

    /// Images, their pieces, cursors and paths.
    private static let images: [ClassLayout] = [
        // An image representation writes nothing of its own; a bitmap writes its TIFF data as
        // a data object (the length, then the bytes: "MM"/"II" TIFF in every rep seen).
        ClassLayout("NSImageRep", 17, []),
        ClassLayout("NSBitmapImageRep", 17, [
            .one("i", "tiffLength"),
            .one("[*c]", "tiffData/NSTIFFRepresentation"),
        ]),
        // NSDate has its own codec (DateObject); its layout here serves its subclass
        // NSCalendarDate, which adds its time zone and format.
        ClassLayout("NSDate", 0, [.one("d", "timeIntervalSinceReferenceDate/NS.time")]),
        ClassLayout("NSCalendarDate", 0, [
            .one("@", "timeZone/NS.timezone"),
            .one("@", "calendarFormat/NS.format"),
        ]),
        // Fourteen flag bytes (their meaning is not described here), the size, then as many
        // representations as `representationCount` says (1, with one NSBitmapImageRep, in
        // every image seen) and the background colour. The first and last objects are nil in
        // every image seen.
        ClassLayout("NSImage", 46, [
            .one("@", "name"),
            .one("c", "flag1"), .one("c", "flag2"), .one("c", "flag3"), .one("c", "flag4"), .one("c", "flag5"),
            .one("c", "flag6"), .one("c", "flag7"), .one("c", "flag8"), .one("c", "flag9"), .one("c", "flag10"),
            .one("c", "flag11"), .one("c", "flag12"), .one("c", "flag13"), .one("c", "flag14"),
            .one("ff", "width", "height"),
            .one("s", "representationCount"),
            .one("c", "flag15"),
            .counted("@", by: "representationCount", "representation"),
            .one("@", "backgroundColor"),
            .one("@", "reserved"),
        ]),
        // The image a button draws by name (`NSSwitch`, `NSRadioButton`).
        ClassLayout("NSButtonImageSource", 3, [
            .one("@", "imageName/NSImageName"),
        ]),
        // The two flag bytes are 0 in every cursor seen.
        ClassLayout("NSCursor", 17, [
            .one("ff", "hotSpotX", "hotSpotY"),
            .one("@", "image/NSImage"),
            .one("c", "flag1"),
            .one("c", "flag2"),
        ]),
        // One group per element (0 move, 1 line, 3 close path), then the path's settings. The
        // three integers and the last are 0 in every path seen, so the order of winding rule,
        // line cap and line join is not confirmed by the bytes.
        ClassLayout("NSBezierPath", 524, [
            .one("i", "elementCount"),
            .counted("cff", by: "elementCount", "elementType", "x", "y"),
            .one("iiifffi", "windingRule", "lineCapStyle", "lineJoinStyle", "lineWidth", "miterLimit", "flatness", "reserved"),
        ]),
    ]

    /// Formatters and the decimal numbers of their limits.
    private static let formatters: [ClassLayout] = [
        ClassLayout("NSFormatter", 0, []),
        ClassLayout("NSNumberFormatter", 4, [
            .one("@@@@@@@", "positiveFormat/NS.positiveformat", "negativeFormat/NS.negativeformat",
                 "positiveAttributes/NS.positiveattrs", "negativeAttributes/NS.negativeattrs",
                 "zeroSymbol/NS.zero", "nilSymbol/NS.nil", "notANumberSymbol/NS.nan"),
            .one("@@@@@ccc", "minimum/NS.min", "maximum/NS.max", "roundingBehavior/NS.rounding",
                 "decimalSeparator/NS.decimal", "thousandSeparator/NS.thousand",
                 "hasThousandSeparators/NS.hasthousands", "localizesFormat/NS.localized", "allowsFloats/NS.allowsfloats"),
        ]),
        ClassLayout("NSDateFormatter", 41, [
            .one("@c", "dateFormat/NS.format", "allowsNaturalLanguage/NS.natural"),
        ]),
        // An NSDecimal: exponent, length, sign, compactness, then the mantissa's 16-bit words.
        ClassLayout("NSDecimalNumberPlaceholder", 0, [
            .one("i", "exponent/NS.exponent"),
            .one("S", "length/NS.length"),
            .one("C", "isNegative/NS.negative"),
            .one("C", "isCompact/NS.compact"),
            .one("I", "mantissaCount"),
            .one("[8S]", "mantissa/NS.mantissa"),
        ]),
    ]

    /// Time zones.
    private static let values: [ClassLayout] = [
        // The zone's name (`US/Mountain`) and its tzfile data.
        ClassLayout("NSTimeZone", 1, [
            .one("@", "name/NS.name"),
            .one("@", "data/NS.data"),
        ]),
    ]
}
