import FMShimC
import FMShimCore
import Foundation
import FoundationModels
import XCTest

/// Answers from the real on-device model through the C ABI, a tool call
/// included. Skipped (reported as skipped) unless Foundation Models is
/// available on this Mac.
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

    /// The tool's side: what the model asked, on which thread, for which answer.
    final class ToolRecorder: @unchecked Sendable {
        let lock = NSLock()
        var calls: [String] = []
        var answerIDs: [Int64] = []
        var threads: Set<UInt> = []
        let result: String

        init(result: String) {
            self.result = result
        }

        var pointer: UnsafeMutableRawPointer {
            Unmanaged.passUnretained(self).toOpaque()
        }

        static func from(_ pointer: UnsafeMutableRawPointer?) -> ToolRecorder {
            Unmanaged<ToolRecorder>.fromOpaque(pointer!).takeUnretainedValue()
        }

        func call(answerID: Int64, arguments: UnsafePointer<CChar>?, length: Int64,
                  reply: OpaquePointer?) -> Int32 {
            lock.lock()
            defer { lock.unlock() }
            let bytes = arguments.map { UnsafeRawBufferPointer(start: $0, count: Int(length)) }
            calls.append(bytes.map { String(decoding: $0, as: UTF8.self) } ?? "")
            answerIDs.append(answerID)
            threads.insert(UInt(bitPattern: pthread_self()))
            return result.withCString { fmshim_tool_reply_set(reply, $0, Int64(result.utf8.count)) }
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

    /// Answer ids for respond: positive and increasing per session; one counter serves every session.
    private var lastAnswerID: Int64 = 0

    private func nextAnswerID() -> Int64 {
        lastAnswerID += 1
        return lastAnswerID
    }

    private func respond(_ session: OpaquePointer, _ prompt: String, _ recorder: Recorder,
                         answerID: Int64? = nil) -> (Int32, String) {
        var detail = [CChar](repeating: 0, count: 512)
        let id = answerID ?? nextAnswerID()
        let status = prompt.withCString {
            fmshim_session_respond(session, id, $0, Int64(prompt.utf8.count), onEvent, recorder.pointer, &detail, 512)
        }
        return (status, String(cString: detail))
    }

    func testAToolCallRunsOnTheCallingThreadAndItsResultReachesTheAnswer() throws {
        let tool = ToolRecorder(result: "The secret number is 7341.")
        let schema = """
            {"type":"object","properties":{"topic":{"type":"string","description":"What the secret is about"}},            "required":["topic"]}
            """
        let onTool: fmshim_tool_fn = { userData, answerID, arguments, length, reply in
            ModelTests.ToolRecorder.from(userData).call(answerID: answerID, arguments: arguments, length: length,
                                                        reply: reply)
        }
        var session: OpaquePointer?
        var detail = [CChar](repeating: 0, count: 512)
        let status = fmshim_session_create(
            "You can look up secret numbers with the get_secret_number tool. Always call it before you answer "
                + "a question about a secret number, then answer with the number it gave.",
            "get_secret_number", "Gives the secret number for a topic.", schema, onTool, tool.pointer,
            &detail, 512, &session)
        XCTAssertEqual(status, FMSHIM_OK, String(cString: detail))
        let handle = try XCTUnwrap(session)
        defer { fmshim_session_free(handle) }
        let recorder = Recorder()
        let id = nextAnswerID()
        let (answer, why) = respond(handle, "What is the secret number for the topic lighthouse?", recorder,
                                    answerID: id)
        XCTAssertEqual(answer, FMSHIM_OK, why)
        XCTAssertFalse(tool.calls.isEmpty, "the model did not call the tool; it answered: \(recorder.text)")
        XCTAssertEqual(Set(tool.answerIDs), [id])
        XCTAssertEqual(tool.threads, [UInt(bitPattern: pthread_self())])
        for call in tool.calls {
            let object = try JSONSerialization.jsonObject(with: Data(call.utf8)) as? [String: Any]
            XCTAssertNotNil(object?["topic"] as? String, call)
        }
        XCTAssertTrue(recorder.text.contains("7341"), "the tool's result did not reach the answer: \(recorder.text)")
        XCTAssertEqual(recorder.threads, [UInt(bitPattern: pthread_self())])
    }

    func testTheTokenCountIsThePromptCountTheFrameworkGives() throws {
        #if FMSHIM_MACOS_26_4_SDK
        guard #available(macOS 26.4, *) else {
            throw XCTSkip("token counting needs macOS 26.4")
        }
        let text = "How much free disk space do I have?"
        var tokens: Int64 = -1
        var detail = [CChar](repeating: 0, count: 256)
        let status = text.withCString { fmshim_token_count($0, Int64(text.utf8.count), &tokens, &detail, 256) }
        XCTAssertEqual(status, FMSHIM_OK, String(cString: detail))
        // The pre-flight check must count what the session will see: the text as a Prompt.
        let expected = try Blocking.run(deadline: 60) { try await SystemLanguageModel.default.tokenCount(for: Prompt(text)) }.get()
        XCTAssertEqual(tokens, Int64(expected))
        #else
        throw XCTSkip("built without the macOS 26.4 SDK: no token counting")
        #endif
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
        let id = nextAnswerID()
        DispatchQueue.global().async {
            _ = recorder.firstEvent.wait(timeout: .now() + 120)
            let other = OpaquePointer(bitPattern: handle)
            fmshim_session_cancel(other, id)
            fmshim_session_cancel(other, id)
        }
        let story = "Write a long story about a lighthouse keeper, 800 words."
        let (status, detail) = respond(session, story, recorder, answerID: id)
        XCTAssertTrue(status == FMSHIM_ERR_CANCELLED || status == FMSHIM_OK, "status \(status): \(detail)")
        let eventsAtReturn = recorder.kinds.count
        // The next prompt works: the stopped generation is waited out, never reported as rate limiting.
        let next = Recorder()
        let (again, why) = respond(session, "Say hello.", next)
        XCTAssertEqual(again, FMSHIM_OK, why)
        XCTAssertFalse(next.text.isEmpty)
        XCTAssertEqual(recorder.kinds.count, eventsAtReturn, "an event of the cancelled answer came after it returned")
    }

    func testASecondRespondWhileAnsweringIsBusy() throws {
        let session = try openSession(instructions: nil)
        defer { fmshim_session_free(session) }
        let recorder = Recorder()
        let handle = UInt(bitPattern: session)
        let id = nextAnswerID()
        let busy = DispatchSemaphore(value: 0)
        let second = Recorder()
        let secondStatus = StatusBox()
        DispatchQueue.global().async {
            _ = recorder.firstEvent.wait(timeout: .now() + 120)
            var detail = [CChar](repeating: 0, count: 64)
            secondStatus.value = "x".withCString {
                fmshim_session_respond(OpaquePointer(bitPattern: handle), id + 1, $0, 1, { userData, kind, bytes, length in
                    Recorder.from(userData).record(kind: kind, bytes: bytes, length: length)
                }, second.pointer, &detail, 64)
            }
            fmshim_session_cancel(OpaquePointer(bitPattern: handle), id)
            busy.signal()
        }
        _ = respond(session, "Write a long story about a lighthouse keeper, 800 words.", recorder, answerID: id)
        XCTAssertEqual(busy.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(secondStatus.value, FMSHIM_ERR_BUSY)
        XCTAssertTrue(second.kinds.isEmpty)
    }
}
