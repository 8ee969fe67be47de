import FMShimC
import FMShimCore
import Foundation
import FoundationModels

/// The framework's errors as the facts ErrorTable (FMShimCore) maps: the
/// types this SDK knows give their case name and debug description directly;
/// anything else (a newer case, a type of a newer system) goes by reflection.
enum ErrorMapping {

    static func map(_ error: any Error) -> (status: Int32, detail: String) {
        ErrorTable.map(facts(error))
    }

    private static func facts(_ error: any Error) -> ErrorTable.Facts {
        #if FMSHIM_MACOS_27_SDK
        if #available(macOS 27.0, *), let known = facts27(error) {
            return known
        }
        #endif
        if let generation = error as? LanguageModelSession.GenerationError, let known = facts26(generation) {
            return known
        }
        if let toolCall = error as? LanguageModelSession.ToolCallError {
            return ErrorTable.Facts(typeName: String(reflecting: type(of: toolCall)), caseName: "",
                                    text: "\(toolCall.tool.name): \(toolCall.underlyingError)")
        }
        return ErrorTable.facts(of: error)
    }

    /// LanguageModelSession.GenerationError, the errors of macOS 26; nil for a case this SDK cannot name.
    private static func facts26(_ error: LanguageModelSession.GenerationError) -> ErrorTable.Facts? {
        let named: (String, String)
        switch error {
        case .exceededContextWindowSize(let context):
            named = ("exceededContextWindowSize", context.debugDescription)
        case .assetsUnavailable(let context):
            named = ("assetsUnavailable", context.debugDescription)
        case .guardrailViolation(let context):
            named = ("guardrailViolation", context.debugDescription)
        case .unsupportedGuide(let context):
            named = ("unsupportedGuide", context.debugDescription)
        case .unsupportedLanguageOrLocale(let context):
            named = ("unsupportedLanguageOrLocale", context.debugDescription)
        case .decodingFailure(let context):
            named = ("decodingFailure", context.debugDescription)
        case .rateLimited(let context):
            named = ("rateLimited", context.debugDescription)
        case .concurrentRequests(let context):
            named = ("concurrentRequests", context.debugDescription)
        case .refusal(_, let context):
            named = ("refusal", context.debugDescription)
        @unknown default:
            return nil
        }
        return ErrorTable.Facts(typeName: String(reflecting: type(of: error)), caseName: named.0, text: named.1)
    }

    #if FMSHIM_MACOS_27_SDK
    /// LanguageModelError, which macOS 27 throws to programs built with its SDK: the cases whose payload
    /// says more than reflection would. Its other cases, SystemLanguageModel.Error and
    /// LanguageModelSession.Error go by their case names through reflection, like any type this SDK lacks.
    @available(macOS 27.0, *)
    private static func facts27(_ error: any Error) -> ErrorTable.Facts? {
        guard let failure = error as? LanguageModelError else {
            return nil
        }
        let typeName = String(reflecting: type(of: failure))
        switch failure {
        case .contextSizeExceeded(let info):
            return ErrorTable.Facts(typeName: typeName, caseName: "contextSizeExceeded",
                                    text: "\(info.tokenCount) tokens, context size \(info.contextSize)")
        case .rateLimited(let info):
            return ErrorTable.Facts(typeName: typeName, caseName: "rateLimited", text: String(describing: info))
        case .refusal(let info):
            return ErrorTable.Facts(typeName: typeName, caseName: "refusal", text: String(describing: info))
        case .guardrailViolation(let info):
            return ErrorTable.Facts(typeName: typeName, caseName: "guardrailViolation", text: String(describing: info))
        default:
            return nil
        }
    }
    #endif
}
