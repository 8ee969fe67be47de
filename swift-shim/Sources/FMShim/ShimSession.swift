import FMShimC
import Foundation
import FoundationModels

/// One fmshim_session: a LanguageModelSession, the host's tool callback, and
/// the state of the answer in progress.
final class ShimSession: @unchecked Sendable {

    private let session: LanguageModelSession
    private let toolCallback: fmshim_tool_fn?
    private let toolUserData: UnsafeMutableRawPointer?
    private let link: PumpLink

    private let lock = NSLock()
    private var responding = false
    private var cancelRequested = false
    private var freeRequested = false
    private var task: Task<Void, Never>?

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

    /// fmshim_session_cancel: stops the answer in progress, if any.
    func cancel() {
        lock.lock()
        let running = task
        if responding {
            cancelRequested = true
        }
        lock.unlock()
        running?.cancel()
    }

    /// fmshim_session_free: true when the session may be released now; false
    /// when an answer is in progress, which then releases it when it returns.
    func requestFree() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if responding {
            freeRequested = true
            return false
        }
        return true
    }

    /// fmshim_session_respond. Runs on the host's thread and blocks it: a
    /// Task streams the answer into a pump, and this thread drains the pump,
    /// so every callback runs here, one at a time, and none after return.
    func respond(prompt: String, onEvent: fmshim_event_fn, userData: UnsafeMutableRawPointer?,
                 detail: UnsafeMutablePointer<CChar>?, capacity: Int64) -> (status: Int32, release: Bool) {
        let pump = Pump()
        lock.lock()
        if responding {
            lock.unlock()
            CText.putDetail("the session is already responding", into: detail, capacity: capacity)
            return (FMSHIM_ERR_BUSY, false)
        }
        responding = true
        cancelRequested = false
        link.set(pump)
        let box = SessionBox(session)
        let running = Task.detached(priority: .userInitiated) {
            await ShimSession.generate(session: box, prompt: prompt, into: pump)
        }
        task = running
        lock.unlock()

        var stopped: (status: Int32, detail: String)?
        var finished: (status: Int32, detail: String) = (FMSHIM_ERR_INTERNAL, "the answer ended without a status")
        draining: while true {
            switch pump.next() {
            case .event(let kind, let bytes):
                if stopped != nil || isCancelRequested() {
                    continue
                }
                let answer = bytes.withUnsafeBytes { raw in
                    onEvent(userData, kind, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int64(raw.count))
                }
                if answer != 0 {
                    stopped = (FMSHIM_ERR_STOPPED, "stopped by the event callback")
                    running.cancel()
                }
            case .toolCall(let arguments, let slot):
                guard slot.claim() else {
                    continue
                }
                if stopped != nil || isCancelRequested() {
                    slot.finish(.failure(CancellationError()))
                    continue
                }
                let result = callTool(arguments)
                slot.finish(result)
                if case .failure(let error) = result {
                    stopped = (FMSHIM_ERR_TOOL_FAILED, String(describing: error))
                    running.cancel()
                }
            case .finished(let status, let text):
                finished = (status, text)
                break draining
            }
        }
        // From here on nothing calls back: refuse further items, end waiting calls.
        for item in pump.close() {
            if case .toolCall(_, let slot) = item, slot.claim() {
                slot.finish(.failure(CancellationError()))
            }
        }

        lock.lock()
        responding = false
        task = nil
        link.set(nil)
        let cancelled = cancelRequested
        cancelRequested = false
        let release = freeRequested
        lock.unlock()

        let outcome: (status: Int32, detail: String)
        if let stopped {
            outcome = stopped
        } else if cancelled && finished.status != FMSHIM_OK {
            outcome = (FMSHIM_ERR_CANCELLED, "cancelled")
        } else {
            outcome = finished
        }
        if outcome.status != FMSHIM_OK {
            CText.putDetail(outcome.detail, into: detail, capacity: capacity)
        }
        return (outcome.status, release)
    }

    private func isCancelRequested() -> Bool {
        lock.withLock { cancelRequested }
    }

    /// Runs the host's tool callback on this (the host's) thread.
    private func callTool(_ arguments: String) -> Result<String, any Error> {
        guard let toolCallback else {
            return .failure(HostToolFailure(description: "the session has no tool callback"))
        }
        let reply = ToolReply()
        var bytes = Array(arguments.utf8)
        let length = Int64(bytes.count)
        bytes.append(0)
        let answer = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                toolCallback(toolUserData, chars.baseAddress, length, reply.handle)
            }
        }
        return withExtendedLifetime(reply) {
            if answer != 0 {
                return .failure(HostToolFailure(description: "the tool callback returned \(answer)"))
            }
            guard let text = reply.text else {
                return .failure(HostToolFailure(description: "the tool callback set no result"))
            }
            return .success(text)
        }
    }

    /// The Task's side: streams snapshots and posts what each adds as a
    /// DELTA, or the whole text as a RESET when it does not extend the last.
    private static func generate(session box: SessionBox, prompt: String, into pump: Pump) async {
        var previous: [UInt8] = []
        do {
            let stream = box.session.streamResponse(to: prompt)
            for try await snapshot in stream {
                let current = Array(snapshot.content.utf8)
                if current.starts(with: previous) {
                    if current.count > previous.count {
                        pump.post(.event(kind: FMSHIM_EVENT_DELTA, bytes: Array(current[previous.count...])))
                    }
                } else {
                    pump.post(.event(kind: FMSHIM_EVENT_RESET, bytes: current))
                }
                previous = current
            }
            pump.post(.finished(status: FMSHIM_OK, detail: ""))
        } catch {
            let mapped = ErrorMapping.map(error)
            pump.post(.finished(status: mapped.status, detail: mapped.detail))
        }
    }
}

/// Carries the (non-Sendable) framework session into the answer's Task; only
/// one Task uses it at a time, which the responding flag guarantees.
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
