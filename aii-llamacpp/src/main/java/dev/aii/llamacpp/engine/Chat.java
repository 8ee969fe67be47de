package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.aii.llamacpp.bindings.aiillama_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/** The chat templates of a model, read by llama.cpp's own Jinja engine in libllama-common. */
public final class Chat implements AutoCloseable {

    private final MemorySegment chat;
    private boolean closed;

    private Chat(MemorySegment chat) {
        this.chat = chat;
    }

    /**
     * The templates of {@code model}.
     *
     * @throws NativeFailure {@link Status#TEMPLATE} when the model has none llama.cpp can read
     */
    public static Chat of(Model model) throws NativeFailure {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            Text.Status status = Text.call(arena, (buffer, capacity, length) ->
                    aiillama_h.aiillama_chat_new(model.handle(), out, buffer, capacity, length));
            if (status.code() != aiillama_h.AIILLAMA_OK()) {
                throw NativeFailure.shim("llama.cpp cannot read the model's chat template", status);
            }
            return new Chat(out.get(ADDRESS, 0));
        }
    }

    /** Whether the template renders tools and tool calls. */
    public boolean supportsTools() {
        return aiillama_h.aiillama_chat_supports_tools(live()) != 0;
    }

    /**
     * Renders {@code messagesJson} (OpenAI-style chat messages) with
     * {@code toolsJson} (OpenAI-style tool definitions), ready for the answer.
     *
     * @throws NativeFailure {@link Status#TEMPLATE} when the template cannot render them
     */
    public Turn render(String messagesJson, Optional<String> toolsJson) throws NativeFailure {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment messages = Text.utf8(arena, messagesJson);
            long messagesLength = Text.length(messagesJson);
            MemorySegment tools = toolsJson.map(t -> Text.utf8(arena, t)).orElse(MemorySegment.NULL);
            long toolsLength = toolsJson.map(Text::length).orElse(0L);
            MemorySegment out = arena.allocate(ADDRESS);
            Text.Status status = Text.call(arena, (buffer, capacity, length) -> aiillama_h.aiillama_turn_new(live(),
                    messages, messagesLength, tools, toolsLength, out, buffer, capacity, length));
            if (status.code() != aiillama_h.AIILLAMA_OK()) {
                throw NativeFailure.shim("llama.cpp cannot render the model's chat template", status);
            }
            return new Turn(out.get(ADDRESS, 0));
        }
    }

    private MemorySegment live() {
        if (closed) {
            throw new IllegalStateException("the chat templates are closed");
        }
        return chat;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            aiillama_h.aiillama_chat_free(chat);
        }
    }
}
