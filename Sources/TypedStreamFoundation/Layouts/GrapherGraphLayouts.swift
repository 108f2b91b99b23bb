import TypedStream

extension ClassLayouts {
    /// Grapher's graphs: the views (2D, 3D), their space, coordinate systems, scales, and the
    /// drawing objects (frames, grids, axes). A rectangle written as `ffff` is x, y, width,
    /// height; in 2D documents every such rectangle seen is the view's drawing area (0, 0, width,
    /// height), in 3D ones it is zero.
    static let grapherGraphs: [ClassLayout] = grapherViews + grapherSystems + grapherDrawingObjects

    /// Views, spaces and scales.
    static let grapherViews: [ClassLayout] = [
        // The space of a view: its coordinate systems (cartesian, polar …), its frame, and the
        // pool of functions it knows.
        ClassLayout("GSpace", 1, [
            .one("@", "view"),
            .one("@", "systems"),
            .one("@", "frame"),
            .one("@", "functionPool"),
        ]),
        ClassLayout("GView2D", 0, [
            .one("f", "value1"),     // 0 in every view seen
            .one("f", "value2"),     // 0 in every view seen
            .one("f", "value3"),     // 0 in every view seen
            .one("f", "value4"),     // 0 in every view seen
        ]),
        // The 3D settings: LineSmooth, Lighting (a CPView3DLighting), BackgroundTopColor …
        ClassLayout("GView3D", 0, [
            .one("@", "attributes3D"),
        ]),
        // A scale: the range a view shows. `object1` is nil in every scale seen; `name` is
        // "Lin-Lin Scale", "Log-Lin Scale" ….
        ClassLayout("GScale", 0, [
            .one("@", "view"),
            .one("@", "object1"),
            .one("@", "name"),
        ]),
        ClassLayout("GScale2D", 0, []),
        ClassLayout("GScale3D", 0, []),
        // 0.5, 0.5 twice and 0 in both scales seen.
        ClassLayout("GRadialLogScale2D", 0, [
            .one("ff", "value1", "value2"),
            .one("ff", "value3", "value4"),
            .one("d", "value5"),
        ]),
    ]
    + withBoolVariants("GView", 2, [
        .one("ffff", "rect1X", "rect1Y", "rect1Width", "rect1Height"),
        .one("ffff", "rect2X", "rect2Y", "rect2Width", "rect2Height"),
        .one("@", "dimension"),      // an NSNumber: 2 or 3
        .one("@", "space"),
        .one("@", "definitionTree"),
        .one("@", "drawingObjects"), // grids, axes, the frame
        .one("@", "scales"),
        .one("@", "scale"),          // the scale in use (one of `scales`)
        .one("c", "flag1"),          // 0 in the 2D views seen, 1 in the 3D ones
        .one("@", "backgroundAttributes"), // BackgroundColor, BackgroundGradient, BackgroundType …
    ])
    // The range of each axis, and whether each axis is logarithmic ("Lin-Log Scale": x linear,
    // y logarithmic).
    + withBoolVariants("GCartesianScale2D", 0, [
        .one("d", "xMinimum"), .one("d", "xMaximum"),
        .one("d", "yMinimum"), .one("d", "yMaximum"),
        .one("c", "isXLogarithmic"), .one("c", "isYLogarithmic"),
    ])
    + withBoolVariants("GCartesianScale3D", 0, [
        .one("d", "xMinimum"), .one("d", "xMaximum"),
        .one("d", "yMinimum"), .one("d", "yMaximum"),
        .one("d", "zMinimum"), .one("d", "zMaximum"),
        .one("c", "isXLogarithmic"), .one("c", "isYLogarithmic"), .one("c", "isZLogarithmic"),
    ])

    /// Coordinate systems: cartesian, polar, cylindrical, spherical.
    static let grapherSystems: [ClassLayout] = [
        ClassLayout("GSystem", 0, [
            .one("@", "space"),
            .one("@", "grid"),
            .one("@", "axes"),
            .one("@", "dimension"),  // an NSNumber: 2 or 3
        ]),
        ClassLayout("GCartesian2D", 0, []),
        ClassLayout("GPolar2D", 0, []),
        ClassLayout("GCartesian3D", 0, []),
        ClassLayout("GCylindrical3D", 0, []),
        ClassLayout("GSpherical3D", 0, []),
    ]
    // One flag per axis, 0 in every system seen.
    + withBoolVariants("GSystem2D", 0, [
        .one("c", "flag1"), .one("c", "flag2"),
    ])
    + withBoolVariants("GSystem3D", 0, [
        .one("c", "flag1"), .one("c", "flag2"), .one("c", "flag3"),
    ])

