import Foundation

/// Runs async work to completion from a thread outside Swift concurrency
/// (the host thread that called in). Never call it from a concurrency thread.
package enum Blocking {

    private final class Box<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<T, any Error>?

        func set(_ result: Result<T, any Error>) {
            lock.lock()
            value = result
            lock.unlock()
        }

        func get() -> Result<T, any Error> {
            lock.lock()
            defer { lock.unlock() }
            return value!
        }
    }

    package static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached(priority: .userInitiated) {
            do {
                box.set(.success(try await body()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return box.get()
    }
}
