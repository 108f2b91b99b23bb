// swift-tools-version:6.0
// swift-typedstream: read, check, repair and convert NSArchiver / NXTypedStream archives.
import PackageDescription

let package = Package(
    name: "swift-typedstream",
    products: [
        .library(name: "ObjCTypeEncoding", targets: ["ObjCTypeEncoding"]),
        .library(name: "TypedStream", targets: ["TypedStream"]),
        .library(name: "TypedStreamFoundation", targets: ["TypedStreamFoundation"]),
        .library(name: "TypedStreamCodable", targets: ["TypedStreamCodable"]),
        .library(name: "TypedStreamExport", targets: ["TypedStreamExport"]),
        .library(name: "ModelDocument", targets: ["ModelDocument"]),
        .executable(name: "typedstream", targets: ["typedstream"]),
        .executable(name: "typedstream-bench", targets: ["typedstream-bench"]),
    ],
    targets: [
        // `@encode` type strings: parse, print, split, sizes. Standard library only.
        .target(name: "ObjCTypeEncoding"),
        // The wire (tokens), the lossless archive graph and the ordered coder. Standard library only
        // (libm for float rounding).
        .target(name: "TypedStream", dependencies: ["ObjCTypeEncoding"], linkerSettings: [.linkedLibrary("m")]),
        // Class codecs: Foundation, AppKit and NeXTSTEP classes; bridges to Foundation values.
        .target(name: "TypedStreamFoundation", dependencies: ["ObjCTypeEncoding", "TypedStream"]),
        // Codable over the ordered coder.
        .target(name: "TypedStreamCodable", dependencies: ["TypedStream", "TypedStreamFoundation"]),
        // JSON (lossless and plain), keyed-archive plists, annotated hex dumps.
        .target(name: "TypedStreamExport", dependencies: ["ObjCTypeEncoding", "TypedStream", "TypedStreamFoundation"]),
        // The users' Model records and their documents.
        .target(name: "ModelDocument", dependencies: ["ObjCTypeEncoding", "TypedStream", "TypedStreamFoundation", "TypedStreamExport"]),
        // The command-line program's subcommands and argument layer.
        .target(name: "TypedStreamTool", dependencies: ["TypedStream", "ObjCTypeEncoding", "TypedStreamFoundation", "TypedStreamExport", "ModelDocument"]),
        .executableTarget(name: "typedstream", dependencies: ["TypedStreamTool"]),
        .executableTarget(name: "typedstream-bench", dependencies: ["ObjCTypeEncoding", "TypedStream", "TypedStreamFoundation", "TypedStreamExport", "ModelDocument"]),
        // What the test targets share: the package root, the shared corpus's location, the
        // seeded generator, golden-file regeneration. Foundation only.
        .target(name: "TestSupport", dependencies: ["TypedStream"], path: "Tests/TestSupport"),
        .testTarget(name: "ObjCTypeEncodingTests", dependencies: ["ObjCTypeEncoding"]),
        .testTarget(name: "TypedStreamTests", dependencies: ["TestSupport", "TypedStream"]),
        .testTarget(name: "TypedStreamFoundationTests", dependencies: ["TestSupport", "TypedStreamFoundation"]),
        .testTarget(name: "TypedStreamCodableTests", dependencies: ["TypedStreamCodable", "TypedStreamFoundation"]),
        .testTarget(name: "TypedStreamExportTests", dependencies: ["TestSupport", "TypedStreamExport"], exclude: ["Golden"]),
        .testTarget(name: "ModelDocumentTests", dependencies: ["TestSupport", "ModelDocument"]),
        .testTarget(name: "TypedStreamToolTests", dependencies: ["TestSupport", "TypedStreamTool", "TypedStream", "TypedStreamFoundation", "TypedStreamExport", "ModelDocument"], exclude: ["Golden"]),
    ]
)
