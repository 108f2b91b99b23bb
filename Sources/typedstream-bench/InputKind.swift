/// The kinds of input the bench generates and measures.
enum InputKind: String, CaseIterable, Sendable {
    /// An `NSArray` of many short `NSString`s.
    case strings
    /// An `NSArray` of `NSDictionary`s string → `NSNumber` whose keys are shared instances
    /// (written once, then referenced).
    case dicts
    /// An `NSArray` of `NSAttributedString`s shaped like iMessage bodies.
    case attributed
    /// An `NSArray` of large `NSData` blobs.
    case data
    /// A Model document: an `NSMutableArray` of `Model` records.
    case models
    /// Many separate small archives (iMessage bodies of 100–400 bytes), decoded one by one.
    case blobs

    /// The kinds made of one archive per size.
    static let sized: [InputKind] = [.strings, .dicts, .attributed, .data, .models]

    /// What the input holds, for the report.
    var summary: String {
        switch self {
        case .strings: "NSArray of short NSStrings"
        case .dicts: "NSArray of NSDictionary string → NSNumber, shared key strings"
        case .attributed: "NSArray of iMessage-like NSAttributedStrings (1–4 runs)"
        case .data: "NSArray of large NSData blobs (16–256 KiB)"
        case .models: "NSMutableArray of ModelDocument Model records (@ @ {?=ffff} I i i)"
        case .blobs: "separate iMessage-like archives of 100–400 bytes, decoded one by one"
        }
    }

    /// A per-kind constant mixed into the seed, so each kind draws its own sequence.
    var stream: UInt64 {
        switch self {
        case .strings: 1
        case .dicts: 2
        case .attributed: 3
        case .data: 4
        case .models: 5
        case .blobs: 6
        }
    }
}

/// One generated input, as written to the inputs folder.
struct BenchInput: Sendable {
    /// Its kind.
    var kind: InputKind
    /// The requested size in MB (0 for blobs).
    var targetMB: Double
    /// The file it was written to.
    var path: String
    /// How many archives it holds (1, or the number of blobs).
    var archiveCount: Int
    /// Its bytes (all archives together, without the blob container's length prefixes).
    var totalBytes: Int
    /// Literal objects in its object table(s).
    var objects: Int
    /// Seconds the generator took (Archiver included).
    var generationSeconds: Double

    /// "1 MB", or "50000 blobs" for blobs.
    var sizeLabel: String {
        if kind == .blobs { return "\(archiveCount) × 100–400 B" }
        return "\(formatMB(targetMB)) MB"
    }
}

/// "1", "0.25", "10".
func formatMB(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}
