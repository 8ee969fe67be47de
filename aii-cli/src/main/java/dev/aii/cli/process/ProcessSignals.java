package dev.aii.cli.process;

import dev.aii.cli.exec.ExecHost;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The signals that end aii from outside, SIGTERM and SIGHUP (also what a
 * terminal that closes sends), and what they stop (cli.md 9.7, exec.md 9.6):
 * the answer under way is stopped as Ctrl-C stops it, with the text received
 * so far written; the commands of {@code -x} are terminated (TERM, KILL
 * after the grace); then aii exits with 143 or 129. The same object knows
 * how Ctrl-Z can take the commands along, once {@code -x} has a runner.
 *
 * <p>A signal that comes while no answer runs ends aii at once. One that comes
 * during an answer waits for the answer to end, at most {@link #ANSWER_GRACE};
 * the mode's own return then carries the same exit code. A second signal
 * changes nothing. Where aii was started with SIGHUP ignored ({@code nohup}),
 * the JVM leaves it ignored and so does aii.
 */
public final class ProcessSignals {

    /** Exit code after SIGHUP or a terminal hangup: 128 + 1. */
    public static final int HANGUP_EXIT = 129;

    /** Exit code after SIGTERM: 128 + 15. */
    public static final int TERMINATED_EXIT = 143;

    /** How long a stopped answer may take to write what it received before aii exits anyway. */
    static final Duration ANSWER_GRACE = Duration.ofSeconds(3);

    private final IntConsumer exit;
    private final boolean jvmSignals;
    private final AtomicInteger exitCode = new AtomicInteger();
    private final Object lock = new Object();
    private Runnable answerStop;          // guarded by lock
    private volatile ExecHost commands;
    private boolean listening;            // guarded by lock

    private ProcessSignals(IntConsumer exit, boolean jvmSignals) {
        this.exit = Objects.requireNonNull(exit, "exit");
        this.jvmSignals = jvmSignals;
    }

    /** For this process: {@link #listen()} takes over the JVM's SIGTERM and SIGHUP, and aii ends as {@link ProcessEnd} ends it. */
    public static ProcessSignals ofProcess() {
        return new ProcessSignals(code -> ProcessEnd.end(code, System.getenv()), true);
    }

    /** For a test: signals come only through {@link #signalled}, and {@code exit} is told the exit code. */
    public static ProcessSignals manual(IntConsumer exit) {
        return new ProcessSignals(exit, false);
    }

    /**
     * From now on, SIGTERM and SIGHUP do what this class says (for the modes
     * that talk to a model; the short commands keep the JVM's own handling,
     * which ends them with the same exit codes). Idempotent.
     */
    public void listen() {
        synchronized (lock) {
            if (listening || !jvmSignals) {
                listening = true;
                return;
            }
            listening = true;
        }
        handle("TERM", () -> signalled(TERMINATED_EXIT));
        handle("HUP", () -> signalled(HANGUP_EXIT));
    }

    private static void handle(String name, Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), s -> action.run());
        } catch (IllegalArgumentException e) {
            // The JVM keeps this signal (-Xrs): its own handling, shutdown hooks included, applies.
        }
    }

    /** Where {@code -x}'s commands run, so that a terminating signal ends them and Ctrl-Z stops them. */
    public void commandsRunBy(ExecHost exec) {
        commands = Objects.requireNonNull(exec, "exec");
    }

    /** What Ctrl-Z does while an answer runs, when the commands can be stopped with aii. */
    public Optional<Runnable> suspender() {
        ExecHost exec = commands;
        return exec == null ? Optional.empty() : exec.suspendWithCommands();
    }

    /** The exit code of the terminating signal that came, if one did. */
    public OptionalInt exitCode() {
        int code = exitCode.get();
        return code == 0 ? OptionalInt.empty() : OptionalInt.of(code);
    }

    /**
     * While an answer runs: a terminating signal runs {@code stop} (what
     * Ctrl-C does to an answer) and waits for the returned handle to be
     * closed, which the answer does once it has written what it received.
     */
    public Interrupts.Registration duringAnswer(Runnable stop) {
        Objects.requireNonNull(stop, "stop");
        synchronized (lock) {
            answerStop = stop;
        }
        return () -> {
            synchronized (lock) {
                if (answerStop == stop) {
                    answerStop = null;
                }
                lock.notifyAll();
            }
        };
    }

    /** A terminating signal came: stop what runs, then exit with {@code code}. */
    public void signalled(int code) {
        if (!exitCode.compareAndSet(0, code)) {
            return;
        }
        Runnable stop;
        synchronized (lock) {
            stop = answerStop;
        }
        if (stop != null) {
            stop.run();
        }
        ExecHost exec = commands;
        if (exec != null) {
            exec.terminateCommands();
        }
        awaitAnswerEnd();
        exit.accept(code);
    }

    private void awaitAnswerEnd() {
        long deadline = System.nanoTime() + ANSWER_GRACE.toNanos();
        synchronized (lock) {
            long left;
            while (answerStop != null && (left = deadline - System.nanoTime()) > 0) {
                try {
                    lock.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
