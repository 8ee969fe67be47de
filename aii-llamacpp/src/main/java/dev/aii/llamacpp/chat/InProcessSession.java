package dev.aii.llamacpp.chat;

import dev.aii.llamacpp.engine.Chat;
import dev.aii.llamacpp.engine.NativeFailure;
import dev.aii.llamacpp.engine.Turn;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.TextSink;
import dev.aii.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A conversation with the model in this process. Each answer may take
 * several turns: while the model calls tools, their results go into the
 * conversation and the model answers again. The history keeps whole answers
 * only: one that fails or is cancelled leaves it as it was.
 */
public final class InProcessSession implements Session {

    /** Turns one answer may take before the model counts as stuck in a tool loop. */
    static final int MAX_ROUNDS = 64;

    private final KvCache cache;
    private final Chat chat;
    private final Optional<String> instructions;
    private final List<ToolSpec> tools;
    private final Optional<String> toolsJson;
    private final Generation generation;
    private final List<Message> history = new ArrayList<>();
    private volatile boolean cancelled;
    private volatile boolean answering;
    private volatile boolean closed;
    private int callIds;

    public InProcessSession(KvCache cache, Chat chat, SessionOptions options, List<String> stops) {
        this.cache = cache;
        this.chat = chat;
        this.instructions = options.instructions();
        this.tools = options.tools();
        this.toolsJson = tools.isEmpty() ? Optional.empty() : Optional.of(Json.tools(tools));
        this.generation = new Generation(cache, stops);
    }

    @Override
    public void respond(String prompt, TextSink sink) throws ModelException {
        if (closed) {
            throw new IllegalStateException("the session is closed");
        }
        cache.lock().lock();
        cancelled = false;
        cache.context().stop(false);
        answering = true;
        try {
            List<Message> conversation = new ArrayList<>(history);
            conversation.add(Message.user(prompt));
            for (int round = 0; round < MAX_ROUNDS; round++) {
                Optional<Json.Parsed> answer;
                try (Turn turn = render(conversation)) {
                    answer = generation.run(turn, sink, () -> cancelled);
                }
                if (answer.isEmpty() || cancelled) {
                    return;
                }
                List<Message.Call> calls = new ArrayList<>();
                for (Message.Call call : answer.get().calls()) {
                    calls.add(new Message.Call(call.id().isEmpty() ? "call_" + (++callIds) : call.id(), call.name(),
                            call.arguments()));
                }
                conversation.add(Message.assistant(answer.get().content(), calls));
                if (calls.isEmpty()) {
                    history.clear();
                    history.addAll(conversation);
                    return;
                }
                for (Message.Call call : calls) {
                    String result = run(call);
                    if (cancelled) {
                        return;
                    }
                    conversation.add(Message.toolResult(call.id(), result));
                }
            }
            throw ModelException.internal("The model kept calling tools without giving an answer",
                    "more than " + MAX_ROUNDS + " turns in one answer", null);
        } finally {
            answering = false;
            cache.lock().unlock();
        }
    }

    private Turn render(List<Message> conversation) throws ModelException {
        List<Message> messages = new ArrayList<>();
        instructions.ifPresent(text -> messages.add(Message.system(text)));
        messages.addAll(conversation);
        try {
            return chat.render(Json.messages(messages), toolsJson);
        } catch (NativeFailure e) {
            throw Generation.failed(e, cache.context().size());
        }
    }

    private String run(Message.Call call) {
        for (ToolSpec tool : tools) {
            if (tool.name().equals(call.name())) {
                return tool.handler().call(call.arguments());
            }
        }
        return "Error: there is no tool named " + call.name();
    }

    @Override
    public void cancel() {
        if (answering) {
            cancelled = true;
            cache.context().stop(true);
        }
    }

    @Override
    public void close() {
        closed = true;
        cancel();
    }
}
