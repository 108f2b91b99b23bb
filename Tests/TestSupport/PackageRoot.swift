import Foundation

/// Where the package is on disk, worked out once from this file's own path
/// (`Tests/TestSupport/PackageRoot.swift`), so tests find `Samples/` and the shared corpus
/// whatever folder `swift test` runs in.
public enum PackageRoot {
    /// The package root: the folder holding `Package.swift`.
    public static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .standardizedFileURL

    /// The package root as a path.
    public static var path: String { url.path }

    /// The package's own sample archives (`Samples/`), always present.
    public static var samples: URL { url.appendingPathComponent("Samples") }
}
