/// The text forms of points, sizes and rectangles that `NSStringFromPoint`, `NSStringFromSize`
/// and `NSStringFromRect` give, and that keyed archives store (`NS.pointval`, `NS.rectval`,
/// a record form's rectangles): `"{x, y}"`, `"{w, h}"` and `"{{x, y}, {w, h}}"`.
///
/// Integral numbers print without a fraction (`"{{0, 0}, {100, 50}}"`), as Apple's `%g` does.
/// Other numbers print as the shortest decimal that reads back to the same value *at the width
/// it was archived with*: a `float` 0.1 prints `0.1`, not `0.10000000149011612`. Apple prints up
/// to 17 significant digits of the `CGFloat`; `NSPointFromString` / `NSRectFromString` read both.
public enum GeometryText {
    /// One coordinate. `isFloat` says the value was archived as a 32-bit `float`.
    /// Floats print integral values below 10⁷ as integers and others (with `-0.0`, `nan` and
    /// `inf`) as Swift prints them; doubles the same with integers below 10¹⁵.
    public static func number(_ value: Double, isFloat: Bool = false) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < (isFloat ? 1e7 : 1e15), !(value == 0 && value.sign == .minus) {
            return String(Int64(value))
        }
        return isFloat ? Float(value).description : value.description
    }

    /// `"{x, y}"`.
    public static func point(x: Double, y: Double, isFloat: Bool = false) -> String {
        "{\(number(x, isFloat: isFloat)), \(number(y, isFloat: isFloat))}"
    }

    /// `"{width, height}"`.
    public static func size(width: Double, height: Double, isFloat: Bool = false) -> String {
        point(x: width, y: height, isFloat: isFloat)
    }

    /// `"{{x, y}, {width, height}}"`.
    public static func rect(x: Double, y: Double, width: Double, height: Double, isFloat: Bool = false) -> String {
        "{\(point(x: x, y: y, isFloat: isFloat)), \(size(width: width, height: height, isFloat: isFloat))}"
    }

    /// The numbers of a point, size or rectangle text, in order (2 or 4 of them); `nil` when
    /// the text is not made of braces, commas, spaces and numbers.
    public static func numbers(in text: String) -> [Double]? {
        var result: [Double] = []
        var current = ""
        func flush() -> Bool {
            guard !current.isEmpty else { return true }
            guard let value = Double(current) else { return false }
            result.append(value)
            current = ""
            return true
        }
        for c in text {
            switch c {
            case "{", "}", ",", " ":
                guard flush() else { return nil }
            default:
                current.append(c)
            }
        }
        guard flush(), result.count == 2 || result.count == 4 else { return nil }
        return result
    }
}
