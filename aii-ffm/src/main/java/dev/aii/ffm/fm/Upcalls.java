package dev.aii.ffm.fm;

import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.model.ToolHandler;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The Java ends of a session's callbacks. Each catches every Throwable,
 * records it on the answer and returns non-zero, so that no exception ever
 * unwinds into native code (which would end the JVM).
 *
 * <p>Callbacks are accepted only on the thread that called respond, while it
 * runs, and only for the answer in progress: an event carries the answer's id
 * as its user data, a tool call carries it as an argument. A callback on
 * another thread or for another answer (a misbehaving shim) touches neither
 * the sink nor the tool: it fails the answer in progress and returns non-zero.
 * A callback when no answer is in progress is ignored and returns non-zero.
 */
final class Upcalls {

    private final Optional<ToolHandler> tool;
    private volatile Answer current;

    Upcalls(Optional<ToolHandler> tool) {
        this.tool = tool;
    }

    void begin(Answer answer) {
        current = answer;
    }

    void end() {
        current = null;
    }

    /** {@code fmshim_event_fn}. */
    int onEvent(MemorySegment userData, int kind, MemorySegment bytes, long length) {
        Answer answer = null;
        try {
            answer = ownAnswer();
            if (answer == null) {
                return 1;
            }
            if (userData.address() != answer.id()) {
                answer.fail(Answer.FailureKind.STALE_CALL, new IllegalStateException(
                        "an event of answer " + userData.address() + " during answer " + answer.id()));
                return 1;
            }
            if (answer.stopping()) {
                return 1;
            }
            byte[] data = Memory.read(bytes, length);
            String piece;
            if (kind == fmshim_h.FMSHIM_EVENT_DELTA()) {
                piece = answer.text.delta(data);
            } else if (kind == fmshim_h.FMSHIM_EVENT_RESET()) {
                piece = answer.text.reset(data);
            } else {
                answer.fail(Answer.FailureKind.BAD_EVENT, new IllegalArgumentException("unknown event kind " + kind));
                return 1;
            }
            if (!piece.isEmpty()) {
                try {
                    answer.sink.accept(piece);
                } catch (Throwable e) {
                    answer.fail(Answer.FailureKind.SINK, e);
                    return 1;
                }
            }
            return answer.stopping() ? 1 : 0;
        } catch (Throwable e) {
            if (answer != null) {
                answer.fail(Answer.FailureKind.BAD_EVENT, e);
            }
            return 1;
        }
    }

    /** {@code fmshim_tool_fn}. */
    int onTool(MemorySegment userData, long answerId, MemorySegment arguments, long length, MemorySegment reply) {
        Answer answer = null;
        try {
            answer = ownAnswer();
            if (answer == null) {
                return 1;
            }
            if (answerId != answer.id()) {
                // A call the model made for an answer that was stopped: running it now would act unasked.
                answer.fail(Answer.FailureKind.STALE_CALL, new IllegalStateException(
                        "a tool call of answer " + answerId + " during answer " + answer.id() + " was not run"));
                return 1;
            }
            if (answer.stopping() || tool.isEmpty()) {
                return 1;
            }
            String json = new String(Memory.read(arguments, length), StandardCharsets.UTF_8);
            String result;
            try {
                result = tool.get().call(json);
                if (result == null) {
                    throw new NullPointerException("the tool returned null");
                }
            } catch (Throwable e) {
                answer.fail(Answer.FailureKind.TOOL, e);
                return 1;
            }
            byte[] bytes = result.getBytes(StandardCharsets.UTF_8);
            try (Arena arena = Arena.ofConfined()) {
                int status = fmshim_h.fmshim_tool_reply_set(reply, Memory.bytes(arena, bytes), bytes.length);
                if (status != fmshim_h.FMSHIM_OK()) {
                    answer.fail(Answer.FailureKind.BAD_EVENT,
                            new IllegalStateException("fmshim_tool_reply_set failed with status " + status));
                    return 1;
                }
            }
            return 0;
        } catch (Throwable e) {
            if (answer != null) {
                answer.fail(Answer.FailureKind.BAD_EVENT, e);
            }
            return 1;
        }
    }

    /** The answer in progress when called on its thread; otherwise fails it (if any) and gives null. */
    private Answer ownAnswer() {
        Answer answer = current;
        if (answer == null) {
            return null;
        }
        Thread here = Thread.currentThread();
        if (here != answer.thread) {
            answer.fail(Answer.FailureKind.FOREIGN_THREAD, new IllegalStateException(
                    "callback on thread \"" + here.getName() + "\", not on \"" + answer.thread.getName() + "\""));
            return null;
        }
        return answer;
    }
}
