import FMShimC
import FMShimCore
import Foundation
import XCTest

/// The host's side of an answer: callbacks on the draining thread, and an end
/// as soon as the answer is over, cancelled or stopped.
final class DrainTests: XCTestCase {

    /// What the host's callbacks saw.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var events: [String] = []
        private(set) var toolCalls: [String] = []
        private(set) var threads: Set<ObjectIdentifier> = []
        private(set) var stops = 0

        func event(_ kind: Int32, _ bytes: [UInt8]) {
            lock.lock()
            events.append("\(kind) \(String(decoding: bytes, as: UTF8.self))")
            threads.insert(ObjectIdentifier(Thread.current))
            lock.unlock()
        }

        func tool(_ id: Int64, _ arguments: String) {
            lock.lock()
            toolCalls.append("\(id) \(arguments)")
            threads.insert(ObjectIdentifier(Thread.current))
            lock.unlock()
        }

        func stop() {
            lock.lock()
            stops += 1
            lock.unlock()
        }
    }

    /// A value handed from a Task to the test's thread.
    final class Box<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: T?

        func set(_ value: T) {
            lock.lock()
            stored = value
            lock.unlock()
        }

        var value: T? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
    }

    private func host(_ recorder: Recorder, eventAnswer: Int32 = 0,
                      tool: @escaping (String) -> Drain.ToolOutcome = { .result("r:" + $0) }) -> Drain.Host {
        Drain.Host(
            event: { kind, bytes in
                recorder.event(kind, bytes)
                return eventAnswer
            },
            tool: { id, arguments in
                recorder.tool(id, arguments)
                return tool(arguments)
            })
    }

    /// A generation's tool call: posts it and waits for the host's answer.
    private static func callTool(_ pump: Pump, _ arguments: String) async throws -> String {
        let slot = ToolCallSlot()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            slot.install(continuation)
            if !pump.post(.toolCall(arguments: arguments, slot: slot)) {
                slot.cancelUnlessClaimed()
            }
        }
    }

    func testEventsReachTheHostInOrderOnTheDrainingThread() {
        let pump = Pump(answerID: 1)
        pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: Array("Hello".utf8)))
        pump.post(.event(kind: FMSHIM_EVENT_RESET, bytes: Array("Hi".utf8)))
        pump.post(.finished(status: FMSHIM_OK, detail: ""))
        let recorder = Recorder()
        let outcome = Drain.run(pump, host: host(recorder), stop: recorder.stop)
        XCTAssertEqual(outcome.status, FMSHIM_OK)
        XCTAssertEqual(recorder.events, ["\(FMSHIM_EVENT_DELTA) Hello", "\(FMSHIM_EVENT_RESET) Hi"])
        XCTAssertEqual(recorder.threads, [ObjectIdentifier(Thread.current)])
        XCTAssertEqual(recorder.stops, 0)
    }

    func testANonZeroFromTheEventCallbackStopsTheAnswerAndItsGeneration() {
        let pump = Pump(answerID: 1)
        pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: [65]))
        pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: [66]))
        let recorder = Recorder()
        let outcome = Drain.run(pump, host: host(recorder, eventAnswer: 1), stop: recorder.stop)
        XCTAssertEqual(outcome.status, FMSHIM_ERR_STOPPED)
        XCTAssertEqual(recorder.events, ["\(FMSHIM_EVENT_DELTA) A"])
        XCTAssertEqual(recorder.stops, 1)
        XCTAssertFalse(pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: [67])), "nothing is taken after the end")
    }

    func testACancelEndsTheAnswerAtOnceEvenWhenTheGenerationNeverEnds() {
        // The framework may ignore the cancellation of its stream: the host must not wait for it.
        let pump = Pump(answerID: 1)
        pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: [65]))
        let recorder = Recorder()
        let host = Drain.Host(
            event: { kind, bytes in
                recorder.event(kind, bytes)
                Thread.detachNewThread { pump.cancel() }
                return 0
            },
            tool: { _, _ in .failed("no tool") })
        let outcome = Drain.run(pump, host: host, stop: recorder.stop)
        XCTAssertEqual(outcome.status, FMSHIM_ERR_CANCELLED)
        XCTAssertEqual(recorder.stops, 1)
    }

    func testAToolCallRunsOnTheHostAndItsResultGoesBackToTheGeneration() {
        let pump = Pump(answerID: 5)
        Task.detached {
            let result = (try? await DrainTests.callTool(pump, "{\"a\":1}")) ?? "failed"
            pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: Array(result.utf8)))
            pump.post(.finished(status: FMSHIM_OK, detail: ""))
        }
        let recorder = Recorder()
        let outcome = Drain.run(pump, host: host(recorder), stop: recorder.stop)
        XCTAssertEqual(outcome.status, FMSHIM_OK)
        XCTAssertEqual(recorder.toolCalls, ["5 {\"a\":1}"])
        XCTAssertEqual(recorder.events, ["\(FMSHIM_EVENT_DELTA) r:{\"a\":1}"])
        XCTAssertEqual(recorder.threads, [ObjectIdentifier(Thread.current)])
    }

    func testAFailedToolCallStopsTheAnswerAndFailsTheCall() {
        let pump = Pump(answerID: 1)
        let thrown = Box<String>()
        Task.detached {
            do {
                _ = try await DrainTests.callTool(pump, "{}")
            } catch {
                thrown.set(String(describing: error))
            }
        }
        let recorder = Recorder()
        let outcome = Drain.run(pump, host: host(recorder, tool: { _ in .failed("the tool callback returned 1") }),
                                stop: recorder.stop)
        XCTAssertEqual(outcome.status, FMSHIM_ERR_TOOL_FAILED)
        XCTAssertEqual(outcome.detail, "the tool callback returned 1")
        XCTAssertEqual(recorder.stops, 1)
        let deadline = Date(timeIntervalSinceNow: 10)
        while thrown.value == nil && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(thrown.value, "the tool callback returned 1")
    }

    func testAToolCallLeftWhenTheAnswerEndsIsCancelledAndNeverRun() {
        let pump = Pump(answerID: 1)
        pump.post(.finished(status: FMSHIM_OK, detail: ""))
        let posted = DispatchSemaphore(value: 0)
        let thrown = Box<Bool>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let slot = ToolCallSlot()
            do {
                _ = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                    slot.install(continuation)
                    pump.post(.toolCall(arguments: "{}", slot: slot))
                    posted.signal()
                }
            } catch {
                thrown.set(error is CancellationError)
            }
            done.signal()
        }
        XCTAssertEqual(posted.wait(timeout: .now() + 10), .success)
        let recorder = Recorder()
        XCTAssertEqual(Drain.run(pump, host: host(recorder), stop: recorder.stop).status, FMSHIM_OK)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(thrown.value, true)
        XCTAssertEqual(recorder.toolCalls, [])
    }

    func testAToolCallAfterACancelIsNeverRun() {
        let pump = Pump(answerID: 1)
        let posted = DispatchSemaphore(value: 0)
        Task.detached {
            let slot = ToolCallSlot()
            _ = try? await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                slot.install(continuation)
                pump.post(.toolCall(arguments: "{}", slot: slot))
                posted.signal()
            }
        }
        XCTAssertEqual(posted.wait(timeout: .now() + 10), .success)
        pump.cancel()
        let recorder = Recorder()
        XCTAssertEqual(Drain.run(pump, host: host(recorder), stop: recorder.stop).status, FMSHIM_ERR_CANCELLED)
        XCTAssertEqual(recorder.toolCalls, [])
    }

    func testAFailureAfterACancelIsReportedAsTheCancel() {
        let pump = Pump(answerID: 1)
        pump.post(.finished(status: FMSHIM_ERR_GENERATION_OTHER, detail: "the stream was torn down"))
        pump.cancel()
        let recorder = Recorder()
        XCTAssertEqual(Drain.run(pump, host: host(recorder), stop: recorder.stop).status, FMSHIM_ERR_CANCELLED)
    }

    func testAnAnswerThatCompletedBeforeTheCancelWasSeenIsOk() {
        let pump = Pump(answerID: 1)
        pump.post(.finished(status: FMSHIM_OK, detail: ""))
        pump.cancel()
        let recorder = Recorder()
        XCTAssertEqual(Drain.run(pump, host: host(recorder), stop: recorder.stop).status, FMSHIM_OK)
    }
}
