import FMShimC
import FMShimCore
import Foundation
import XCTest

/// The framework's errors as fmshim.h statuses, by case name, for the types
/// of macOS 26 and 27 and for types a build cannot name.
final class ErrorTableTests: XCTestCase {

    private func status(_ type: String, _ caseName: String, _ text: String = "") -> Int32 {
        ErrorTable.map(ErrorTable.Facts(typeName: type, caseName: caseName, text: text)).status
    }

    private let generationError = "FoundationModels.LanguageModelSession.GenerationError"
    private let languageModelError = "FoundationModels.LanguageModelError"

    func testTheCasesOfMacOs26AndMacOs27MapAlike() {
        let table: [(String, String, Int32)] = [
            (generationError, "exceededContextWindowSize", FMSHIM_ERR_CONTEXT_EXCEEDED),
            (languageModelError, "contextSizeExceeded", FMSHIM_ERR_CONTEXT_EXCEEDED),
            (generationError, "assetsUnavailable", FMSHIM_ERR_ASSETS_UNAVAILABLE),
            ("FoundationModels.SystemLanguageModel.Error", "assetsUnavailable", FMSHIM_ERR_ASSETS_UNAVAILABLE),
            (generationError, "guardrailViolation", FMSHIM_ERR_GUARDRAIL_VIOLATION),
            (languageModelError, "guardrailViolation", FMSHIM_ERR_GUARDRAIL_VIOLATION),
            (generationError, "unsupportedGuide", FMSHIM_ERR_UNSUPPORTED_GUIDE),
            (languageModelError, "unsupportedGenerationGuide", FMSHIM_ERR_UNSUPPORTED_GUIDE),
            (generationError, "unsupportedLanguageOrLocale", FMSHIM_ERR_UNSUPPORTED_LANGUAGE),
            (languageModelError, "unsupportedLanguageOrLocale", FMSHIM_ERR_UNSUPPORTED_LANGUAGE),
            (generationError, "decodingFailure", FMSHIM_ERR_DECODING_FAILURE),
            (generationError, "rateLimited", FMSHIM_ERR_RATE_LIMITED),
            (languageModelError, "rateLimited", FMSHIM_ERR_RATE_LIMITED),
            (generationError, "concurrentRequests", FMSHIM_ERR_CONCURRENT_REQUESTS),
            ("FoundationModels.LanguageModelSession.Error", "concurrentRequests", FMSHIM_ERR_CONCURRENT_REQUESTS),
            (generationError, "refusal", FMSHIM_ERR_REFUSAL),
            (languageModelError, "refusal", FMSHIM_ERR_REFUSAL),
            ("FoundationModels.LanguageModelSession.Error", "transcriptMutationWhileResponding",
             FMSHIM_ERR_TRANSCRIPT_MUTATION),
        ]
        for (type, caseName, expected) in table {
            XCTAssertEqual(status(type, caseName), expected, "\(type).\(caseName)")
        }
    }

    func testTheDetailIsTheCaseNameThenTheFrameworksWords() {
        let mapped = ErrorTable.map(ErrorTable.Facts(typeName: generationError, caseName: "guardrailViolation",
                                                     text: "unsafe content"))
        XCTAssertEqual(mapped.detail, "guardrailViolation: unsafe content")
        XCTAssertEqual(ErrorTable.map(ErrorTable.Facts(typeName: generationError, caseName: "rateLimited",
                                                       text: "")).detail, "rateLimited")
    }

    func testAnUnknownCaseThatSpeaksOfTheContextWindowIsContextExceeded() {
        // What a shim built with a macOS 26 SDK gets from macOS 27, or any SDK from a newer system.
        XCTAssertEqual(status(languageModelError, "transcriptTooLong", "Exceeded model context window size"),
                       FMSHIM_ERR_CONTEXT_EXCEEDED)
        XCTAssertEqual(status("FoundationModels.NewError", "somethingNew",
                              "FoundationModels.LanguageModelError.ContextSizeExceeded(tokenCount: 9000)"),
                       FMSHIM_ERR_CONTEXT_EXCEEDED)
        XCTAssertEqual(status("Foundation.NSError", "", "The context_length was exceeded"), FMSHIM_ERR_CONTEXT_EXCEEDED)
        XCTAssertEqual(status(languageModelError, "contextLimitReached"), FMSHIM_ERR_CONTEXT_EXCEEDED)
    }

