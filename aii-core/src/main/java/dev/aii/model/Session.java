package dev.aii.model;

/**
 * A conversation with the model: it keeps its own history, so each
 * {@link #respond} continues the previous ones.
 */
public interface Session extends AutoCloseable {

    /**
     * Sends {@code prompt} and streams the answer into {@code sink}, blocking
     * until the answer is complete, fails, or is cancelled. Tool calls are
     * handled inside, through the session's tools, on the calling thread.
     *
     * <p>After {@link #cancel()} this returns normally as soon as it can; text
     * that still arrives before it returns may reach the sink and is the
     * caller's to ignore.
     *
     * @throws ModelException when the model or its transport fails
     */
    void respond(String prompt, TextSink sink) throws ModelException;

    /** Stops the answer in progress, if any. Callable from any thread, any number of times. */
    void cancel();

    /** Releases the session; a {@link #respond} in progress is cancelled first. */
    @Override
    void close();
}
