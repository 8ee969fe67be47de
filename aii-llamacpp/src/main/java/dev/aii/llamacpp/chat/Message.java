package dev.aii.llamacpp.chat;

import java.util.List;
import java.util.Objects;

/**
 * One chat message as llama.cpp's templates take it (OpenAI's format).
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content its text
 * @param calls the tool calls of an assistant message
 * @param callId the call a tool message answers
 */
record Message(String role, String content, List<Call> calls, String callId) {

    /** A tool call: its id, the tool's name and the arguments as the model wrote them (JSON text). */
    record Call(String id, String name, String arguments) {

        Call {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    Message {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        calls = List.copyOf(calls);
        Objects.requireNonNull(callId, "callId");
    }

    static Message system(String text) {
        return new Message("system", text, List.of(), "");
    }

    static Message user(String text) {
        return new Message("user", text, List.of(), "");
    }

    static Message assistant(String text, List<Call> calls) {
        return new Message("assistant", text, calls, "");
    }

    static Message toolResult(String callId, String text) {
        return new Message("tool", text, List.of(), callId);
    }
}
