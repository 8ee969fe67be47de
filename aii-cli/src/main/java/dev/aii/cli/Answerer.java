package dev.aii.cli;

import dev.aii.cli.output.CliErrors;
import dev.aii.cli.output.Console;
import dev.aii.cli.output.RepetitionDetector;
import dev.aii.cli.output.ServerNotes;
import dev.aii.cli.process.Interrupts;
import dev.aii.cli.process.ProcessSignals;
import dev.aii.exec.AnswerScope;
import dev.aii.exec.RunCommandTool;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.TextSink;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one answer: streams it to stdout, watches for repetition, and stops it
 * (and any command it runs) on Ctrl-C.
 */
final class Answerer {

    /** How an answer ended. */
    sealed interface Outcome {
        record Completed() implements Outcome {
        }

        /** Stopped by Ctrl-C; the text received so far is written and its line ended on a terminal. */
        record Interrupted() implements Outcome {
        }

        record Failed(ModelException error) implements Outcome {
        }
    }

    /** The stderr line after an answer the server cut off at its output limit (cli.md 9.12). */
    static final String CUT_OFF = "the answer was cut off by the server's output limit";

    private final Console console;
    private final Optional<RunCommandTool> tool;
    private final int contextSize;
    private final ProcessSignals signals;

    Answerer(Console console, Optional<RunCommandTool> tool, int contextSize, ProcessSignals signals) {
        this.console = console;
        this.tool = tool;
        this.contextSize = contextSize;
        this.signals = signals;
        // Segmenting text into characters loads its rules on first use: do that while the model
        // is still thinking, so the first text of the first answer is not held up by it.
        Thread.ofPlatform().daemon().name("aii-text-primer")
                .start(() -> new RepetitionDetector().accept("Primed, \u00e9\u0301 \uD83D\uDC4D.\n"));
    }

    /**
     * Streams the answer to {@code prompt}. Ctrl-C (from {@code interrupts})
     * and SIGTERM/SIGHUP stop it and any command it runs; Ctrl-Z stops the
     * commands with aii, where the runner can.
     */
    Outcome answer(Session session, String prompt, Interrupts interrupts) {
        Optional<AnswerScope> scope = tool.map(RunCommandTool::startAnswer);
        AtomicBoolean stopped = new AtomicBoolean();
        AtomicBoolean interrupted = new AtomicBoolean();
        // Everything stops, a pending prompt included: what Ctrl-C does, and more.
        Runnable stop = () -> {
            interrupted.set(true);
            stopped.set(true);
            scope.ifPresent(AnswerScope::interrupt);
            session.cancel();
        };
        // stdout closed by its reader: the answer and its commands stop, and the failure is reported (141).
        Runnable lostStdout = () -> {
            stopped.set(true);
            scope.ifPresent(AnswerScope::interrupt);
            session.cancel();
        };
        Interrupts.Registration suspend = scope.isPresent()
                ? signals.suspender().map(interrupts::onSuspend).orElse(() -> { })
                : () -> { };
        try (Interrupts.Registration ending = signals.duringAnswer(stop);
             Interrupts.Registration lost = console.onStdoutLost(lostStdout)) {
            return answer(session, prompt, interrupts, scope, stopped, interrupted);
        } finally {
            suspend.close();
            scope.ifPresent(AnswerScope::close);
        }
    }

    private Outcome answer(Session session, String prompt, Interrupts interrupts, Optional<AnswerScope> scope,
                           AtomicBoolean stopped, AtomicBoolean interrupted) {
        RepetitionDetector detector = new RepetitionDetector();
        AtomicBoolean repeated = new AtomicBoolean();
        AtomicBoolean cutOff = new AtomicBoolean();
        AtomicBoolean waitNoted = new AtomicBoolean();
        Runnable onCtrlC = () -> {
            if (scope.isPresent() && scope.get().declinePendingPrompt()) {
                return; // Ctrl-C at the approval prompt answers "no"; the answer goes on.
            }
            interrupted.set(true);
            stopped.set(true);
            scope.ifPresent(AnswerScope::interrupt);
            session.cancel();
        };
        try (Interrupts.Registration ignored = interrupts.onInterrupt(onCtrlC)) {
            console.requestSent();
            session.respond(prompt, new TextSink() {
                @Override
                public void accept(String piece) {
                    if (stopped.get()) {
                        return;
                    }
                    try {
                        console.answer(piece);
                    } catch (UncheckedIOException e) {
                        stopped.set(true);
                        session.cancel();
                        return;
                    }
                    if (detector.accept(piece)) {
                        repeated.set(true);
                        stopped.set(true);
                        session.cancel();
                    }
                }

                @Override
                public void cutOff() {
                    cutOff.set(true);
                }

                @Override
                public void waiting(String reason, Duration wait) {
                    if (!waitNoted.getAndSet(true)) {
                        console.note(ServerNotes.busy(reason));
                    }
                }
            });
        } catch (ModelException e) {
            if (!interrupted.get() && !repeated.get() && console.stdoutFailure().isEmpty()) {
                return new Outcome.Failed(e);   // the report flushes the text received first
            }
        } catch (RuntimeException e) {
            if (!interrupted.get() && console.stdoutFailure().isEmpty()) {
                return new Outcome.Failed(CliErrors.internal("The model backend failed unexpectedly", e));
            }
        } finally {
            console.stopWaiting();
        }
        try {
            if (interrupted.get()) {
                console.interrupted();   // what was received stays, and the ^C line is ended
                return new Outcome.Interrupted();
            }
            if (console.stdoutFailure().isEmpty() && repeated.get()) {
                console.answerMarker("...\n");
                return new Outcome.Failed(ModelException.repetition(contextSize));
            }
            if (console.stdoutFailure().isEmpty()) {
                console.endAnswer();
                if (cutOff.get()) {
                    console.note(CUT_OFF);
                }
                return new Outcome.Completed();
            }
        } catch (UncheckedIOException e) {
            // The writer holds the failure, reported below.
        }
        return new Outcome.Failed(CliErrors.internal("Cannot write the answer to stdout", console.stdoutFailure().orElseThrow()));
    }
}
