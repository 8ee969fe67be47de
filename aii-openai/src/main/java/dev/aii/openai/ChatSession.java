package dev.aii.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.TextSink;
import dev.aii.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * A conversation over chat completions. Each answer may take several
 * requests: while the model asks for tools, their results are sent back and
 * the model is asked again. The history keeps whole answers only: an answer
 * that fails or is cancelled leaves it as it was, prompt included.
 */
final class ChatSession implements Session {

    /** Requests one answer may take before the model counts as stuck in a tool loop. */
    static final int MAX_ROUNDS = 64;

    private final ServerHttp http;
    private final Endpoints endpoints;
    private final Timeouts timeouts;
    private final IntSupplier contextSize;
    private final String model;
    private final Optional<String> instructions;
    private final List<ToolSpec> tools;
    private final ArrayNode toolsJson;

    private final ReentrantLock answering = new ReentrantLock();
    private final List<ObjectNode> history = new ArrayList<>();
    private int generatedIds;
    private volatile Answer current;
    private volatile boolean closed;
    private boolean primed;

    /** One answer in progress: whether it was cancelled, and the request under way. */
    private static final class Answer {
        private volatile boolean cancelled;
        private volatile ChatStream stream;

        /** Makes {@code next} the request under way; false when the answer is already cancelled. */
        boolean begin(ChatStream next) {
            stream = next;
            return !cancelled;
        }

        void cancel() {
            cancelled = true;
            ChatStream s = stream;
            if (s != null) {
                s.cancel();
            }
        }
    }

    ChatSession(ServerHttp http, Endpoints endpoints, Timeouts timeouts, IntSupplier contextSize, String model,
            SessionOptions options) throws ModelException {
        this.http = http;
        this.endpoints = endpoints;
        this.timeouts = timeouts;
        this.contextSize = contextSize;
        this.model = model;
        this.instructions = options.instructions();
        this.tools = options.tools();
        this.toolsJson = Messages.tools(tools);
    }

    @Override
    public void respond(String prompt, TextSink sink) throws ModelException {
        if (closed) {
            throw new IllegalStateException("the session is closed");
        }
        answering.lock();
        Answer answer = new Answer();
        current = answer;
        if (!primed) {
            primed = true;
            StreamPrimer.prime();
        }
        try {
            List<ObjectNode> conversation = new ArrayList<>(history);
            conversation.add(Messages.user(prompt));
            for (int round = 0; round < MAX_ROUNDS; round++) {
                ChatStream stream = new ChatStream(http, endpoints, timeouts, contextSize);
                if (!answer.begin(stream)) {
                    return;
                }
                Optional<Turn> result = stream.run(Messages.request(model, instructions, conversation, toolsJson),
                        sink, this::newCallId);
                if (result.isEmpty() || answer.cancelled) {
                    return;
                }
                Turn turn = result.get();
                if (turn.calls().isEmpty()) {
                    refuseEmpty(turn);
                    conversation.add(Messages.assistant(turn.text()));
                    history.clear();
                    history.addAll(conversation);
                    return;
                }
                conversation.add(Messages.assistantCalling(turn.text(), turn.calls()));
                for (ToolCall call : turn.calls()) {
                    String output = run(call);
                    if (answer.cancelled) {
                        return;
                    }
                    conversation.add(Messages.toolResult(call.id(), output));
                }
            }
            throw ModelException.internal("The model kept calling tools without giving an answer",
                    "more than " + MAX_ROUNDS + " requests in one answer", null);
        } finally {
            current = null;
            answering.unlock();
        }
    }

    /** An answer cut off before any text: the prompt filled the context, or a filter stopped it. */
    private void refuseEmpty(Turn turn) throws ModelException {
        if (!turn.text().isEmpty()) {
            return;
        }
        String reason = turn.finishReason().orElse("");
        if (reason.equals("length")) {
            throw ModelException.contextExceeded(contextSize.getAsInt(),
                    "finish_reason \"length\" before any text");
        }
        if (reason.equals("content_filter")) {
            throw ModelException.guardrailViolation("finish_reason \"content_filter\" before any text");
        }
    }

    private String run(ToolCall call) {
        for (ToolSpec tool : tools) {
            if (tool.name().equals(call.name())) {
                return tool.handler().call(call.arguments());
            }
        }
        return "Error: there is no tool named " + call.name();
    }

    /** Ids for calls the server sent without one; unique within the conversation. */
    private String newCallId() {
        return "call_" + (++generatedIds);
    }

    @Override
    public void cancel() {
        Answer a = current;
        if (a != null) {
            a.cancel();
        }
    }

    @Override
    public void close() {
        closed = true;
        cancel();
    }
}
