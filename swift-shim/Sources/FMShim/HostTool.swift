import FMShimCore
import Foundation
import FoundationModels

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
        // The pump of the answer this call's generation belongs to. The link is for a framework that runs
        // tools outside that task; it points at an answer only while no earlier generation still runs.
        guard let pump = Pump.current ?? link.current() else {
            // No answer is in progress (a stopped one winding down): nobody may run the call.
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
