import FMShimC
import FMShimCore
import Foundation
import FoundationModels

/// The functions of fmshim.h that need no session.
enum ModelInfo {

    /// How long fmshim_token_count waits for the framework's count (fmshim.h).
    static let tokenCountDeadline: TimeInterval = 5

    static func availability() -> Int32 {
        switch SystemLanguageModel.default.availability {
        case .available:
            return FMSHIM_AVAILABLE
        case .unavailable(let reason):
            switch reason {
            case .deviceNotEligible:
                return FMSHIM_UNAVAILABLE_DEVICE_NOT_ELIGIBLE
            case .appleIntelligenceNotEnabled:
                return FMSHIM_UNAVAILABLE_NOT_ENABLED
            case .modelNotReady:
                return FMSHIM_UNAVAILABLE_MODEL_NOT_READY
            @unknown default:
                return FMSHIM_UNAVAILABLE_UNKNOWN
            }
        }
    }

    static func contextSize(_ out: UnsafeMutablePointer<Int64>?) -> Int32 {
        guard let out else { return FMSHIM_ERR_INVALID_ARGUMENT }
        #if FMSHIM_MACOS_26_4_SDK
        // Back-deployed by the macOS 26.4 SDK, so usable on every macOS 26. Passed on as it is: 0 while
        // macOS 27's model gets ready means "not known yet", which the host decides what to do with.
        out.pointee = Int64(SystemLanguageModel.default.contextSize)
        return FMSHIM_OK
        #else
        return FMSHIM_ERR_UNSUPPORTED
        #endif
    }

    static func tokenCount(_ text: UnsafePointer<CChar>?, _ length: Int64, _ out: UnsafeMutablePointer<Int64>?,
                           _ detail: UnsafeMutablePointer<CChar>?, _ capacity: Int64) -> Int32 {
        guard let out, let string = CText.string(text, length: length) else {
            CText.putDetail("text must be UTF-8 and out_tokens not NULL", into: detail, capacity: capacity)
            return FMSHIM_ERR_INVALID_ARGUMENT
        }
        #if FMSHIM_MACOS_26_4_SDK
        if #available(macOS 26.4, *) {
            // Counted as a Prompt: the session sends the host's text as one, so this is the count it sees.
            // Bounded, so that a count the framework never finishes cannot hold the host's thread.
            let result = Blocking.run(deadline: tokenCountDeadline) {
                try await SystemLanguageModel.default.tokenCount(for: Prompt(string))
            }
            switch result {
            case .success(let count):
                out.pointee = Int64(count)
                return FMSHIM_OK
            case .failure(let error as Blocking.TimedOut):
                CText.putDetail("token count \(error)", into: detail, capacity: capacity)
                return FMSHIM_ERR_INTERNAL
            case .failure(let error):
                let mapped = ErrorMapping.map(error)
                CText.putDetail(mapped.detail, into: detail, capacity: capacity)
                return mapped.status
            }
        }
        #endif
        _ = string
        return FMSHIM_ERR_UNSUPPORTED
    }

    static func supportedLanguages(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64) -> Int64 {
        let tags = SystemLanguageModel.default.supportedLanguages.map(tag).sorted()
        guard let data = try? JSONSerialization.data(withJSONObject: tags),
              let json = String(data: data, encoding: .utf8) else {
            return -Int64(FMSHIM_ERR_INTERNAL)
        }
        return CText.put(json, into: buffer, capacity: capacity)
    }

    static func variant(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64) -> Int64 {
        #if FMSHIM_MACOS_27_SDK
        if #available(macOS 27.0, *) {
            return CText.put(SystemLanguageModel.default.variant.displayName, into: buffer, capacity: capacity)
        }
        #endif
        return -Int64(FMSHIM_ERR_UNSUPPORTED)
    }

    /// The language's own code, script and region joined by "-"; the Java
    /// side decides what to show.
    private static func tag(_ language: Locale.Language) -> String {
        [language.languageCode?.identifier, language.script?.identifier, language.region?.identifier]
            .compactMap { $0 }
            .joined(separator: "-")
    }
}
