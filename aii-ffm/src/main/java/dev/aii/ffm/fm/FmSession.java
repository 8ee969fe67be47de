package dev.aii.ffm.fm;

import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.TextSink;
import java.util.Objects;

/** A conversation with the on-device model: the model SPI over a {@link NativeSession}. */
final class FmSession implements Session {

    private final NativeSession session;
    private final String toolName;
    private final int contextSize;

    FmSession(NativeSession session, String toolName, int contextSize) {
        this.session = Objects.requireNonNull(session, "session");
        this.toolName = toolName;
        this.contextSize = contextSize;
    }

    /**
     * {@inheritDoc}
     *
     * <p>An exception thrown by {@code sink} ends the answer and is rethrown
     * here unchanged: it is the caller's own. An exception thrown by the tool
     * becomes an {@code internal_error} with it as the cause.
     */
    @Override
    public void respond(String prompt, TextSink sink) throws ModelException {
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(sink, "sink");
        NativeSession.Outcome outcome;
        try {
            outcome = session.respond(prompt, sink);
        } catch (IllegalStateException e) {
            throw ModelException.internal("The Foundation Models session is closed", null, e);
        }
        if (outcome.failure().isPresent()) {
            throw failure(outcome.failure().get());
        }
        if (outcome.cancelled() || outcome.status() == Status.OK || outcome.status() == Status.CANCELLED) {
            return;
        }
        if (outcome.status() == Status.CONCURRENT_REQUESTS && outcome.afterEarlyEnd()) {
            // Not "Model busy": the framework is still winding down the answer this session stopped.
            throw ModelException.internal("The previous answer is still stopping in Foundation Models; try again",
                    outcome.detail().isEmpty() ? null : outcome.detail(), null);
        }
        throw Errors.of(outcome.status(), outcome.detail(), contextSize);
    }

    private ModelException failure(Answer.Failure failure) {
        Throwable cause = failure.cause();
        return switch (failure.kind()) {
            case SINK -> {
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                yield ModelException.internal("Writing the answer failed", String.valueOf(cause), cause);
            }
            case TOOL -> ModelException.internal("The " + toolName + " tool failed", String.valueOf(cause), cause);
            case FOREIGN_THREAD -> ModelException.internal(
                    "The Foundation Models shim called back on a thread other than the answering one",
                    cause.getMessage(), cause);
            case BAD_EVENT -> ModelException.internal(
                    "The Foundation Models shim sent an answer event aii cannot read", String.valueOf(cause), cause);
            case STALE_CALL -> ModelException.internal(
                    "The Foundation Models shim passed on a call of an earlier answer", cause.getMessage(), cause);
        };
    }

    @Override
    public void cancel() {
        session.cancel();
    }

    @Override
    public void close() {
        session.close();
    }
}
