import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Runs the test only when the shared real-archive corpus is present (``SharedCorpus``);
    /// a run without it lists the test as skipped, with the reason.
    static var needsCorpus: Self { .enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingReason)) }
}
