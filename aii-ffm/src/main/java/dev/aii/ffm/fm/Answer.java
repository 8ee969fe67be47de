package dev.aii.ffm.fm;

import dev.aii.model.TextSink;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One answer in progress: the thread that asked, where its text goes, the
 * id the shim knows it by, and what stopped it. Callbacks of a misbehaving
 * shim may reach it from other threads, so its state is thread-safe; its text
 * is touched only by the answering thread.
 */
final class Answer {

    /** What went wrong on the Java side of an answer. */
    enum FailureKind {
        /** The sink threw. */
        SINK,
        /** The tool handler threw. */
        TOOL,
        /** The shim called back on a thread other than the one that asked. */
        FOREIGN_THREAD,
        /** The shim sent something aii cannot read. */
        BAD_EVENT,
        /** The shim passed on an event or a tool call of another answer. */
        STALE_CALL
    }

    /** The first failure of an answer, with what was thrown. */
    record Failure(FailureKind kind, Throwable cause) {

        Failure {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(cause, "cause");
        }
    }

    final Thread thread;
    final TextSink sink;
    final AnswerText text = new AnswerText();
    private volatile boolean cancelled;
    private volatile long id;
    private final AtomicReference<Failure> failure = new AtomicReference<>();

    Answer(Thread thread, TextSink sink) {
        this.thread = Objects.requireNonNull(thread, "thread");
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    /** The id of the attempt in progress; a retried answer gets a new one for each attempt. */
    long id() {
        return id;
    }

    void id(long value) {
        id = value;
    }


    void cancel() {
        cancelled = true;
    }

    boolean cancelled() {
        return cancelled;
    }

    /** Records the failure unless one was recorded already: the first one is the cause. */
    void fail(FailureKind kind, Throwable cause) {
        failure.compareAndSet(null, new Failure(kind, cause));
    }

    Optional<Failure> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Whether callbacks should tell the shim to stop. */
    boolean stopping() {
        return cancelled || failure.get() != null;
    }
}
