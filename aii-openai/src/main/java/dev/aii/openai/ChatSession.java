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

    /** What a call gets back when its arguments were cut off by the output limit. */
    static final String CUT_OFF_RESULT = "Error: the call was cut off by the server's output limit and was not run";

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
    /** Whether the last answer's last request filled the context: a 500 after it means the context is full. */
    private boolean contextFull;
    private int generatedIds;
    private volatile Answer current;
    private volatile boolean closed;
    private boolean primed;

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
        Answer answer = new Answer(sink, timeouts.patience());
        current = answer;
        if (!primed) {
            primed = true;
            StreamPrimer.prime();
        }
        try {
            List<ObjectNode> conversation = new ArrayList<>(history);
            conversation.add(Messages.user(prompt));
            for (int round = 0; round < MAX_ROUNDS; round++) {
                Optional<Turn> result = request(answer, new RequestBody(Messages.request(model, instructions,
                        conversation, toolsJson)));
                if (result.isEmpty() || answer.cancelled()) {
                    return;
                }
                Turn turn = result.get();
                contextFull = filledContext(turn);
                if (turn.finishReason().filter("length"::equals).isPresent()) {
                    endCutOff(turn, conversation, answer);
                    return;
                }
                if (turn.calls().isEmpty()) {
                    if (turn.text().isEmpty() && turn.finishReason().filter("content_filter"::equals).isPresent()) {
                        throw ModelException.guardrailViolation("finish_reason \"content_filter\" before any text");
                    }
                    conversation.add(Messages.assistant(turn.text()));
                    keep(conversation);
                    return;
                }
                List<CallArguments> arguments = new ArrayList<>();
                turn.calls().forEach(call -> arguments.add(CallArguments.of(call.arguments())));
                conversation.add(Messages.assistantCalling(turn.text(), turn.calls(), arguments));
                for (int i = 0; i < turn.calls().size(); i++) {
                    ToolCall call = turn.calls().get(i);
                    String output = run(call, arguments.get(i));
                    if (answer.cancelled()) {
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

    /** One request, asked again while the server is busy and the answer's patience lasts. */
    private Optional<Turn> request(Answer answer, RequestBody body) throws ModelException {
        while (true) {
            ChatStream stream = new ChatStream(http, endpoints, timeouts, contextSize);
            if (!answer.begin(stream)) {
                return Optional.empty();
            }
            try {
                return stream.run(body, answer.sink(), this::newCallId,
                        new ChatStream.Situation(answer::textShown, contextFull));
            } catch (ServerBusy busy) {
                if (!answer.await(busy)) {
                    if (answer.cancelled()) {
                        return Optional.empty();
                    }
                    throw busy.error();
                }
            }
        }
    }

    /**
     * The server stopped at its output limit. When the context is full that is
     * {@code context_exceeded}; otherwise the text stands as the answer, no
     * call in it runs, and the sink hears that it was cut off.
     */
    private void endCutOff(Turn turn, List<ObjectNode> conversation, Answer answer) throws ModelException {
        int size = contextSize.getAsInt();
        if (contextFull) {
            throw ModelException.contextExceeded(size, "finish_reason \"length\" with "
                    + turn.tokensUsed().getAsInt() + " tokens in a context of " + size);
        }
        if (turn.calls().isEmpty()) {
            conversation.add(Messages.assistant(turn.text()));
        } else {
            List<CallArguments> arguments = new ArrayList<>();
            turn.calls().forEach(call -> arguments.add(CallArguments.of(call.arguments())));
            conversation.add(Messages.assistantCalling(turn.text(), turn.calls(), arguments));
            turn.calls().forEach(call -> conversation.add(Messages.toolResult(call.id(), CUT_OFF_RESULT)));
        }
        keep(conversation);
        answer.sink().cutOff();
    }

    /** Whether the request's prompt and answer took the whole context, as far as the server said. */
    private boolean filledContext(Turn turn) {
        return turn.tokensUsed().isPresent() && turn.tokensUsed().getAsInt() + 1 >= contextSize.getAsInt();
    }

    private void keep(List<ObjectNode> conversation) {
        history.clear();
        history.addAll(conversation);
    }

    private String run(ToolCall call, CallArguments arguments) {
        for (ToolSpec tool : tools) {
            if (tool.name().equals(call.name())) {
                return tool.handler().call(arguments.forTool());
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
