import Foundation

/// Checked-in expected outputs (golden files, sample archives and documents): tests compare
/// what the code makes now with them, and rewrite them instead when the environment variable
/// `TYPEDSTREAM_REGENERATE_GOLDEN` is `1`:
///
///     TYPEDSTREAM_REGENERATE_GOLDEN=1 swift test --filter …
///     git diff            # review every change before committing it
public enum Golden {
    /// The environment variable that turns comparison into regeneration.
    public static let environmentVariable = "TYPEDSTREAM_REGENERATE_GOLDEN"

    /// Whether this run rewrites the expected files instead of comparing with them.
    public static let isRegenerating: Bool = ProcessInfo.processInfo.environment[environmentVariable] == "1"

    /// How to regenerate, for failure messages: `TYPEDSTREAM_REGENERATE_GOLDEN=1 swift test --filter FILTER`.
    public static func howToRegenerate(filter: String) -> String {
        "\(environmentVariable)=1 swift test --filter \(filter), then review git diff"
    }
}
