import FMShimC
import FMShimCore
import Foundation
import XCTest

/// The queue between an answer's generation and the host thread.
final class PumpTests: XCTestCase {

    /// An item as text, for comparing.
    static func describe(_ item: Pump.Item) -> String {
        switch item {
        case .event(let kind, let bytes):
            return "event \(kind) \(bytes)"
        case .toolCall(let arguments, _):
            return "tool \(arguments)"
        case .finished(let status, let detail):
            return "finished \(status) \(detail)"
        case .cancelled:
            return "cancelled"
        }
    }

    func testItemsComeOutInTheOrderTheyWentIn() {
        let pump = Pump(answerID: 1)
        pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: [65]))
        pump.post(.event(kind: FMSHIM_EVENT_RESET, bytes: [66]))
        pump.post(.finished(status: FMSHIM_OK, detail: ""))
        let items = (0..<3).map { _ in Self.describe(pump.next()) }
        XCTAssertEqual(items, ["event \(FMSHIM_EVENT_DELTA) [65]", "event \(FMSHIM_EVENT_RESET) [66]",
                               "finished \(FMSHIM_OK) "])
    }

    func testACancelWakesAHostWaitingForAGenerationThatNeverPostsAgain() {
        let pump = Pump(answerID: 1)
        let woke = expectation(description: "the host woke")
        Thread.detachNewThread {
            if PumpTests.describe(pump.next()) == "cancelled" {
                woke.fulfill()
            }
        }
        Thread.sleep(forTimeInterval: 0.05)
        pump.cancel()
        wait(for: [woke], timeout: 10)
    }

    func testAfterACancelEventsStillQueuedAreNotHandedOut() {
        let pump = Pump(answerID: 1)
        pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: [65]))
        pump.cancel()
        XCTAssertEqual(Self.describe(pump.next()), "cancelled")
    }

    func testACancelNeverHidesACompletedAnswersEnd() {
        let pump = Pump(answerID: 1)
        pump.post(.finished(status: FMSHIM_OK, detail: ""))
        pump.cancel()
        XCTAssertEqual(Self.describe(pump.next()), "finished \(FMSHIM_OK) ",
                       "the end of a completed answer was turned into a cancel")
    }

    func testAClosedPumpRefusesItemsAndGivesBackTheUndrained() {
        let pump = Pump(answerID: 1)
        pump.post(.finished(status: FMSHIM_OK, detail: ""))
        XCTAssertEqual(pump.close().count, 1)
        XCTAssertFalse(pump.post(.finished(status: FMSHIM_OK, detail: "")))
    }

    func testCancelHandlersRunOnceAndAtOnceWhenAlreadyCancelled() {
        let pump = Pump(answerID: 1)
        let counter = Counter()
        pump.whenCancelled { counter.add() }
        pump.cancel()
        pump.cancel()
        XCTAssertEqual(counter.value, 1)
        pump.whenCancelled { counter.add() }
        XCTAssertEqual(counter.value, 2)
        XCTAssertTrue(pump.isCancelled)
    }

    func testTheLinkIsClearedOnlyByItsOwnPump() {
        let link = PumpLink()
        let old = Pump(answerID: 1)
        let new = Pump(answerID: 2)
        link.set(new)
        link.clear(old)
        XCTAssertTrue(link.current() === new)
        link.clear(new)
        XCTAssertNil(link.current())
    }

    func testATaskLocalPumpIsSeenByTheTasksItStarts() async {
        let pump = Pump(answerID: 7)
        let seen = await Pump.$current.withValue(pump) {
            await Task { Pump.current?.answerID }.value
        }
        XCTAssertEqual(seen, 7)
        XCTAssertNil(Pump.current)
    }
}

/// A count shared with closures.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
