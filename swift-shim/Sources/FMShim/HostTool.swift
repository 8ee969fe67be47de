import Foundation
import FoundationModels

/// Which pump the session's tool posts its calls to: the pump of the answer
/// in progress, if any.
final class PumpLink: @unchecked Sendable {

    private let lock = NSLock()
    private var pump: Pump?

    func set(_ value: Pump?) {
        lock.withLock { pump = value }
    }

    func current() -> Pump? {
        lock.withLock { pump }
    }
}

/// The host's single tool, as the framework sees it. Its arguments arrive as
/// GeneratedContent and go to the host as their JSON text; the host's text
/// result goes back to the model.
struct HostTool: Tool {

    typealias Arguments = GeneratedContent
    typealias Output = String

    let name: String
    let description: String
    let parameters: GenerationSchema
    let link: PumpLink

    func call(arguments: GeneratedContent) async throws -> String {
        guard let pump = link.current() else {
            // No answer is in progress: nobody could run the call.
            throw CancellationError()
        }
        let json = arguments.jsonString
        let slot = ToolCallSlot()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                // The continuation is registered before the host can see the request.
                slot.install(continuation)
                if !pump.post(.toolCall(arguments: json, slot: slot)) {
                    slot.cancelUnlessClaimed()
                }
            }
        } onCancel: {
            slot.cancelUnlessClaimed()
        }
    }
}

/// Why a tool call failed on the host's side.
struct HostToolFailure: Error, CustomStringConvertible {
    let description: String
}
