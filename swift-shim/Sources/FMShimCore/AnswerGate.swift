import Foundation

/// One session's answers, as fmshim.h orders them: ids that only grow, a
/// cancel that reaches an answer before it starts, one answer at a time, a
/// new answer only once the generation of the one before has ended, and a
/// free that waits for the answer in progress.
package final class AnswerGate: @unchecked Sendable {

    /// How fmshim_session_respond may go on.
    package enum Start {
        /// Drain this pump; call finishRespond() after, and generationEnded() when its generation ends.
        case started(Pump)
        /// Another respond runs on the session.
        case busy
        /// The id is not positive or not larger than every earlier one.
        case invalidID
        /// The answer was cancelled before it started.
        case cancelled
        /// The generation of an earlier, stopped answer did not end within the grace period.
        case stillStopping
    }

    private let condition = NSCondition()
    private let grace: TimeInterval
    private var lastID: Int64 = 0
    private var cancelledUpTo: Int64 = 0
    private var responding = false
    private var running: Pump?
    private var generating = false
    /// When the answer whose generation still runs was stopped: the grace counts from there, once.
    private var stoppedAt: Date?
    private var freeRequested = false

    /// grace: how long new answers wait, in all, for the generation of a stopped answer to end.
    package init(grace: TimeInterval = 5) {
        self.grace = grace
    }

    /// Claims the session for the answer id (fmshim_session_respond). Blocks while an earlier generation winds down.
    package func start(_ id: Int64) -> Start {
        condition.lock()
        defer { condition.unlock() }
        if responding {
            return .busy
        }
        if id <= 0 || id <= lastID {
            return .invalidID
        }
        lastID = id
        if id <= cancelledUpTo {
            return .cancelled
        }
        responding = true
        // Two generations on one framework session would clash (concurrentRequests), and a tool call of
        // the old one could reach the new answer: wait for the old one to end, for a while.
        // One budget per stopped generation, so that callers who ask again do not wait it again each time.
        let deadline = (stoppedAt ?? Date()).addingTimeInterval(grace)
        while generating && id > cancelledUpTo {
            if !condition.wait(until: deadline) {
                break
            }
        }
        if id <= cancelledUpTo {
            responding = false
            return .cancelled
        }
        if generating {
            responding = false
            return .stillStopping
        }
        let pump = Pump(answerID: id)
        running = pump
        generating = true
        return .started(pump)
    }

    /// fmshim_session_cancel: the answer id and every earlier one count as cancelled. Any thread.
    package func cancel(_ id: Int64) {
        condition.lock()
        if id > cancelledUpTo {
            cancelledUpTo = id
        }
        let pump = running
        condition.broadcast()
        condition.unlock()
        if let pump, pump.answerID <= id {
            pump.cancel()
        }
    }

    /// The respond that started has returned; true when fmshim_session_free was asked for meanwhile.
    package func finishRespond() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        responding = false
        running = nil
        if generating && stoppedAt == nil {
            stoppedAt = Date()
        }
        let release = freeRequested
        freeRequested = false
        return release
    }

    /// The generation of the answer started last has ended.
    package func generationEnded() {
        condition.lock()
        generating = false
        stoppedAt = nil
        condition.broadcast()
        condition.unlock()
    }

    /// fmshim_session_free: true when the session may go now; false while a respond runs, which then releases it.
    package func requestFree() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if responding {
            freeRequested = true
            return false
        }
        return true
    }
}
