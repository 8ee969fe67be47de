import FMShimCore
import Foundation
import XCTest

/// One session's answers: ids, cancels before and during an answer, one answer
/// at a time, and no new answer while the generation of a stopped one runs.
final class AnswerGateTests: XCTestCase {

    private func started(_ start: AnswerGate.Start, file: StaticString = #filePath, line: UInt = #line) -> Pump? {
        if case .started(let pump) = start {
            return pump
        }
        XCTFail("expected the answer to start, got \(start)", file: file, line: line)
        return nil
    }

    private func name(_ start: AnswerGate.Start) -> String {
        switch start {
        case .started(let pump):
            return "started \(pump.answerID)"
        case .busy:
            return "busy"
        case .invalidID:
            return "invalid id"
        case .cancelled:
            return "cancelled"
        case .stillStopping:
            return "still stopping"
        }
    }

    /// Starts and ends one answer whose generation has ended too.
    private func complete(_ gate: AnswerGate, _ id: Int64) {
        XCTAssertNotNil(started(gate.start(id)))
        gate.generationEnded()
        XCTAssertFalse(gate.finishRespond())
    }

    func testIdsMustBePositiveAndIncrease() {
        let gate = AnswerGate()
        XCTAssertEqual(name(gate.start(0)), "invalid id")
        XCTAssertEqual(name(gate.start(-3)), "invalid id")
        complete(gate, 5)
        XCTAssertEqual(name(gate.start(5)), "invalid id")
        XCTAssertEqual(name(gate.start(4)), "invalid id")
        complete(gate, 9)
    }

    func testACancelBeforeTheAnswerStartsStopsItWithoutStartingIt() {
        let gate = AnswerGate()
        gate.cancel(1)
        XCTAssertEqual(name(gate.start(1)), "cancelled")
        // The id was used: the next answer needs a larger one, and is not cancelled.
        XCTAssertEqual(name(gate.start(1)), "invalid id")
        complete(gate, 2)
    }

    func testACancelOfAnEndedAnswerNeverReachesTheNextOne() {
        let gate = AnswerGate()
        complete(gate, 1)
        gate.cancel(1)
        gate.cancel(1)
        XCTAssertEqual(name(gate.start(2)), "started 2")
    }

    func testACancelDuringTheAnswerCancelsItsPump() {
        let gate = AnswerGate()
        guard let pump = started(gate.start(3)) else { return }
        XCTAssertFalse(pump.isCancelled)
        gate.cancel(3)
        XCTAssertTrue(pump.isCancelled)
    }

    func testASecondRespondWhileOneRunsIsBusy() {
        let gate = AnswerGate()
        XCTAssertNotNil(started(gate.start(1)))
        XCTAssertEqual(name(gate.start(2)), "busy")
        gate.generationEnded()
        XCTAssertFalse(gate.finishRespond())
        XCTAssertEqual(name(gate.start(3)), "started 3")
    }

    func testANewAnswerWaitsForTheGenerationOfTheStoppedOneToEnd() {
        let gate = AnswerGate(grace: 30)
        XCTAssertNotNil(started(gate.start(1)))
        gate.cancel(1)
        XCTAssertFalse(gate.finishRespond()) // respond returned at once; the generation goes on
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            ended.signal()
            gate.generationEnded()
        }
        let start = gate.start(2)
        XCTAssertEqual(ended.wait(timeout: .now()), .success, "started before the old generation ended")
        XCTAssertEqual(name(start), "started 2")
    }

    func testAGenerationThatDoesNotEndInTimeIsReportedNotOverlapped() {
        let gate = AnswerGate(grace: 0.05)
        XCTAssertNotNil(started(gate.start(1)))
        gate.cancel(1)
        XCTAssertFalse(gate.finishRespond())
        XCTAssertEqual(name(gate.start(2)), "still stopping")
        gate.generationEnded()
        XCTAssertEqual(name(gate.start(3)), "started 3")
    }

    func testACancelWhileWaitingForTheOldGenerationEndsTheWait() {
        let gate = AnswerGate(grace: 30)
        XCTAssertNotNil(started(gate.start(1)))
        gate.cancel(1)
        XCTAssertFalse(gate.finishRespond())
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            gate.cancel(2)
        }
        XCTAssertEqual(name(gate.start(2)), "cancelled")
    }

    func testAFreeDuringAnAnswerWaitsForItsRespondToReturn() {
        let gate = AnswerGate()
        XCTAssertTrue(gate.requestFree())
        XCTAssertNotNil(started(gate.start(1)))
        XCTAssertFalse(gate.requestFree())
        XCTAssertTrue(gate.finishRespond())
    }
}
