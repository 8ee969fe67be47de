import FMShimC
import Foundation

/// The queue between an answer's Swift Task, which produces events and tool
/// requests, and the host thread blocked in fmshim_session_respond, which
/// drains it and runs every callback. The Task never waits for the host on a
/// thread: a tool call suspends on a continuation that the host thread resumes.
final class Pump: @unchecked Sendable {

    enum Item: Sendable {
        /// An answer event for the host's event callback.
        case event(kind: Int32, bytes: [UInt8])
        /// A call of the host's tool; the slot gets its result.
        case toolCall(arguments: String, slot: ToolCallSlot)
        /// The end of the answer; always the Task's last item.
        case finished(status: Int32, detail: String)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var closed = false

    /// Queues an item; false once the host has stopped draining.
    @discardableResult
    func post(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if closed {
            return false
        }
        items.append(item)
        condition.signal()
        return true
    }

    /// The next item, waiting for one. Called by the host thread only.
    func next() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty {
            condition.wait()
        }
        return items.removeFirst()
    }

    /// Refuses further items and returns those not drained.
    func close() -> [Item] {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        let rest = items
        items = []
        return rest
    }
}

/// One tool call waiting for the host: resumed exactly once, with the
/// host's result or with an error when the answer is cancelled or over.
final class ToolCallSlot: @unchecked Sendable {

    private enum State {
        case empty
        case waiting(CheckedContinuation<String, any Error>)
        case claimed(CheckedContinuation<String, any Error>)
        case done
    }

    private let lock = NSLock()
    private var state = State.empty
    private var cancelledEarly = false

    /// Registers the continuation; resumes it at once when the call was cancelled before.
    func install(_ continuation: CheckedContinuation<String, any Error>) {
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
    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .waiting(let continuation) = state {
            state = .claimed(continuation)
            return true
        }
        return false
    }

    /// Ends a claimed call.
    func finish(_ result: Result<String, any Error>) {
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
    func cancelUnlessClaimed() {
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
