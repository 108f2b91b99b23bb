import TypedStream

extension ClassLayouts {
    /// Apple Grapher's document classes (`.gcx`): the definition tree, formats, values, the
    /// function pool and the operations behind the axes. Grapher writes a BOOL as `c` on macOS
    /// 10.14 and as `B` on macOS 13, so a class with BOOLs has both forms.
    static let grapherDocuments: [ClassLayout] = [
        ClassLayout("CPObject", 0, []),
        // A 3D affine transform (held as a nested archive in Grapher's settings): its twelve
        // reals, one group each, in the order written.
        ClassLayout("CP3DAffineTransform", 0, [.any("f", "elements")]),
        // An NSBezierPath subclass that writes nothing of its own.
        ClassLayout("CPBezierPath", 0, []),
        // A node of the document's definition tree.
        ClassLayout("CPTreeNode", 0, [
            .one("@", "parent"),
            .one("@", "object1"),    // nil in every node seen
            .one("@", "children"),   // an array of nodes
        ]),
        // The root of the tree: the 2D view, and the list of views (2D, then 3D).
        ClassLayout("CPDefinitionTree", 0, [
            .one("@", "view"),
            .one("@", "views"),
        ]),
        ClassLayout("CPDefinitionNode", 0, []),
        // The corpus has one equation node (from an empty document); the groups may partly belong
        // to CPDefinitionNode. The dictionaries are empty there and their meaning is unknown.
        ClassLayout("CPDefinitionEquation", 1, [
            .one("@", "dictionary1"),
            .one("@", "dictionary2"),
            .one("@", "equation"),   // an EQEquation
            .one("@", "object2"),    // nil in the one node seen
            .one("@", "dictionary3"),
            .one("@", "dictionary4"),
        ]),
        // A value of a GAttributeSet or a view's settings; adds nothing itself.
        ClassLayout("CPFormat", 0, []),
        // `value1` is 0, 1 or 3 (an arrow kind, by the look of it); `value2` 10 and `value3` 1
        // in every arrow seen.
        ClassLayout("CPArrow", 0, [
            .one("i", "value1"),
            .one("f", "value2"),
            .one("f", "value3"),
        ]),
        // `width` is the line width (0.2 and 0.3 for grid lines, 1.5 for curves); the other
        // values are 0 in every style seen.
        ClassLayout("CPLineStyle", 1, [
            .one("f", "width"),
            .one("i", "value1"),
            .one("i", "value2"),
            .one("i", "value3"),
            .one("f", "value4"),
        ]),
        ClassLayout("CPColoredFont", 0, [
            .one("@", "font"),
            .one("@", "color"),
        ]),
        // A gradient: `locations` (NSNumbers from 0 to 1) and one NSColor per location;
        // `value1` is 1 in every list seen.
        ClassLayout("CPColorList", 0, [
            .one("i", "value1"),
            .one("@", "locations"),
            .one("@", "colors"),
        ]),
        // A point in view coordinates (tick marks, grid points, a gradient's position).
        ClassLayout("CPPointValue", 0, [
            .one("ff", "x", "y"),
        ]),
        // A class, kept as a value (the operation class of a function, such as OPhplanck).
        ClassLayout("CPClassValue", 0, [
            .one("#", "valueClass"),
        ]),
        // The 3D view's lights (one dictionary per light: AmbientColor, DiffuseColor, Enable,
        // XPosition …) and the surface's `material` (SpecularColor, Shininess …).
        ClassLayout("CPView3DLighting", 0, [
            .one("@", "lights"),
            .one("@", "material"),
        ]),
        // The drawing attributes of a graph object: a dictionary keyed GAttributeLineStyle,
        // GAttributeTraitColor, GAttributeTraitWidth …
        ClassLayout("GAttributeSet", 0, [
            .one("@", "attributes"),
        ]),
    ]
    + withBoolVariants("CPNumberFormat", 1, [
        // How numbers are shown; the values look like the document's DefaultNumber… settings
        // (digits 4, remove trailing zeros …) but which is which is not known.
        .one("f", "value1"),
        .one("I", "value2"),
        .one("c", "flag1"),
        .one("I", "value3"),
        .one("i", "value4"),
        .one("c", "flag2"),
        .one("c", "flag3"),
    ])

