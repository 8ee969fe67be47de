import FMShimC
import Foundation
import XCTest

/// Answers from the real on-device model through the C ABI. Skipped unless
/// Foundation Models is available on this Mac.
final class ModelTests: XCTestCase {

    /// What the callbacks saw, reached through their user_data pointer.
    final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var bytes: [UInt8] = []
        var kinds: [Int32] = []
        var threads: Set<UInt> = []
        var toolArguments: [String] = []
        var stopAfterFirst = false
        let firstEvent = DispatchSemaphore(value: 0)

        var pointer: UnsafeMutableRawPointer {
            Unmanaged.passUnretained(self).toOpaque()
        }

        static func from(_ pointer: UnsafeMutableRawPointer?) -> Recorder {
            Unmanaged<Recorder>.fromOpaque(pointer!).takeUnretainedValue()
        }

        func record(kind: Int32, bytes pointer: UnsafePointer<CChar>?, length: Int64) -> Int32 {
            lock.lock()
            defer { lock.unlock() }
            kinds.append(kind)
            threads.insert(UInt(bitPattern: pthread_self()))
            if kind == FMSHIM_EVENT_RESET {
                bytes = []
            }
            if let pointer, length > 0 {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: Int(length)))
            }
            if kinds.count == 1 {
                firstEvent.signal()
            }
            return stopAfterFirst ? 1 : 0
        }

        var text: String {
            lock.withLock { String(decoding: bytes, as: UTF8.self) }
        }
    }

    /// A status set on another thread and read after a semaphore says it is set.
    final class StatusBox: @unchecked Sendable {
        var value: Int32 = -1
    }

    private let onEvent: fmshim_event_fn = { userData, kind, bytes, length in
        Recorder.from(userData).record(kind: kind, bytes: bytes, length: length)
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(fmshim_availability() == FMSHIM_AVAILABLE, "Foundation Models is not available here")
    }

    private func openSession(instructions: String?) throws -> OpaquePointer {
        var session: OpaquePointer?
        var detail = [CChar](repeating: 0, count: 512)
        let status = fmshim_session_create(instructions, nil, nil, nil, nil, nil, &detail, 512, &session)
        XCTAssertEqual(status, FMSHIM_OK, String(cString: detail))
        return try XCTUnwrap(session)
    }

    private func respond(_ session: OpaquePointer, _ prompt: String, _ recorder: Recorder) -> (Int32, String) {
        var detail = [CChar](repeating: 0, count: 512)
        let status = prompt.withCString {
            fmshim_session_respond(session, $0, Int64(prompt.utf8.count), onEvent, recorder.pointer, &detail, 512)
        }
        return (status, String(cString: detail))
    }

    func testAnAnswerStreamsOnTheCallingThreadOnly() throws {
        let session = try openSession(instructions: "Answer in one short sentence.")
        defer { fmshim_session_free(session) }
        let recorder = Recorder()
        let (status, detail) = respond(session, "What colour is the sky on a clear day?", recorder)
        XCTAssertEqual(status, FMSHIM_OK, detail)
        XCTAssertFalse(recorder.text.isEmpty)
        XCTAssertEqual(recorder.threads, [UInt(bitPattern: pthread_self())])
    }

    func testACallbackReturningNonZeroStopsTheAnswer() throws {
        let session = try openSession(instructions: nil)
        defer { fmshim_session_free(session) }
        let recorder = Recorder()
        recorder.stopAfterFirst = true
        let (status, _) = respond(session, "Count from one to fifty in words.", recorder)
        XCTAssertEqual(status, FMSHIM_ERR_STOPPED)
        XCTAssertEqual(recorder.kinds.count, 1)
    }

    func testCancelFromAnotherThreadEndsTheAnswer() throws {
        let session = try openSession(instructions: nil)
        defer { fmshim_session_free(session) }
        let recorder = Recorder()
        let handle = UInt(bitPattern: session)
        DispatchQueue.global().async {
            _ = recorder.firstEvent.wait(timeout: .now() + 120)
            let other = OpaquePointer(bitPattern: handle)
            fmshim_session_cancel(other)
            fmshim_session_cancel(other)
        }
        let (status, detail) = respond(session, "Write a long story about a lighthouse keeper, 800 words.", recorder)
        XCTAssertTrue(status == FMSHIM_ERR_CANCELLED || status == FMSHIM_OK, "status \(status): \(detail)")
    }

    func testASecondRespondWhileAnsweringIsBusy() throws {
        let session = try openSession(instructions: nil)
        defer { fmshim_session_free(session) }
        let recorder = Recorder()
        let handle = UInt(bitPattern: session)
        let busy = DispatchSemaphore(value: 0)
        let second = Recorder()
        let secondStatus = StatusBox()
        DispatchQueue.global().async {
            _ = recorder.firstEvent.wait(timeout: .now() + 120)
            var detail = [CChar](repeating: 0, count: 64)
            secondStatus.value = "x".withCString {
                fmshim_session_respond(OpaquePointer(bitPattern: handle), $0, 1, { userData, kind, bytes, length in
                    Recorder.from(userData).record(kind: kind, bytes: bytes, length: length)
                }, second.pointer, &detail, 64)
            }
            fmshim_session_cancel(OpaquePointer(bitPattern: handle))
            busy.signal()
        }
        _ = respond(session, "Write a long story about a lighthouse keeper, 800 words.", recorder)
        XCTAssertEqual(busy.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(secondStatus.value, FMSHIM_ERR_BUSY)
        XCTAssertTrue(second.kinds.isEmpty)
    }
}
