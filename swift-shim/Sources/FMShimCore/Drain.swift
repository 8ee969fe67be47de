import FMShimC

/// The host's side of an answer: drains the pump on the thread that called
/// fmshim_session_respond and runs every callback there, one at a time. It
/// returns as soon as the answer ends, is cancelled, or a callback stops it,
/// without waiting for the generation to wind down, and from then on nothing
/// calls back.
package enum Drain {

    /// What the host's tool callback gave.
    package enum ToolOutcome: Equatable {
        case result(String)
        case failed(String)
    }

    /// The host's callbacks.
    package struct Host {
        /// The event callback: kind and bytes; non-zero stops the answer.
        package let event: (Int32, [UInt8]) -> Int32
        /// The tool callback: the answer's id and the arguments JSON.
        package let tool: (Int64, String) -> ToolOutcome

        package init(event: @escaping (Int32, [UInt8]) -> Int32, tool: @escaping (Int64, String) -> ToolOutcome) {
            self.event = event
            self.tool = tool
        }
    }

    /// Drains pump until the answer is over; stop is called when the host ends it early.
    package static func run(_ pump: Pump, host: Host, stop: () -> Void) -> (status: Int32, detail: String) {
        defer {
            // Nothing calls back from here on: refuse further items, end the calls still waiting.
            for item in pump.close() {
                if case .toolCall(_, let slot) = item, slot.claim() {
                    slot.finish(.failure(CancellationError()))
                }
            }
        }
        while true {
            switch pump.next() {
            case .cancelled:
                stop()
                return (FMSHIM_ERR_CANCELLED, "cancelled")
            case .event(let kind, let bytes):
                if host.event(kind, bytes) != 0 {
                    stop()
                    return (FMSHIM_ERR_STOPPED, "stopped by the event callback")
                }
            case .toolCall(let arguments, let slot):
                guard slot.claim() else {
                    continue
                }
                if pump.isCancelled {
                    slot.finish(.failure(CancellationError()))
                    stop()
                    return (FMSHIM_ERR_CANCELLED, "cancelled")
                }
                switch host.tool(pump.answerID, arguments) {
                case .result(let text):
                    slot.finish(.success(text))
                case .failed(let why):
                    slot.finish(.failure(HostToolFailure(description: why)))
                    stop()
                    return (FMSHIM_ERR_TOOL_FAILED, why)
                }
            case .finished(let status, let detail):
                // A failure after a cancel is the cancel's doing (the framework's CancellationError and the like).
                if status != FMSHIM_OK && pump.isCancelled {
                    return (FMSHIM_ERR_CANCELLED, "cancelled")
                }
                return (status, detail)
            }
        }
    }
}