    /// Grapher's functions (built-in ones such as `sin`, constants such as `π`, the axis
    /// variables), their pool, and the operations and results behind the axes.
    static let grapherFunctions: [ClassLayout] = [
        // `argumentCount` is 0 for constants and variables, 1 for sin, 2 for atan2 and 32000
        // for functions of any number of arguments (min, max, hypot). `operation` is the class
        // that computes the function (a CPClassValue) or, for a variable, its OPAxis.
        ClassLayout("FFunction", 0, [
            .one("@", "name"),           // "sin", "π", "J" …; "x" for a variable
            .one("@", "value1"),         // an NSNumber, 0 in every function seen
            .one("i", "argumentCount"),
            .one("i", "value2"),         // 0 in every function seen
            .one("i", "value3"),         // 0 in every function seen
            .one("@", "operation"),
        ]),
        ClassLayout("FSimple", 0, []),
        ClassLayout("FConstant", 0, []),
        ClassLayout("FDouble", 0, []),
        ClassLayout("FMultiple", 0, []),
        ClassLayout("FSimpleWithIndex", 0, []),
        ClassLayout("FBessel", 0, []),
        ClassLayout("FEn", 0, []),
        ClassLayout("FLegendrePolynomial", 0, []),
        ClassLayout("FSphericalHarmonic", 0, []),
        // The functions a space knows.
        ClassLayout("FPool", 0, [
            .one("@", "functions"),
        ]),
        // Only OPAxis occurs in the corpus, so what its superclasses write is not visible.
        ClassLayout("OPOperation", 0, []),
        ClassLayout("OPStatic", 0, []),
        ClassLayout("OPAxis", 0, [
            .one("@", "list1"),      // an empty array in every axis seen
            .one("@", "result"),     // its OPResult
            .one("@", "object1"),    // nil in every axis seen
            .one("@", "object2"),    // nil in every axis seen
        ]),
    ]
    + withBoolVariants("FVariable", 1, [
        .one("@", "axis"),           // the graph axis of the variable (a GAbscissa2D …)
        .one("c", "flag1"),          // 0 in every variable seen
    ])
    + withBoolVariants("OPResult", 0, [
        // The values after `objects` are the same in every result seen: flags 0, 1, 0, the
        // integer 1, two NSNumbers of 1 and two doubles 0.
        .one("@", "operation"),      // the OPAxis it belongs to
        .one("@", "objects"),        // the graph axis using it
        .one("c", "flag1"),
        .one("i", "value1"),
        .one("c", "flag2"),
        .one("c", "flag3"),
        .one("@", "number1"),
        .one("@", "number2"),
        .one("d", "value2"),
        .one("d", "value3"),
    ])

    /// Grapher's typeset equations (the axis labels' `x`, `θ`, `r_{0}` …): zones laid out as
    /// lines, characters and scripts.
    static let grapherEquations: [ClassLayout] = [
        // Every zone: its parent zone, position and size (`_NSPoint`, `_NSSize`), children.
        ClassLayout("EQZone", 1, [
            .one("@", "parent"),
            .one("{_NSPoint=ff}", "point"),
            .one("@", "children"),   // an array of zones; nil for a character
            .one("{_NSSize=ff}", "size"),
            .one("f", "value1"),     // 11.25 at the base level, 8.125 or 7.5 inside a script: a size
            .one("I", "value2"),     // 1 in every zone seen
            .one("I", "value3"),     // 2 inside a script, 1 elsewhere
            .one("I", "value4"),     // 1 in every zone seen
            .one("@", "object1"),    // nil in every zone seen
        ]),
        ClassLayout("EQLine", 0, []),
        ClassLayout("EQChar", 0, [
            .one("S", "character"),  // a UTF-16 code unit: 120 "x", 952 "θ" …
            .one("I", "charValue"),  // 0 in every character seen
            .one("@", "list1"),      // an empty array in every character seen
        ]),
        ClassLayout("EQScript", 0, [
            .one("I", "scriptValue"), // 1 in both scripts seen (subscripts: r_{0})
        ]),
        ClassLayout("EQEquation", 0, [
            .one("@", "line"),       // the top EQLine
            .one("@", "list1"),      // an empty array in every equation seen
        ]),
        // An equation with its text attributes (EquationColor, EquationFont, EquationSize).
        ClassLayout("EQAttributedEquation", 1, [
            .one("@", "attributes"),
        ]),
    ]
}
