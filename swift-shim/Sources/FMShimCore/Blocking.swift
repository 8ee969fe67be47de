import Foundation

/// Runs async work to completion from a thread outside Swift concurrency
/// (the host thread that called in), for at most a deadline. Never call it
/// from a concurrency thread.
package enum Blocking {

    /// The work did not finish before its deadline: it was cancelled, and what it still produces is dropped.
    package struct TimedOut: Error, CustomStringConvertible {
        package let seconds: TimeInterval

        package var description: String {
            "did not finish within \(Int(seconds.rounded(.up))) s"
        }
    }

    private final class Box<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<T, any Error>?

        func set(_ result: Result<T, any Error>) {
            lock.lock()
            value = result
            lock.unlock()
        }

        func get() -> Result<T, any Error>? {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    /// The result of body, or TimedOut when it has not finished `seconds` after the start.
    package static func run<T: Sendable>(deadline seconds: TimeInterval,
                                         _ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        let task = Task.detached(priority: .userInitiated) {
            do {
                box.set(.success(try await body()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            task.cancel()
            return .failure(TimedOut(seconds: seconds))
        }
        return box.get() ?? .failure(TimedOut(seconds: seconds))
    }
}
