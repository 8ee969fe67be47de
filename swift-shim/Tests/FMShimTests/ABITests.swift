import FMShimC
import Foundation
import XCTest

@testable import FMShim

/// The exported C functions, called through the header as the host calls them.
final class ABITests: XCTestCase {

    func testTheAbiVersionIsTheHeaders() {
        XCTAssertEqual(fmshim_abi_version(), FMSHIM_ABI_VERSION)
    }

    func testAvailabilityIsOneOfTheHeadersReasons() {
        let reasons = [FMSHIM_AVAILABLE, FMSHIM_UNAVAILABLE_DEVICE_NOT_ELIGIBLE, FMSHIM_UNAVAILABLE_NOT_ENABLED,
                       FMSHIM_UNAVAILABLE_MODEL_NOT_READY, FMSHIM_UNAVAILABLE_UNKNOWN]
        XCTAssertTrue(reasons.contains(fmshim_availability()))
    }

    func testTheContextSizeIsReportedExactlyWhenBuiltWithThe264SDK() {
        var tokens: Int64 = -1
        let status = fmshim_context_size(&tokens)
        #if FMSHIM_MACOS_26_4_SDK
        XCTAssertEqual(status, FMSHIM_OK)
        // 0 means "not known yet" (macOS 27 while its model gets ready); never negative.
        XCTAssertGreaterThanOrEqual(tokens, 0)
        if fmshim_availability() == FMSHIM_AVAILABLE {
            XCTAssertGreaterThan(tokens, 0)
        }
        #else
        XCTAssertEqual(status, FMSHIM_ERR_UNSUPPORTED)
        #endif
        XCTAssertEqual(fmshim_context_size(nil), FMSHIM_ERR_INVALID_ARGUMENT)
    }

    func testSupportedLanguagesFollowSnprintfSemantics() throws {
        let length = fmshim_supported_languages(nil, 0)
        XCTAssertGreaterThanOrEqual(length, 2)

        var small = [CChar](repeating: 65, count: 3)
        XCTAssertEqual(fmshim_supported_languages(&small, 3), length)
        XCTAssertEqual(small[2], 0)

        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        XCTAssertEqual(fmshim_supported_languages(&buffer, length + 1), length)
        let json = String(cString: buffer)
        let tags = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
        XCTAssertEqual(tags, tags.sorted())
    }

    func testTheVariantIsNamedFromMacOS27AndUnsupportedBefore() {
        let length = fmshim_variant(nil, 0)
        if #available(macOS 27.0, *) {
            #if FMSHIM_MACOS_27_SDK
            XCTAssertGreaterThan(length, 0)
            return
            #endif
        }
        XCTAssertEqual(length, -Int64(FMSHIM_ERR_UNSUPPORTED))
    }

    func testTokenCountingCountsOrIsUnsupported() {
        var tokens: Int64 = -1
        var detail = [CChar](repeating: 0, count: 256)
        let text = "Hello, world"
        let status = text.withCString { fmshim_token_count($0, Int64(text.utf8.count), &tokens, &detail, 256) }
        if fmshim_availability() == FMSHIM_AVAILABLE {
            XCTAssertTrue(status == FMSHIM_OK || status == FMSHIM_ERR_UNSUPPORTED, String(cString: detail))
        }
        if status == FMSHIM_OK {
            XCTAssertGreaterThan(tokens, 0)
        }
    }

    func testASessionWithABadSchemaIsASchemaError() {
        var detail = [CChar](repeating: 0, count: 256)
        var session: OpaquePointer?
        let callback: fmshim_tool_fn = { _, _, _, _, _ in 1 }
        let status = fmshim_session_create(nil, "t", "d", "{\"type\":\"null\"}", callback, nil, &detail, 256, &session)
        XCTAssertEqual(status, FMSHIM_ERR_SCHEMA)
        XCTAssertNil(session)
        XCTAssertEqual(String(cString: detail), "$: unsupported type \"null\"")
    }

    func testAToolWithoutACallbackIsAnInvalidArgument() {
        var session: OpaquePointer?
        let status = fmshim_session_create(nil, "t", "d", "{\"type\":\"object\"}", nil, nil, nil, 0, &session)
        XCTAssertEqual(status, FMSHIM_ERR_INVALID_ARGUMENT)
        XCTAssertNil(session)
    }

    func testToolReplySetRejectsNull() {
        XCTAssertEqual(fmshim_tool_reply_set(nil, "x", 1), FMSHIM_ERR_INVALID_ARGUMENT)
    }

    func testFreeAndCancelIgnoreNull() {
        fmshim_session_free(nil)
        fmshim_session_cancel(nil, 1)
    }

    private func plainSession() throws -> OpaquePointer {
        var session: OpaquePointer?
        var detail = [CChar](repeating: 0, count: 256)
        XCTAssertEqual(fmshim_session_create(nil, nil, nil, nil, nil, nil, &detail, 256, &session), FMSHIM_OK,
                       String(cString: detail))
        return try XCTUnwrap(session)
    }

    private let ignoreEvents: fmshim_event_fn = { _, _, _, _ in 0 }

    func testAnAnswerCancelledBeforeItStartsNeverAsksTheModel() throws {
        // No model needed: the cancel is seen before the session would ask it.
        let session = try plainSession()
        defer { fmshim_session_free(session) }
        fmshim_session_cancel(session, 1)
        var detail = [CChar](repeating: 0, count: 256)
        let status = "hello".withCString {
            fmshim_session_respond(session, 1, $0, 5, ignoreEvents, nil, &detail, 256)
        }
        XCTAssertEqual(status, FMSHIM_ERR_CANCELLED)
    }

    func testAnswerIdsMustIncrease() throws {
        let session = try plainSession()
        defer { fmshim_session_free(session) }
        fmshim_session_cancel(session, 5)
        var detail = [CChar](repeating: 0, count: 256)
        XCTAssertEqual("x".withCString { fmshim_session_respond(session, 5, $0, 1, ignoreEvents, nil, &detail, 256) },
                       FMSHIM_ERR_CANCELLED)
        for stale in [Int64(5), 4, 0, -1] {
            XCTAssertEqual("x".withCString {
                fmshim_session_respond(session, stale, $0, 1, ignoreEvents, nil, &detail, 256)
            }, FMSHIM_ERR_INVALID_ARGUMENT, "id \(stale)")
        }
        XCTAssertEqual(String(cString: detail), "answer ids must be positive and increase")
    }
}