    func testTheContextWordsInEverySpellingAndWhatIsNotThem() {
        for yes in ["context window", "Context Window", "contextSize", "context_size", "context-length",
                    "exceeded the context", "ContextSizeExceeded", "context limit"] {
            XCTAssertTrue(ErrorTable.speaksOfTheContextWindow(yes), yes)
        }
        for no in ["FoundationModels.LanguageModelSession.GenerationError.Context(debugDescription: \"unsafe\")",
                   "refusal", "window", "size", "the context of the request was invalid", ""] {
            XCTAssertFalse(ErrorTable.speaksOfTheContextWindow(no), no)
        }
    }

    func testAnUnknownFrameworkCaseIsGenerationOtherAndAnythingElseInternal() {
        let other = ErrorTable.map(ErrorTable.Facts(typeName: languageModelError, caseName: "somethingNew",
                                                    text: "it broke"))
        XCTAssertEqual(other.status, FMSHIM_ERR_GENERATION_OTHER)
        XCTAssertEqual(other.detail, "FoundationModels.LanguageModelError.somethingNew: it broke")
        XCTAssertEqual(status("Foundation.NSError", "", "the XPC connection broke"), FMSHIM_ERR_INTERNAL)
    }

    func testCancellationAndToolFailures() {
        XCTAssertEqual(ErrorTable.map(CancellationError()).status, FMSHIM_ERR_CANCELLED)
        let tool = ErrorTable.map(ErrorTable.Facts(typeName: "FoundationModels.LanguageModelSession.ToolCallError",
                                                   caseName: "", text: "run_command: disk on fire"))
        XCTAssertEqual(tool.status, FMSHIM_ERR_TOOL_FAILED)
        XCTAssertEqual(tool.detail, "toolCallError: run_command: disk on fire")
    }

    /// Errors of a type no build knows, with and without payloads.
    enum LanguageModelError: Error {
        case contextSizeExceeded(tokens: Int)
        case concurrentRequests
        case brandNew(String)
    }

    struct PlainFailure: Error, LocalizedError {
        var errorDescription: String? { "the model server went away" }
    }

    func testReflectionNamesTheCaseOfATypeThisBuildNeverSaw() {
        let payload = ErrorTable.facts(of: LanguageModelError.contextSizeExceeded(tokens: 9000))
        XCTAssertEqual(payload.caseName, "contextSizeExceeded")
        XCTAssertTrue(payload.typeName.hasSuffix("ErrorTableTests.LanguageModelError"), payload.typeName)
        XCTAssertEqual(ErrorTable.map(LanguageModelError.contextSizeExceeded(tokens: 9000)).status,
                       FMSHIM_ERR_CONTEXT_EXCEEDED)

        XCTAssertEqual(ErrorTable.facts(of: LanguageModelError.concurrentRequests).caseName, "concurrentRequests")
        XCTAssertEqual(ErrorTable.map(LanguageModelError.concurrentRequests).status, FMSHIM_ERR_CONCURRENT_REQUESTS)

        let unknown = ErrorTable.facts(of: LanguageModelError.brandNew("the context window is full"))
        XCTAssertEqual(unknown.caseName, "brandNew")
        XCTAssertTrue(unknown.text.contains("the context window is full"), unknown.text)
        XCTAssertEqual(ErrorTable.map(unknown).status, FMSHIM_ERR_CONTEXT_EXCEEDED)
    }

    func testAnErrorThatIsNoEnumHasNoCaseNameAndKeepsItsWords() {
        let facts = ErrorTable.facts(of: PlainFailure())
        XCTAssertEqual(facts.caseName, "")
        XCTAssertTrue(facts.text.hasPrefix("the model server went away"), facts.text)
        XCTAssertEqual(ErrorTable.map(facts).status, FMSHIM_ERR_INTERNAL)
    }
}
