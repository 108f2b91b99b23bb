import Foundation

/// An album record for the keyed world: an `NSObject` with `NSSecureCoding`, archived by
/// Foundation's `NSKeyedArchiver` under the class name `Album` with the keys `title`, `artist`,
/// `genre` (absent when nil), `coverURL` and `year` — all strings.
///
/// ```swift
/// let album = Album(title: "Blue Train", artist: "John Coltrane", genre: "Jazz",
///                   coverURL: "https://example.com/covers/blue-train.jpg", year: "1957")
/// ```
public final class Album: NSObject, NSSecureCoding {
    /// `"Album"`, the class name written in archives.
    public static let className = "Album"
    /// The keys, as written.
    public enum Key {
        /// `title`.
        public static let title = "title"
        /// `artist`.
        public static let artist = "artist"
        /// `genre`.
        public static let genre = "genre"
        /// `coverURL`.
        public static let coverURL = "coverURL"
        /// `year`.
        public static let year = "year"
    }

    /// Album records decode only strings: secure coding holds.
    public static var supportsSecureCoding: Bool { true }

    /// The title.
    public let title: String
    /// The artist.
    public let artist: String
    /// The genre, if known.
    public let genre: String?
    /// The cover image's URL, as a string.
    public let coverURL: String
    /// The year, as a string ("1959").
    public let year: String

    /// Creates an album.
    public init(title: String, artist: String, genre: String? = nil, coverURL: String, year: String) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.coverURL = coverURL
        self.year = year
        super.init()
    }

    /// Writes the five keys (`genre` only when present).
    public func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: Key.title)
        coder.encode(artist as NSString, forKey: Key.artist)
        if let genre { coder.encode(genre as NSString, forKey: Key.genre) }
        coder.encode(coverURL as NSString, forKey: Key.coverURL)
        coder.encode(year as NSString, forKey: Key.year)
    }

    /// Reads the keys; `nil` (a failed decode) when a required string is missing.
    public init?(coder: NSCoder) {
        guard let album = try? Self.fields(from: CoderValues(coder: coder)) else { return nil }
        self.title = album.title
        self.artist = album.artist
        self.genre = album.genre
        self.coverURL = album.coverURL
        self.year = album.year
        super.init()
    }

    /// The album an archived object's keys hold. Throws ``ModelDocumentError`` `keyedArchive`
    /// when a required string is missing or a value is not a string.
    static func fields(from values: some KeyedValues) throws(ModelDocumentError) -> Album {
        Album(title: try values.requiredString(Key.title), artist: try values.requiredString(Key.artist),
              genre: try values.string(Key.genre), coverURL: try values.requiredString(Key.coverURL),
              year: try values.requiredString(Key.year))
    }

    /// Equal when all five values are.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Album else { return false }
        return title == other.title && artist == other.artist && genre == other.genre
            && coverURL == other.coverURL && year == other.year
    }

    /// Consistent with ``isEqual(_:)``.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(title); hasher.combine(artist); hasher.combine(genre); hasher.combine(coverURL); hasher.combine(year)
        return hasher.finalize()
    }

    /// "Kind of Blue — Miles Davis (1959, Jazz)".
    public override var description: String {
        "\(title) — \(artist) (\(year)\(genre.map { ", " + $0 } ?? ""))"
    }
}
