package dev.aii.ffm.fm;

import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.aii.ffm.fm.bindings.fmshim_event_fn;
import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.ffm.fm.bindings.fmshim_tool_fn;
import dev.aii.model.ModelException;
import dev.aii.model.TextSink;
import dev.aii.model.ToolSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The owner of one {@code fmshim_session}: it holds the handle and the arena
 * of the session's callbacks, and frees both exactly once. Respond, cancel and
 * close may come from different threads; the handle is freed only when no
 * respond runs on it.
 *
 * <p>Every answer gets an id of its own, which the shim is given with the
 * prompt and with a cancel: a cancel that comes before the shim has started
 * the answer still stops it, and a callback that carries another answer's id
 * is refused. An earlier answer that was stopped may still be winding down
 * in the framework: the shim waits for it (at most 5 s from the stop, and a
 * cancel ends the wait) and only then reports {@code concurrentRequests}.
 * That one wait is all there is; this side does not ask again.
 */
public final class NativeSession implements AutoCloseable {

    /**
     * How an answer ended.
     *
     * @param status the shim's status
     * @param detail the shim's words on a failure; empty otherwise
     * @param failure what went wrong on the Java side, if anything
     * @param cancelled whether {@link #cancel()} or {@link #close()} stopped it
     * @param afterEarlyEnd whether the session's previous answer was stopped before it completed
     */
    record Outcome(Status status, String detail, Optional<Answer.Failure> failure, boolean cancelled,
            boolean afterEarlyEnd) {

        Outcome {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(detail, "detail");
            Objects.requireNonNull(failure, "failure");
        }
    }

    private final Arena arena;
    private final MemorySegment handle;
    private final MemorySegment onEvent;
    private final Upcalls upcalls;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private Answer current;
    private long nextAnswerId = 1;
    private boolean previousEndedEarly;
    private boolean closing;
    private boolean closed;

    private NativeSession(Arena arena, MemorySegment handle, MemorySegment onEvent, Upcalls upcalls) {
        this.arena = arena;
        this.handle = handle;
        this.onEvent = onEvent;
        this.upcalls = upcalls;
    }

    static NativeSession open(Optional<String> instructions, Optional<ToolSpec> tool, int contextSize)
            throws ModelException {
        // Shared: the callbacks must stay callable, and the session closable, from any thread.
        Arena arena = Arena.ofShared();
        boolean opened = false;
        try {
            Upcalls upcalls = new Upcalls(tool.map(ToolSpec::handler));
            MemorySegment onEvent = fmshim_event_fn.allocate(upcalls::onEvent, arena);
            MemorySegment onTool = tool.isPresent() ? fmshim_tool_fn.allocate(upcalls::onTool, arena) : MemorySegment.NULL;
            try (Arena call = Arena.ofConfined()) {
                MemorySegment detail = call.allocate(Shim.DETAIL_CAPACITY);
                MemorySegment out = call.allocate(ADDRESS);
                int code = fmshim_h.fmshim_session_create(
                        text(call, instructions, "the instructions"),
                        text(call, tool.map(ToolSpec::name), "the tool's name"),
                        text(call, tool.map(ToolSpec::description), "the tool's description"),
                        text(call, tool.map(ToolSpec::parametersSchema), "the tool's schema"),
                        onTool, MemorySegment.NULL, detail, Shim.DETAIL_CAPACITY, out);
                Status status = Status.of(code);
                if (status != Status.OK) {
                    throw Errors.of(status, detailText(code, status, detail), contextSize);
                }
                MemorySegment handle = out.get(ADDRESS, 0);
                if (handle.address() == 0) {
                    throw ModelException.internal("The Foundation Models shim opened no session", null, null);
                }
                opened = true;
                return new NativeSession(arena, handle, onEvent, upcalls);
            }
        } catch (IllegalArgumentException e) {
            throw ModelException.internal("Cannot open a Foundation Models session: " + e.getMessage(), null, e);
        } finally {
            if (!opened) {
                arena.close();
            }
        }
    }

