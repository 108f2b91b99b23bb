import TypedStream

extension ClassLayouts {
    /// The classes of applications' own documents (not AppKit's): OsiriX's regions of interest
    /// and Apple Grapher's graph documents (`.gcx`), as the corpus holds them.
    ///
    /// These classes have no public documentation. Their layouts are read from the corpus bytes
    /// (every instance and version compared) and, for OsiriX, from the order its public source
    /// writes. A name says what a value is where the data shows it (coordinates, a name string, a
    /// child list); elsewhere the name is neutral (`value1`, `flag1`) and a comment says what was
    /// seen. Where several classes of one chain write groups that only one chain in the corpus
    /// shows, the groups are given to the most derived class every object holding them shares.
    static let applications: [ClassLayout] = osiriX + grapherDocuments + grapherFunctions + grapherGraphs + grapherEquations

    /// OsiriX (the DICOM viewer): a region of interest drawn on an image, with its points.
    static let osiriX: [ClassLayout] = [
        // One point of a region's outline, written as `NSStringFromPoint` ("{294.275, 313.361}").
        ClassLayout("MyPoint", 0, [
            .one("@", "point"),
        ]),
        // ROI version 11 writes each value as an object (an NSNumber of a float unless said).
        // Texture regions write nine more groups after `pixelSpacingY` and layer regions one more
        // after `groupID`; the corpus has neither, so those stay generic.
        ClassLayout("ROI", 11, [
            .one("@", "points"),                 // an array of MyPoint
            .one("@", "rect"),                   // NSStringFromRect
            .one("@", "type"),                   // the region's kind (15 in every region seen)
            .one("@", "needQuartz"),
            .one("@", "thickness"),
            .one("@", "fill"),
            .one("@", "opacity"),
            .one("@", "colorRed"),               // 0…65535
            .one("@", "colorGreen"),
            .one("@", "colorBlue"),
            .one("@", "name"),
            .one("@", "comments"),
            .one("@", "pixelSpacingX"),
            .one("@", "imageOrigin"),            // NSStringFromPoint
            .one("@", "pixelSpacingY"),
            .one("@", "zPositions"),             // an array of NSNumber
            .one("@", "offsetTextBoxX"),
            .one("@", "offsetTextBoxY"),
            .one("@", "calciumThreshold"),       // an NSNumber of an int
            .one("@", "displayCalciumScoring"),  // NSNumbers of a BOOL from here on, unless said
            .one("@", "groupID"),                // an NSNumber of a double
            .one("@", "textualBoxLine1"),        // strings, nil when not set
            .one("@", "textualBoxLine2"),
            .one("@", "textualBoxLine3"),
            .one("@", "textualBoxLine4"),
            .one("@", "textualBoxLine5"),
            .one("@", "isLayerOpacityConstant"),
            .one("@", "canColorizeLayer"),
            .one("@", "layerColor"),             // an NSColor or nil
            .one("@", "displayTextualData"),
            .one("@", "canResizeLayer"),
            .one("@", "selectable"),
            .one("@", "locked"),
            .one("@", "isAliased"),
            .one("@", "isSpline"),
            .one("@", "hasIsSpline"),
        ]),
    ]

    /// The layout as Grapher writes its BOOLs: `c` (macOS 10.14) or `B` (macOS 13); the two
    /// layouts are the same otherwise.
    static func withBoolVariants(_ className: String, _ version: Int64, _ steps: [ClassLayout.Step]) -> [ClassLayout] {
        let withB = steps.map { step in
            ClassLayout.Step(String(step.typeString.map { $0 == "c" ? "B" : $0 }), step.fields.map(\.name), step.repetition)
        }
        return [ClassLayout(className, version, steps), ClassLayout(className, version, withB)]
    }
}