    /// What a view draws: its frame, grids and axes.
    static let grapherDrawingObjects: [ClassLayout] = [
        ClassLayout("GObject", 0, []),
        ClassLayout("GFrame", 0, []),
        ClassLayout("GFrame2D", 0, []),
        ClassLayout("GFrame3D", 0, []),
        // A grid: its coordinate system and one NSNumber (a BOOL, true in every grid seen) per
        // axis.
        ClassLayout("GGrid", 0, [
            .one("@", "system"),
            .one("@", "axisFlags"),
        ]),
        // The grid's points (CPPointValues); empty for a hidden grid.
        ClassLayout("GGrid2D", 1, [
            .one("@", "points"),
        ]),
        ClassLayout("GGrid3D", 0, []),
        // A 2D axis: its drawn line and its tick marks (CPPointValues).
        ClassLayout("GAxis2D", 1, [
            .one("@", "path"),       // a CPBezierPath; nil for a hidden axis
            .one("@", "tickPoints"),
        ]),
        ClassLayout("GAxis3D", 0, []),
        // The axis line from its start to its end point in view coordinates, its length, and a
        // unit vector perpendicular to it.
        ClassLayout("GLinearAxis2D", 0, [
            .one("ff", "startX", "startY"),
            .one("ff", "endX", "endY"),
            .one("f", "length"),
            .one("ff", "vectorX", "vectorY"),
        ]),
        ClassLayout("GLinearAxis3D", 0, []),
        ClassLayout("GAbscissa2D", 0, []),
        ClassLayout("GOrdinate2D", 0, []),
        ClassLayout("GRadialAxis2D", 0, []),
        ClassLayout("GAngularAxis2D", 0, []),
        ClassLayout("GAbscissa3D", 0, []),
        ClassLayout("GOrdinate3D", 0, []),
        ClassLayout("GHeight3D", 0, []),
        ClassLayout("GPolarRadial3D", 0, []),
        ClassLayout("GPolarAngular3D", 0, []),
        ClassLayout("GRadial3D", 0, []),
        ClassLayout("GAzimuthAngular3D", 0, []),
    ]
    // Every frame, grid and axis seen writes these groups (the corpus does not show which of
    // CPObject, GObject and GDrawingObject writes which). `isVisible` is 1 for the objects a new
    // document shows (cartesian grid and axes, the frame) and 0 for the polar ones, whose 2D
    // `path` is nil.
    + withBoolVariants("GDrawingObject", 0, [
        .one("@", "view"),
        .one("c", "flag1"),          // 0 in every object seen
        .one("c", "isVisible"),
        .one("@", "attributes"),     // a GAttributeSet
        .one("@", "name"),           // a localization key: "2D_ABSCISSA_AXIS_NAME" …
        .one("ffff", "rect1X", "rect1Y", "rect1Width", "rect1Height"),
        .one("ffff", "rect2X", "rect2Y", "rect2Width", "rect2Height"),
        .one("ffff", "rect3X", "rect3Y", "rect3Width", "rect3Height"),
        .one("c", "flag2"),          // 0 in every object seen
        .one("ffff", "rect4X", "rect4Y", "rect4Width", "rect4Height"), // zero in every object seen
        .one("@", "path"),           // an NSBezierPath (2D only); nil when hidden
        .one("@", "object1"),        // nil in every object seen
        .one("@", "object2"),        // nil in every object seen
    ])
    // Every axis: its system, its variable ("x", "θ", "r_{0}" …, the name its FVariable has)
    // with the typeset label, and its range. The other values are numbers whose meaning the
    // corpus does not show: `axisValue2` is 1 for linear axes and π for angular ones,
    // `axisValue3` 0.25…5 (a spacing, by the look of it); `axisNumber1` and `axisNumber2` are
    // shared NSNumbers of the document's settings.
    + withBoolVariants("GAxis", 0, [
        .one("@", "system"),
        .one("@", "variable"),
        .one("@", "label"),          // an EQAttributedEquation
        .one("d", "minimum"),
        .one("d", "maximum"),
        .one("d", "axisValue1"),     // 0 in every axis seen
        .one("c", "axisFlag1"),      // 0 in every axis seen
        .one("@", "operation"),      // an OPAxis
        .one("c", "axisFlag2"),      // 1 in every axis seen
        .one("d", "axisValue2"),
        .one("@", "axisNumber1"),
        .one("d", "axisValue3"),
        .one("@", "axisNumber2"),
        .one("d", "axisValue4"),
        .one("d", "axisValue5"),
        .one("d", "axisValue6"),
        .one("d", "axisValue7"),
        .one("d", "axisValue8"),     // 0 in every axis seen
        .one("d", "axisValue9"),     // 0 in every axis seen
    ])
}
