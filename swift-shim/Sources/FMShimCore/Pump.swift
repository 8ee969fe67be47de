import FMShimC
import Foundation

/// The queue between an answer's generation (a Swift Task), which produces
/// events and tool requests, and the host thread blocked in
/// fmshim_session_respond, which drains it and runs every callback. The
/// generation never waits for the host on a thread: a tool call suspends on a
/// continuation that the host thread resumes. A cancel wakes the host at once,
/// whatever the generation does.
package final class Pump: @unchecked Sendable {

    package enum Item: Sendable {
        /// An answer event for the host's event callback.
        case event(kind: Int32, bytes: [UInt8])
        /// A call of the host's tool; the slot gets its result.
        case toolCall(arguments: String, slot: ToolCallSlot)
        /// The end of the answer; always the generation's last item.
        case finished(status: Int32, detail: String)
        /// The answer was cancelled: returned by next(), never posted.
        case cancelled
    }

    /// The pump of the answer whose generation the current task belongs to.
    @TaskLocal package static var current: Pump?

    /// The id fmshim_session_respond was given for this answer.
    package let answerID: Int64

    private let condition = NSCondition()
    private var items: [Item] = []
    private var closed = false
    private var cancelled = false
    private var onCancel: [@Sendable () -> Void] = []

    package init(answerID: Int64) {
        self.answerID = answerID
    }

    /// Queues an item; false once the host has stopped draining.
    @discardableResult
    package func post(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if closed {
            return false
        }
        items.append(item)
        condition.signal()
        return true
    }

    /// Marks the answer cancelled, wakes the host and runs the cancel handlers. Any thread.
    package func cancel() {
        condition.lock()
        let first = !cancelled
        cancelled = true
        let handlers = onCancel
        onCancel = []
        condition.broadcast()
        condition.unlock()
        if first {
            handlers.forEach { $0() }
        }
    }

    package var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Runs body when the answer is cancelled; at once when it is already.
    package func whenCancelled(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        if !cancelled {
            onCancel.append(body)
            condition.unlock()
            return
        }
        condition.unlock()
        body()
    }

    /// The next item, waiting for one. After a cancel it is .cancelled, unless
    /// only the answer's end is left: a cancel never turns a completed answer
    /// into a failure. Called by the host thread only.
    package func next() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let first = items.first, case .finished = first {
                items.removeFirst()
                return first
            }
            if cancelled {
                return .cancelled
            }
            if !items.isEmpty {
                return items.removeFirst()
            }
            condition.wait()
        }
    }

    /// Refuses further items and returns those not drained.
    package func close() -> [Item] {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        let rest = items
        items = []
        return rest
    }
}

/// Which pump the session's tool posts its calls to when the framework runs
/// a tool outside the answer's task: the pump of the answer in progress, if any.
package final class PumpLink: @unchecked Sendable {

    private let lock = NSLock()
    private var pump: Pump?

    package init() {}

    package func set(_ value: Pump?) {
        lock.lock()
        pump = value
        lock.unlock()
    }

    /// Clears the link if it still points to pump.
    package func clear(_ value: Pump) {
        lock.lock()
        if pump === value {
            pump = nil
        }
        lock.unlock()
    }

    package func current() -> Pump? {
        lock.lock()
        defer { lock.unlock() }
        return pump
    }
}
