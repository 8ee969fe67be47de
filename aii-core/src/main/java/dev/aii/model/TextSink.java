package dev.aii.model;

import java.time.Duration;

/**
 * Receives the text of an answer as it streams, and the few things a
 * backend has to tell about an answer besides its text. All calls come on the
 * thread that called {@link Session#respond}.
 */
@FunctionalInterface
public interface TextSink {

    /** Called with each piece of text, in order. */
    void accept(String piece);

    /**
     * The server ended the answer at its output limit: the text so far is all
     * there is, and no tool call it was making has run. Called at most once,
     * just before {@link Session#respond} returns.
     */
    default void cutOff() {
    }

    /**
     * The server is busy (loading its model, or rate limiting) and the backend
     * waits {@code wait} before asking again; {@link Session#cancel()} ends the
     * wait. Called before each wait.
     *
     * @param reason what the server answered, e.g. {@code HTTP 503: Loading model}
     */
    default void waiting(String reason, Duration wait) {
    }
}
