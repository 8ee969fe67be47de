import FMShimC
import Foundation
import FoundationModels

/// The framework's errors as the stable status codes of fmshim.h, each with
/// a detail in the framework's own words: the case name, then what it says.
enum ErrorMapping {

    static func map(_ error: any Error) -> (status: Int32, detail: String) {
        #if FMSHIM_MACOS_27_SDK
        if #available(macOS 27.0, *) {
            if let mapped = map27(error) {
                return mapped
            }
        }
        #endif
        if let generation = error as? LanguageModelSession.GenerationError {
            return map26(generation)
        }
        if let toolCall = error as? LanguageModelSession.ToolCallError {
            return (FMSHIM_ERR_TOOL_FAILED, "toolCallError: \(toolCall.tool.name): \(toolCall.underlyingError)")
        }
        if error is CancellationError {
            return (FMSHIM_ERR_CANCELLED, "cancelled")
        }
        return (FMSHIM_ERR_INTERNAL, String(reflecting: error))
    }

    /// LanguageModelSession.GenerationError, the errors of macOS 26 (kept by
    /// macOS 27 for programs built with an older SDK).
    private static func map26(_ error: LanguageModelSession.GenerationError) -> (status: Int32, detail: String) {
        switch error {
        case .exceededContextWindowSize(let context):
            return (FMSHIM_ERR_CONTEXT_EXCEEDED, detail("exceededContextWindowSize", context.debugDescription))
        case .assetsUnavailable(let context):
            return (FMSHIM_ERR_ASSETS_UNAVAILABLE, detail("assetsUnavailable", context.debugDescription))
        case .guardrailViolation(let context):
            return (FMSHIM_ERR_GUARDRAIL_VIOLATION, detail("guardrailViolation", context.debugDescription))
        case .unsupportedGuide(let context):
            return (FMSHIM_ERR_UNSUPPORTED_GUIDE, detail("unsupportedGuide", context.debugDescription))
        case .unsupportedLanguageOrLocale(let context):
            return (FMSHIM_ERR_UNSUPPORTED_LANGUAGE, detail("unsupportedLanguageOrLocale", context.debugDescription))
        case .decodingFailure(let context):
            return (FMSHIM_ERR_DECODING_FAILURE, detail("decodingFailure", context.debugDescription))
        case .rateLimited(let context):
            return (FMSHIM_ERR_RATE_LIMITED, detail("rateLimited", context.debugDescription))
        case .concurrentRequests(let context):
            return (FMSHIM_ERR_CONCURRENT_REQUESTS, detail("concurrentRequests", context.debugDescription))
        case .refusal(_, let context):
            return (FMSHIM_ERR_REFUSAL, detail("refusal", context.debugDescription))
        @unknown default:
            return (FMSHIM_ERR_GENERATION_OTHER, String(reflecting: error))
        }
    }

    #if FMSHIM_MACOS_27_SDK
    /// LanguageModelError, SystemLanguageModel.Error and
    /// LanguageModelSession.Error, which macOS 27 throws to programs built
    /// with its SDK; nil for any other error.
    @available(macOS 27.0, *)
    private static func map27(_ error: any Error) -> (status: Int32, detail: String)? {
        if let failure = error as? LanguageModelError {
            switch failure {
            case .contextSizeExceeded(let info):
                return (FMSHIM_ERR_CONTEXT_EXCEEDED,
                        detail("contextSizeExceeded", "\(info.tokenCount) tokens, context size \(info.contextSize)"))
            case .rateLimited(let info):
                return (FMSHIM_ERR_RATE_LIMITED, detail("rateLimited", String(describing: info)))
            case .refusal(let info):
                return (FMSHIM_ERR_REFUSAL, detail("refusal", String(describing: info)))
            case .guardrailViolation(let info):
                return (FMSHIM_ERR_GUARDRAIL_VIOLATION, detail("guardrailViolation", String(describing: info)))
            case .unsupportedLanguageOrLocale(let info):
                return (FMSHIM_ERR_UNSUPPORTED_LANGUAGE,
                        detail("unsupportedLanguageOrLocale", info.languageCode.identifier))
            case .unsupportedGenerationGuide(let info):
                return (FMSHIM_ERR_UNSUPPORTED_GUIDE, detail("unsupportedGenerationGuide", String(describing: info)))
            default:
                // Cases this shim does not name keep a status of their own.
                return (FMSHIM_ERR_GENERATION_OTHER, String(reflecting: failure))
            }
        }
        if let failure = error as? SystemLanguageModel.Error {
            switch failure {
            case .assetsUnavailable(let info):
                return (FMSHIM_ERR_ASSETS_UNAVAILABLE, detail("assetsUnavailable", String(describing: info)))
            default:
                return (FMSHIM_ERR_GENERATION_OTHER, String(reflecting: failure))
            }
        }
        if let failure = error as? LanguageModelSession.Error {
            switch failure {
            case .concurrentRequests:
                return (FMSHIM_ERR_CONCURRENT_REQUESTS, "concurrentRequests")
            case .transcriptMutationWhileResponding:
                return (FMSHIM_ERR_TRANSCRIPT_MUTATION, "transcriptMutationWhileResponding")
            default:
                return (FMSHIM_ERR_GENERATION_OTHER, String(reflecting: failure))
            }
        }
        return nil
    }
    #endif

    private static func detail(_ caseName: String, _ description: String) -> String {
        description.isEmpty ? caseName : "\(caseName): \(description)"
    }
}
