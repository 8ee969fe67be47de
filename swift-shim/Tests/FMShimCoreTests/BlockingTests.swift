import FMShimCore
import Foundation
import XCTest

/// Async work run from a host thread: its result when it finishes in time, TimedOut (and a cancel) when not.
final class BlockingTests: XCTestCase {

    func testWorkThatFinishesInTimeGivesItsResult() throws {
        let result = Blocking.run(deadline: 10) { () async throws -> Int in 42 }
        XCTAssertEqual(try result.get(), 42)
    }

    func testAnErrorOfTheWorkIsItsResult() {
        struct Refused: Error {}
        let result = Blocking.run(deadline: 10) { () async throws -> Int in throw Refused() }
        guard case .failure(let error) = result else { return XCTFail("expected a failure, got \(result)") }
        XCTAssertTrue(error is Refused, "\(error)")
    }

    func testWorkPastItsDeadlineTimesOutAndIsCancelled() {
        let cancelled = expectation(description: "the work sees its cancellation")
        let started = Date()
        let result = Blocking.run(deadline: 0.2) { () async throws -> Int in
            do {
                try await Task.sleep(nanoseconds: 30_000_000_000)
            } catch {
                cancelled.fulfill()
                throw error
            }
            return 1
        }
        guard case .failure(let error) = result, let timedOut = error as? Blocking.TimedOut else {
            return XCTFail("expected TimedOut, got \(result)")
        }
        XCTAssertEqual(timedOut.description, "did not finish within 1 s")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "returned at the deadline, not when the work ended")
        wait(for: [cancelled], timeout: 10)
    }
}
