import TypedStream

extension ClassLayouts {
    /// The graphics of NeXT's Draw example application, as a NeXTSTEP 1 Draw document holds
    /// them: the view that holds the drawing and its graphics (each a bounding rectangle and
    /// flags, root class `Object`).
    static let draw: [ClassLayout] = [
        ClassLayout("GraphicView", 0, [
            // `gridOrFlags` is 32 in the one document seen: presumably the grid spacing or the
            // view's flags; `gridGray` the grid's grey.
            .one("@sf", "graphics", "gridOrFlags", "gridGray"),
        ]),
        ClassLayout("Graphic", 0, [
            .one("ffffs", "boundsX", "boundsY", "boundsWidth", "boundsHeight", "graphicFlags"),
        ]),
        // Text drawn by a TextFieldCell (its contents are the text).
        ClassLayout("TextGraphic", 0, [
            .one("@", "cell"),
        ]),
    ]
}
