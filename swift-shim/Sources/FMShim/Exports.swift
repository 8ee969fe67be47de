import FMShimC
import FMShimCore
import Foundation

// The C entry points of fmshim.h, one per function, with the header's exact
// C signatures. They check their arguments and hand over to Swift types;
// they hold no policy. Each one that reaches Foundation or the framework runs
// in an autorelease pool of its own: the host's threads have none, so what
// the framework autoreleases would otherwise pile up for the life of the thread.

@_cdecl("fmshim_abi_version")
public func fmshimAbiVersion() -> Int32 {
    FMSHIM_ABI_VERSION
}

@_cdecl("fmshim_availability")
public func fmshimAvailability() -> Int32 {
    autoreleasepool { ModelInfo.availability() }
}

@_cdecl("fmshim_context_size")
public func fmshimContextSize(_ outTokens: UnsafeMutablePointer<Int64>?) -> Int32 {
    autoreleasepool { ModelInfo.contextSize(outTokens) }
}

@_cdecl("fmshim_token_count")
public func fmshimTokenCount(_ text: UnsafePointer<CChar>?, _ textLength: Int64,
                             _ outTokens: UnsafeMutablePointer<Int64>?,
                             _ detail: UnsafeMutablePointer<CChar>?, _ detailCapacity: Int64) -> Int32 {
    autoreleasepool { ModelInfo.tokenCount(text, textLength, outTokens, detail, detailCapacity) }
}

@_cdecl("fmshim_supported_languages")
public func fmshimSupportedLanguages(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64) -> Int64 {
    autoreleasepool { ModelInfo.supportedLanguages(buffer, capacity) }
}

@_cdecl("fmshim_variant")
public func fmshimVariant(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64) -> Int64 {
    autoreleasepool { ModelInfo.variant(buffer, capacity) }
}

@_cdecl("fmshim_session_create")
public func fmshimSessionCreate(_ instructions: UnsafePointer<CChar>?,
                                _ toolName: UnsafePointer<CChar>?,
                                _ toolDescription: UnsafePointer<CChar>?,
                                _ toolParametersSchema: UnsafePointer<CChar>?,
                                _ toolFn: fmshim_tool_fn?,
                                _ toolUserData: UnsafeMutableRawPointer?,
                                _ detail: UnsafeMutablePointer<CChar>?, _ detailCapacity: Int64,
                                _ outSession: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    autoreleasepool {
        createSession(instructions, toolName, toolDescription, toolParametersSchema, toolFn, toolUserData,
                      detail, detailCapacity, outSession)
    }
}

private func createSession(_ instructions: UnsafePointer<CChar>?, _ toolName: UnsafePointer<CChar>?,
                           _ toolDescription: UnsafePointer<CChar>?, _ toolParametersSchema: UnsafePointer<CChar>?,
                           _ toolFn: fmshim_tool_fn?, _ toolUserData: UnsafeMutableRawPointer?,
                           _ detail: UnsafeMutablePointer<CChar>?, _ detailCapacity: Int64,
                           _ outSession: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let outSession else {
        CText.putDetail("out_session is NULL", into: detail, capacity: detailCapacity)
        return FMSHIM_ERR_INVALID_ARGUMENT
    }
    outSession.pointee = nil
    var instructionsText: String?
    if instructions != nil {
        guard let text = CText.string(instructions) else {
            CText.putDetail("instructions are not UTF-8", into: detail, capacity: detailCapacity)
            return FMSHIM_ERR_INVALID_ARGUMENT
        }
        instructionsText = text
    }
    var tool: (name: String, description: String, schema: String)?
    if toolName != nil {
        guard let name = CText.string(toolName), let description = CText.string(toolDescription),
              let schema = CText.string(toolParametersSchema), toolFn != nil else {
            CText.putDetail("a tool needs a UTF-8 name, description and schema, and a callback",
                            into: detail, capacity: detailCapacity)
            return FMSHIM_ERR_INVALID_ARGUMENT
        }
        tool = (name, description, schema)
    }
    do {
        let session = try ShimSession.make(instructions: instructionsText, tool: tool,
                                           toolCallback: toolFn, toolUserData: toolUserData)
        outSession.pointee = OpaquePointer(Unmanaged.passRetained(session).toOpaque())
        return FMSHIM_OK
    } catch let failure as SchemaNode.Failure {
        CText.putDetail(failure.description, into: detail, capacity: detailCapacity)
        return FMSHIM_ERR_SCHEMA
    } catch {
        // GenerationSchema(root:dependencies:) rejects conflicting or undefined names.
        CText.putDetail(String(reflecting: error), into: detail, capacity: detailCapacity)
        return FMSHIM_ERR_SCHEMA
    }
}

@_cdecl("fmshim_session_free")
public func fmshimSessionFree(_ session: OpaquePointer?) {
    guard let session else { return }
    autoreleasepool {
        let unmanaged = Unmanaged<ShimSession>.fromOpaque(UnsafeRawPointer(session))
        // Against the header, but safe: while an answer runs, its respond releases the session when it returns.
        if unmanaged.takeUnretainedValue().requestFree() {
            unmanaged.release()
        }
    }
}

@_cdecl("fmshim_session_cancel")
public func fmshimSessionCancel(_ session: OpaquePointer?, _ answerID: Int64) {
    guard let session else { return }
    Unmanaged<ShimSession>.fromOpaque(UnsafeRawPointer(session)).takeUnretainedValue().cancel(answerID)
}

@_cdecl("fmshim_session_respond")
public func fmshimSessionRespond(_ session: OpaquePointer?, _ answerID: Int64, _ prompt: UnsafePointer<CChar>?,
                                 _ promptLength: Int64, _ onEvent: fmshim_event_fn?,
                                 _ userData: UnsafeMutableRawPointer?, _ detail: UnsafeMutablePointer<CChar>?,
                                 _ detailCapacity: Int64) -> Int32 {
    guard let session, let onEvent, let text = CText.string(prompt, length: promptLength) else {
        CText.putDetail("session and on_event must not be NULL, and the prompt must be UTF-8",
                        into: detail, capacity: detailCapacity)
        return FMSHIM_ERR_INVALID_ARGUMENT
    }
    return autoreleasepool {
        let unmanaged = Unmanaged<ShimSession>.fromOpaque(UnsafeRawPointer(session))
        let result = unmanaged.takeUnretainedValue().respond(answerID: answerID, prompt: text, onEvent: onEvent,
                                                             userData: userData, detail: detail,
                                                             capacity: detailCapacity)
        if result.release {
            unmanaged.release()
        }
        return result.status
    }
}

@_cdecl("fmshim_tool_reply_set")
public func fmshimToolReplySet(_ reply: OpaquePointer?, _ result: UnsafePointer<CChar>?,
                               _ resultLength: Int64) -> Int32 {
    guard let reply, let text = CText.string(result, length: resultLength) else {
        return FMSHIM_ERR_INVALID_ARGUMENT
    }
    ToolReply.from(reply).set(text)
    return FMSHIM_OK
}
