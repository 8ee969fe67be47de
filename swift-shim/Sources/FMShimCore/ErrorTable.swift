import FMShimC
import Foundation

/// The framework's errors as the status codes of fmshim.h. The table goes by
/// case name, so that it holds for the errors of macOS 26
/// (LanguageModelSession.GenerationError) and of macOS 27 (LanguageModelError,
/// SystemLanguageModel.Error, LanguageModelSession.Error) alike, and for a
/// library built with an SDK that does not know the type it is handed.
package enum ErrorTable {

    /// What is known of an error: its type, its case, and what it says.
    package struct Facts: Equatable, Sendable {
        /// The full type name, e.g. FoundationModels.LanguageModelError.
        package let typeName: String
        /// The case name, e.g. contextSizeExceeded; empty when the error is no enum.
        package let caseName: String
        /// The error's own words (its description); may be empty.
        package let text: String

        package init(typeName: String, caseName: String, text: String) {
            self.typeName = typeName
            self.caseName = caseName
            self.text = text
        }
    }

    /// Case names of both SDK generations and their statuses.
    package static let statuses: [String: Int32] = [
        "exceededContextWindowSize": FMSHIM_ERR_CONTEXT_EXCEEDED,
        "contextSizeExceeded": FMSHIM_ERR_CONTEXT_EXCEEDED,
        "assetsUnavailable": FMSHIM_ERR_ASSETS_UNAVAILABLE,
        "guardrailViolation": FMSHIM_ERR_GUARDRAIL_VIOLATION,
        "unsupportedGuide": FMSHIM_ERR_UNSUPPORTED_GUIDE,
        "unsupportedGenerationGuide": FMSHIM_ERR_UNSUPPORTED_GUIDE,
        "unsupportedLanguageOrLocale": FMSHIM_ERR_UNSUPPORTED_LANGUAGE,
        "decodingFailure": FMSHIM_ERR_DECODING_FAILURE,
        "rateLimited": FMSHIM_ERR_RATE_LIMITED,
        "concurrentRequests": FMSHIM_ERR_CONCURRENT_REQUESTS,
        "refusal": FMSHIM_ERR_REFUSAL,
        "transcriptMutationWhileResponding": FMSHIM_ERR_TRANSCRIPT_MUTATION,
    ]

    /// Words that, in an error this table does not know, mean the context window is full.
    package static let contextWords = [
        "contextwindow", "contextsize", "contextlength", "contextlimit", "exceededcontext", "exceededthecontext",
        "contextexceeded",
    ]

    /// The status and detail (case name, then the error's words) of an error.
    package static func map(_ error: any Error) -> (status: Int32, detail: String) {
        map(facts(of: error))
    }

    package static func map(_ facts: Facts) -> (status: Int32, detail: String) {
        if facts.typeName == "Swift.CancellationError" {
            return (FMSHIM_ERR_CANCELLED, "cancelled")
        }
        if facts.typeName.hasSuffix(".ToolCallError") {
            return (FMSHIM_ERR_TOOL_FAILED, detail("toolCallError", facts.text))
        }
        if let status = statuses[facts.caseName] {
            return (status, detail(facts.caseName, facts.text))
        }
        let name = facts.caseName.isEmpty ? facts.typeName : facts.typeName + "." + facts.caseName
        if speaksOfTheContextWindow(facts.caseName + " " + facts.text) {
            // A case of a newer framework (or one an older SDK cannot name) that says what it is.
            return (FMSHIM_ERR_CONTEXT_EXCEEDED, detail(name, facts.text))
        }
        if facts.typeName.hasPrefix("FoundationModels.") {
            return (FMSHIM_ERR_GENERATION_OTHER, detail(name, facts.text))
        }
        return (FMSHIM_ERR_INTERNAL, detail(name, facts.text))
    }

    /// Whether text names the context window, in any spelling: "context window", "contextSize", "context_length".
    package static func speaksOfTheContextWindow(_ text: String) -> Bool {
        let squeezed = text.lowercased().filter { $0.isLetter }
        return contextWords.contains { squeezed.contains($0) }
    }

    /// What reflection tells of any error, whether or not this build knows its type.
    package static func facts(of error: any Error) -> Facts {
        let typeName = String(reflecting: type(of: error))
        var caseName = ""
        let mirror = Mirror(reflecting: error)
        if mirror.displayStyle == .enum {
            // A case with a payload is a child labelled with the case name; one without prints as its name.
            caseName = mirror.children.first?.label ?? String(describing: error)
        }
        var words: [String] = []
        if let localized = error as? LocalizedError {
            words += [localized.errorDescription, localized.failureReason].compactMap { $0 }
        }
        words.append(String(reflecting: error))
        var seen = Set<String>()
        let text = words.filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: "; ")
        return Facts(typeName: typeName, caseName: caseName, text: text)
    }

    private static func detail(_ name: String, _ text: String) -> String {
        text.isEmpty ? name : "\(name): \(text)"
    }
}
