import FMShimC
import FMShimCore
import Foundation
import FoundationModels

/// One fmshim_session: a LanguageModelSession and the host's tool callback,
/// over FMShimCore's answer gate, pump and drain, which hold every rule.
final class ShimSession: @unchecked Sendable {

    private let session: LanguageModelSession
    private let toolCallback: fmshim_tool_fn?
    private let toolUserData: UnsafeMutableRawPointer?
    private let link: PumpLink
    private let gate = AnswerGate()

    private init(session: LanguageModelSession, toolCallback: fmshim_tool_fn?,
                 toolUserData: UnsafeMutableRawPointer?, link: PumpLink) {
        self.session = session
        self.toolCallback = toolCallback
        self.toolUserData = toolUserData
        self.link = link
    }

    /// A session with optional instructions and an optional tool (name, description, JSON schema, callback).
    static func make(instructions: String?, tool: (name: String, description: String, schema: String)?,
                     toolCallback: fmshim_tool_fn?, toolUserData: UnsafeMutableRawPointer?) throws -> ShimSession {
        let link = PumpLink()
        var tools: [any Tool] = []
        if let tool {
            let parameters = try SchemaBuilder.generationSchema(json: tool.schema, name: tool.name)
            tools.append(HostTool(name: tool.name, description: tool.description, parameters: parameters, link: link))
        }
        // The concrete SystemLanguageModel overloads (macOS 26); the macOS 27 SDK adds generic
        // `model: some LanguageModel` ones, which a bare `.default` would leave to overload ranking.
        let model = SystemLanguageModel.default
        let session: LanguageModelSession
        if let instructions {
            session = LanguageModelSession(model: model, tools: tools, instructions: instructions)
        } else {
            session = LanguageModelSession(model: model, tools: tools)
        }
        return ShimSession(session: session, toolCallback: toolCallback, toolUserData: toolUserData, link: link)
    }

    /// fmshim_session_cancel.
    func cancel(_ answerID: Int64) {
        gate.cancel(answerID)
    }

    /// fmshim_session_free: true when the session may be released now.
    func requestFree() -> Bool {
        gate.requestFree()
    }

    /// fmshim_session_respond, on the host's thread, which it blocks: a Task streams the answer into a
    /// pump and this thread drains it, so every callback runs here, and none after return.
    func respond(answerID: Int64, prompt: String, onEvent: fmshim_event_fn, userData: UnsafeMutableRawPointer?,
                 detail: UnsafeMutablePointer<CChar>?, capacity: Int64) -> (status: Int32, release: Bool) {
        let pump: Pump
        switch gate.start(answerID) {
        case .started(let started):
            pump = started
        case .busy:
            CText.putDetail("the session is already responding", into: detail, capacity: capacity)
            return (FMSHIM_ERR_BUSY, false)
        case .invalidID:
            CText.putDetail("answer ids must be positive and increase", into: detail, capacity: capacity)
            return (FMSHIM_ERR_INVALID_ARGUMENT, false)
        case .cancelled:
            return (FMSHIM_ERR_CANCELLED, false)
        case .stillStopping:
            CText.putDetail("concurrentRequests: the previous answer is still stopping", into: detail,
                            capacity: capacity)
            return (FMSHIM_ERR_CONCURRENT_REQUESTS, false)
        }

        link.set(pump)
        let box = SessionBox(session)
        let gate = self.gate
        let generation = Task.detached(priority: .userInitiated) {
            await Pump.$current.withValue(pump) {
                await ShimSession.generate(session: box, prompt: prompt, into: pump)
            }
            gate.generationEnded()
        }
        pump.whenCancelled { generation.cancel() }

        let host = Drain.Host(
            event: { kind, bytes in
                bytes.withUnsafeBytes { raw in
                    onEvent(userData, kind, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int64(raw.count))
                }
            },
            tool: { id, arguments in self.callTool(answerID: id, arguments: arguments) })
        let outcome = Drain.run(pump, host: host, stop: { generation.cancel() })
        link.clear(pump)
        let release = gate.finishRespond()
        if outcome.status != FMSHIM_OK {
            CText.putDetail(outcome.detail, into: detail, capacity: capacity)
        }
        return (outcome.status, release)
    }

    /// Runs the host's tool callback on this (the host's) thread.
    private func callTool(answerID: Int64, arguments: String) -> Drain.ToolOutcome {
        guard let toolCallback else {
            return .failed("the session has no tool callback")
        }
        let reply = ToolReply()
        var bytes = Array(arguments.utf8)
        let length = Int64(bytes.count)
        bytes.append(0)
        let answer = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                toolCallback(toolUserData, answerID, chars.baseAddress, length, reply.handle)
            }
        }
        return withExtendedLifetime(reply) {
            if answer != 0 {
                return .failed("the tool callback returned \(answer)")
            }
            guard let text = reply.text else {
                return .failed("the tool callback returned 0 without a result")
            }
            return .result(text)
        }
    }

    /// The Task's side: streams snapshots and posts what each adds.
    private static func generate(session box: SessionBox, prompt: String, into pump: Pump) async {
        var diff = SnapshotDiff()
        do {
            let stream = box.session.streamResponse(to: prompt)
            for try await snapshot in stream {
                // Whether the framework honours cancellation is not documented: stop reading at once.
                try Task.checkCancellation()
                if let event = diff.next(snapshot.content) {
                    pump.post(.event(kind: event.kind, bytes: event.bytes))
                }
            }
            pump.post(.finished(status: FMSHIM_OK, detail: ""))
        } catch {
            let mapped = ErrorMapping.map(error)
            pump.post(.finished(status: mapped.status, detail: mapped.detail))
        }
    }
}

/// Carries the (non-Sendable) framework session into the answer's Task; only
/// one generation uses it at a time, which the answer gate guarantees.
private struct SessionBox: @unchecked Sendable {
    let session: LanguageModelSession

    init(_ session: LanguageModelSession) {
        self.session = session
    }
}

/// The fmshim_tool_reply a tool callback writes its result into; valid
/// while the callback runs.
final class ToolReply {

    private(set) var text: String?

    var handle: OpaquePointer {
        OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
    }

    static func from(_ handle: OpaquePointer) -> ToolReply {
        Unmanaged<ToolReply>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }

    func set(_ value: String) {
        text = value
    }
}
