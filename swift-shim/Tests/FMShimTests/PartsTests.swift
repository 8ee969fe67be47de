import FMShimC
import Foundation
import FoundationModels
import XCTest

@testable import FMShim

/// The shim's parts that need no model: text across the ABI, the schema
/// builder, and the tool call slot's once-only resumption.
final class PartsTests: XCTestCase {

    func testPutWritesWhatFitsAndReturnsTheWholeLength() {
        var buffer = [CChar](repeating: 65, count: 4)
        XCTAssertEqual(CText.put("hello", into: &buffer, capacity: 4), 5)
        XCTAssertEqual(String(cString: buffer), "hel")
        XCTAssertEqual(CText.put("hello", into: nil, capacity: 0), 5)
    }

    func testADetailIsCutAtACharacterBoundary() {
        var buffer = [CChar](repeating: 65, count: 5)
        CText.putDetail("a\u{20AC}\u{20AC}", into: &buffer, capacity: 5) // 1 + 3 + 3 bytes
        XCTAssertEqual(String(cString: buffer), "a\u{20AC}")
    }

    func testTextWithNulBytesAndLengthIsReadWhole() {
        let bytes: [CChar] = [104, 0, 105]
        XCTAssertEqual(bytes.withUnsafeBufferPointer { CText.string($0.baseAddress, length: 3) }, "h\u{0}i")
        XCTAssertEqual(CText.string(nil, length: 0), "")
        XCTAssertNil(CText.string(nil, length: 1))
    }

    func testInvalidUtf8IsRejected() {
        let bytes: [CChar] = [-1, -2]
        XCTAssertNil(bytes.withUnsafeBufferPointer { CText.string($0.baseAddress, length: 2) })
    }

    func testTheRunCommandSchemaBuilds() throws {
        let json = """
            {"type":"object","properties":{"executable":{"type":"string","description":"Program"},\
            "arguments":{"type":"array","items":{"type":"string"},"description":"Arguments"}},\
            "required":["executable","arguments"]}
            """
        XCTAssertNoThrow(try SchemaBuilder.generationSchema(json: json, name: "run_command"))
    }

    func testEnumsNestedObjectsAndNumbersBuild() throws {
        let json = """
            {"type":"object","properties":{"mode":{"enum":["a","b"]},"n":{"type":"integer"},\
            "x":{"type":"number"},"flag":{"type":"boolean"},\
            "inner":{"type":"object","properties":{"s":{"type":"string"}}}}}
            """
        XCTAssertNoThrow(try SchemaBuilder.generationSchema(json: json, name: "t"))
    }

    func testUnsupportedSchemasSayWhere() {
        XCTAssertThrowsError(try SchemaBuilder.generationSchema(json: "[]", name: "t")) { error in
            XCTAssertEqual(String(describing: error), "the parameters schema is not a JSON object")
        }
        let array = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\"}}}"
        XCTAssertThrowsError(try SchemaBuilder.generationSchema(json: array, name: "t")) { error in
            XCTAssertEqual(String(describing: error), "$.a: an array needs an items schema")
        }
    }

    func testASlotCancelledBeforeItsContinuationResumesAtOnce() async {
        let slot = ToolCallSlot()
        slot.cancelUnlessClaimed()
        do {
            _ = try await withCheckedThrowingContinuation { slot.install($0) }
            XCTFail("expected a cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
        XCTAssertFalse(slot.claim())
    }

    func testAClaimedSlotIsEndedByTheHostNotByCancellation() throws {
        let slot = ToolCallSlot()
        let pump = Pump()
        let received = Received()
        let resumed = expectation(description: "the tool call resumed")
        Task.detached {
            let value = try? await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                slot.install(continuation)
                pump.post(.toolCall(arguments: "{}", slot: slot))
            }
            received.set(value)
            resumed.fulfill()
        }
        // This test's thread plays the host: it drains the pump.
        guard case .toolCall(_, let posted) = pump.next() else {
            return XCTFail("expected the tool call")
        }
        XCTAssertTrue(posted.claim())
        posted.cancelUnlessClaimed()
        posted.finish(.success("done"))
        wait(for: [resumed], timeout: 10)
        XCTAssertEqual(received.get(), "done")
    }

    func testAClosedPumpRefusesItems() {
        let pump = Pump()
        pump.post(.finished(status: FMSHIM_OK, detail: ""))
        XCTAssertEqual(pump.close().count, 1)
        XCTAssertFalse(pump.post(.finished(status: FMSHIM_OK, detail: "")))
    }
}

/// A value handed from a Task to the test's thread.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?

    func set(_ newValue: String?) {
        lock.withLock { value = newValue }
    }

    func get() -> String? {
        lock.withLock { value }
    }
}