    /**
     * Sends {@code prompt} and streams the answer's text into {@code sink} on
     * this thread, until the answer ends.
     *
     * @return how it ended; {@link Status#BUSY} without asking the shim when another respond runs
     * @throws IllegalStateException when the session is closed
     */
    Outcome respond(String prompt, TextSink sink) {
        Answer answer = new Answer(Thread.currentThread(), sink);
        boolean afterEarlyEnd;
        lock.lock();
        try {
            if (closing || closed) {
                throw new IllegalStateException("the session is closed");
            }
            if (current != null) {
                return new Outcome(Status.BUSY, "", Optional.empty(), false, false);
            }
            answer.id(nextAnswerId++);
            current = answer;
            afterEarlyEnd = previousEndedEarly;
            upcalls.begin(answer);
        } finally {
            lock.unlock();
        }
        Status status = null;
        String detail = "";
        try (Arena call = Arena.ofConfined()) {
            byte[] bytes = prompt.getBytes(StandardCharsets.UTF_8);
            MemorySegment text = Memory.bytes(call, bytes);
            MemorySegment detailBuffer = call.allocate(Shim.DETAIL_CAPACITY);
            // The answer's id doubles as the event callback's user data, so events of another answer show.
            int code = fmshim_h.fmshim_session_respond(handle, answer.id(), text, bytes.length, onEvent,
                    MemorySegment.ofAddress(answer.id()), detailBuffer, Shim.DETAIL_CAPACITY);
            status = Status.of(code);
            detail = status == Status.OK || status == Status.CANCELLED ? "" : detailText(code, status, detailBuffer);
        } finally {
            upcalls.end();
            responded(status);
        }
        if (status == Status.OK && !answer.stopping()) {
            String rest = answer.text.finish();
            if (!rest.isEmpty()) {
                try {
                    sink.accept(rest);
                } catch (RuntimeException | Error e) {
                    answer.fail(Answer.FailureKind.SINK, e);
                }
            }
        }
        return new Outcome(status, detail, answer.failure(), answer.cancelled(), afterEarlyEnd);
    }

    /** Stops the answer in progress, if any. Any thread, any number of times. */
    public void cancel() {
        lock.lock();
        try {
            if (!closed && current != null) {
                stop(current);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees the session. An answer in progress is cancelled first; from
     * another thread this waits for it to return, from within one of its own
     * callbacks the session is freed as soon as it returns.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closing || closed) {
                return;
            }
            closing = true;
            if (current != null) {
                stop(current);
                if (current.thread == Thread.currentThread()) {
                    return;
                }
                while (current != null) {
                    idle.awaitUninterruptibly();
                }
            }
            free();
        } finally {
            lock.unlock();
        }
    }

    /** Called with the lock held: cancels the answer in progress, or the one about to start. */
    private void stop(Answer answer) {
        answer.cancel();
        fmshim_h.fmshim_session_cancel(handle, answer.id());
    }

    private void responded(Status status) {
        lock.lock();
        try {
            current = null;
            if (status != Status.CONCURRENT_REQUESTS) {
                // An answer that never started leaves the framework as busy as it found it.
                previousEndedEarly = status == null || status == Status.CANCELLED || status == Status.STOPPED
                        || status == Status.TOOL_FAILED;
            }
            idle.signalAll();
            if (closing) {
                free();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Called with the lock held, when no respond runs. */
    private void free() {
        if (closed) {
            return;
        }
        closed = true;
        fmshim_h.fmshim_session_free(handle);
        arena.close();
    }

    private static MemorySegment text(Arena arena, Optional<String> text, String what) {
        return text.map(t -> Memory.cString(arena, t, what)).orElse(MemorySegment.NULL);
    }

    private static String detailText(int code, Status status, MemorySegment buffer) {
        String detail = buffer.getString(0, StandardCharsets.UTF_8);
        if (status != Status.UNRECOGNIZED) {
            return detail;
        }
        return "status " + code + (detail.isEmpty() ? "" : ": " + detail);
    }
}
