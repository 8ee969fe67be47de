package dev.aii.exec;

import dev.aii.model.ToolHandler;
import dev.aii.model.ToolSpec;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One answer of the model, opened by {@link RunCommandTool#startAnswer()}:
 * the tool calls of that answer, their limit of
 * {@link Limits#commandsPerAnswer()} commands, and their interruption. Each
 * answer has its own, so an interrupt meant for one answer never stops the
 * next, and an answer that is never closed never uses up another's limit.
 *
 * {@snippet :
 * try (AnswerScope answer = tool.startAnswer()) {
 *     session.respond(prompt, sink);       // the session's run_command calls go to this answer
 * }
 * // or, where your framework hands you each call:
 * try (AnswerScope answer = tool.startAnswer()) {
 *     String result = answer.call(argumentsJson);
 * }
 * }
 *
 * <p>Closing ends the answer: a command still running is stopped as by
 * {@link #interrupt()}, and a later {@link #call} throws
 * {@link IllegalStateException}.
 */
public final class AnswerScope implements ToolHandler, AutoCloseable {

    private final RunCommandTool tool;
    /** The answer this thread had open when this one was started, given back on close. */
    private final AnswerScope outer;
    private final AtomicInteger calls = new AtomicInteger();
    private final Cancellation cancellation = new Cancellation();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The prompts of this answer waiting for the user now (one on the terminal, others queued behind it). */
    private final Set<Cancellation> pendingPrompts = ConcurrentHashMap.newKeySet();

    AnswerScope(RunCommandTool tool, AnswerScope outer) {
        this.tool = tool;
        this.outer = outer;
    }

    /**
     * Runs one tool call of this answer and returns the text for the model;
     * never throws for expected failures (every one is a result string).
     *
     * @throws IllegalStateException when the answer has been closed
     */
    @Override
    public String call(String argumentsJson) {
        if (closed.get()) {
            throw new IllegalStateException("this answer has ended: start a new one with tool.startAnswer()");
        }
        return tool.call(this, argumentsJson);
    }

    /**
     * The tool as {@link RunCommandTool#spec()} offers it, with every call
     * going to this answer whatever thread makes it: for a framework that
     * takes its tools per request and may call them on threads of its own.
     */
    public ToolSpec spec() {
        ToolSpec shared = tool.spec();
        return new ToolSpec(shared.name(), shared.description(), shared.parametersSchema(), this);
    }

    /**
     * Stops this answer's work (Ctrl-C): a running command is terminated, a
     * pending prompt counts as "no", and later calls of this answer run
     * nothing. Callable from any thread, any number of times.
     */
    public void interrupt() {
        cancellation.cancel();
    }

    /**
     * Answers "no" to this answer's approval prompts pending now (Ctrl-C at a
     * prompt declines that command; the answer goes on).
     *
     * @return whether there was a prompt to decline
     */
    public boolean declinePendingPrompt() {
        boolean any = false;
        for (Cancellation prompt : pendingPrompts) {
            prompt.cancel();
            any = true;
        }
        return any;
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Ends the answer: stops what still runs in it and refuses later calls.
     * On the thread that opened it (where try-with-resources closes it), the
     * answer that was open before, if any, gets that thread's calls again.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            cancellation.cancel();
            tool.closed(this);
        }
    }

    /** Counts one more call; returns how many this answer has had. */
    int countCall() {
        return calls.incrementAndGet();
    }

    Cancellation cancellation() {
        return cancellation;
    }

    AnswerScope outer() {
        return outer;
    }

    /** Keeps {@code prompt} among the pending prompts until the returned registration is closed. */
    Cancellation.Registration pending(Cancellation prompt) {
        pendingPrompts.add(prompt);
        return () -> pendingPrompts.remove(prompt);
    }
}
