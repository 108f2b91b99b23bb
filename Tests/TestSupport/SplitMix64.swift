import Foundation

/// SplitMix64: a small seeded generator, so random tests can be replayed from their seed.
/// Standard-library randomness is not seedable; this is the one generator the tests share.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Seeds for randomized tests: from an environment variable when set (to replay a run), else
/// `fallback`; printed either way, with how to replay it.
public enum TestSeed {
    /// The seed for `label`, read from the environment variable `variable` when it holds a
    /// number, else `fallback()`; prints `label seed: N (replay with VARIABLE=N)`.
    public static func resolve(_ variable: String, label: String, fallback: () -> UInt64 = { UInt64.random(in: 1...UInt64.max) }) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment[variable].flatMap { UInt64($0) } ?? fallback()
        print("\(label) seed: \(seed) (replay with \(variable)=\(seed))")
        return seed
    }
}
