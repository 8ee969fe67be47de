import Foundation

/// One tool call waiting for the host: resumed exactly once, with the
/// host's result, or with CancellationError when the answer is cancelled or
/// over before the host took the call.
package final class ToolCallSlot: @unchecked Sendable {

    private enum State {
        case empty
        case waiting(CheckedContinuation<String, any Error>)
        case claimed(CheckedContinuation<String, any Error>)
        case done
    }

    private let lock = NSLock()
    private var state = State.empty
    private var cancelledEarly = false

    package init() {}

    /// Registers the continuation; resumes it at once when the call was cancelled before.
    package func install(_ continuation: CheckedContinuation<String, any Error>) {
        lock.lock()
        if cancelledEarly {
            state = .done
            lock.unlock()
            continuation.resume(throwing: CancellationError())
            return
        }
        state = .waiting(continuation)
        lock.unlock()
    }

    /// The host thread takes the call; false when it was cancelled meanwhile.
    package func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .waiting(let continuation) = state {
            state = .claimed(continuation)
            return true
        }
        return false
    }

    /// Ends a claimed call.
    package func finish(_ result: Result<String, any Error>) {
        lock.lock()
        guard case .claimed(let continuation) = state else {
            lock.unlock()
            return
        }
        state = .done
        lock.unlock()
        continuation.resume(with: result)
    }

    /// Ends the call with CancellationError unless the host is running it
    /// (then the host's result ends it when its callback returns).
    package func cancelUnlessClaimed() {
        lock.lock()
        switch state {
        case .empty:
            cancelledEarly = true
            lock.unlock()
        case .waiting(let continuation):
            state = .done
            lock.unlock()
            continuation.resume(throwing: CancellationError())
        case .claimed, .done:
            lock.unlock()
        }
    }
}

/// Why a tool call failed on the host's side.
package struct HostToolFailure: Error, CustomStringConvertible, Equatable {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}
