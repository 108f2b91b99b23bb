import Dispatch
import Foundation

/// Runs a function over many inputs on several threads and hands the results back in input
/// order, as soon as each prefix of the inputs is complete. Batch subcommands (`verify`,
/// `convert`) use it so that their output is the same whatever the number of threads.
///
/// ```swift
/// OrderedParallelMap.run(paths, jobs: 4, worker: { Cache() },
///                        work: { cache, path in check(path, &cache) },
///                        deliver: { index, result in print(result) },   // input order
///                        completed: { index, result in progress += 1 }) // completion order
/// ```
enum OrderedParallelMap {
    /// Applies `work` to every input with up to `jobs` threads. Each thread makes its own
    /// state with `worker` and hands it to every call of `work` it makes (what one input
    /// learns, such as compiled type strings, serves the next without locking). For each
    /// finished input, under one lock: first `deliver` is called for every result that is now
    /// next in input order, then `completed` for the finished one. Both callbacks run one at a
    /// time, never concurrently, so they may print and update counters freely. Returns when all
    /// are done.
    static func run<Input: Sendable, Output: Sendable, Worker>(
        _ inputs: [Input], jobs: Int,
        worker: @escaping @Sendable () -> Worker,
        work: @escaping @Sendable (inout Worker, Input) -> Output,
        deliver: @escaping (Int, Output) -> Void,
        completed: @escaping (Int, Output) -> Void = { _, _ in }
    ) {
        let state = State<Output>(count: inputs.count, deliver: deliver, completed: completed)
        let workers = max(1, min(jobs, inputs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            var local = worker()
            while let index = state.claim() {
                state.finish(index, work(&local, inputs[index]))
            }
        }
    }

    /// Shared bookkeeping, guarded by a lock.
    private final class State<Output>: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Output?]
        private var nextToClaim = 0
        private var nextToDeliver = 0
        private let deliver: (Int, Output) -> Void
        private let completed: (Int, Output) -> Void

        init(count: Int, deliver: @escaping (Int, Output) -> Void, completed: @escaping (Int, Output) -> Void) {
            results = Array(repeating: nil, count: count)
            self.deliver = deliver
            self.completed = completed
        }

        /// The next input index to work on, or `nil` when all are taken.
        func claim() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard nextToClaim < results.count else { return nil }
            defer { nextToClaim += 1 }
            return nextToClaim
        }

        /// Records a result and delivers every result that is now next in order.
        func finish(_ index: Int, _ output: Output) {
            lock.lock()
            defer { lock.unlock() }
            results[index] = output
            while nextToDeliver < results.count, let ready = results[nextToDeliver] {
                results[nextToDeliver] = nil
                deliver(nextToDeliver, ready)
                nextToDeliver += 1
            }
            completed(index, output)
        }
    }
}
