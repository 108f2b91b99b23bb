import TypedStream

/// The small limits the JSON importer's fuzz target (Tests/Fuzz/JSONImporterTarget.swift, which
/// `fuzz.sh` compiles with this file) checks its property with, beside the default limits: with
/// them, inputs of a few kilobytes reach every limit. The regression test of its finds uses the
/// same value.
public let jsonImporterFuzzLimits: DecodingLimits = {
    var limits = DecodingLimits()
    limits.maximumNesting = 16
    limits.maximumTypeNesting = 8
    limits.maximumObjects = 512
    limits.maximumSharedStrings = 256
    limits.maximumEmptyElementArray = 64
    limits.maximumClassNameLength = 24
    limits.maximumClassChainLength = 8
    limits.maximumInputSize = 8192
    return limits
}()
