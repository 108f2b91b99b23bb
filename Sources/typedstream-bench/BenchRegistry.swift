import ModelDocument
import TypedStream
import TypedStreamFoundation

/// The class registry the bench decodes with: the Foundation codecs plus ModelDocument's `Model`
/// reader for the current document version (the layout the `models` generator writes).
enum BenchRegistry {
    static let typed: ClassRegistry = ModelArchive.registry(for: .current)
}
