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
    }

    /**
     * Streams the answer to {@code prompt}. Ctrl-C (from {@code interrupts})
     * and SIGTERM/SIGHUP stop it and any command it runs; Ctrl-Z stops the
     * commands with aii, where the runner can.
     */
    Outcome answer(Session session, String prompt, Interrupts interrupts) {
        Run run = new Run(session, tool.map(RunCommandTool::startAnswer));
        Interrupts.Registration suspend = run.scope.isPresent()
                ? signals.suspender().map(interrupts::onSuspend).orElse(() -> { })
                : () -> { };
        try (Interrupts.Registration ending = signals.duringAnswer(run::interrupt);
             Interrupts.Registration lost = console.onStdoutLost(run::stop)) {
            Optional<ModelException> failure = stream(run, prompt, interrupts);
            return failure.isPresent() ? new Outcome.Failed(failure.get()) : ending(run);
        } finally {
            suspend.close();
            run.scope.ifPresent(AnswerScope::close);
        }
    }

    /** Sends the prompt and streams the answer to the console; the failure to report, if there is one. */
    private Optional<ModelException> stream(Run run, String prompt, Interrupts interrupts) {
        try (Interrupts.Registration ctrlC = interrupts.onInterrupt(run::ctrlC)) {
            console.requestSent();
            run.session.respond(prompt, run);
        } catch (ModelException e) {
            if (!run.interrupted.get() && !run.repeated.get() && console.stdoutFailure().isEmpty()) {
                return Optional.of(e);   // the report flushes the text received first
            }
        } catch (RuntimeException e) {
            if (!run.interrupted.get() && console.stdoutFailure().isEmpty()) {
                return Optional.of(CliErrors.internal("The model backend failed unexpectedly", e));
            }
        } finally {
            console.stopWaiting();
        }
        return Optional.empty();
    }

    /** What a stream that ended without a failure to report comes to, with its last output written. */
    private Outcome ending(Run run) {
        try {
            if (run.interrupted.get()) {
                console.interrupted();   // what was received stays, and the ^C line is ended
                return new Outcome.Interrupted();
            }
            if (console.stdoutFailure().isEmpty() && run.repeated.get()) {
                console.answerMarker("...\n");
                return new Outcome.Failed(ModelException.repetition(contextSize));
            }
            if (console.stdoutFailure().isEmpty()) {
                console.endAnswer();
                if (run.cutOff.get()) {
                    console.note(CUT_OFF);
                }
                return new Outcome.Completed();
            }
        } catch (UncheckedIOException e) {
            // The writer holds the failure, reported below.
        }
        return new Outcome.Failed(CliErrors.internal("Cannot write the answer to stdout", console.stdoutFailure().orElseThrow()));
    }

    /**
     * One answer's state, shared by its stream, Ctrl-C and the signal handlers,
     * and the sink its text arrives in. The flags are set from those threads
     * and read once the stream has ended.
     */
    private final class Run implements TextSink {
        final Session session;
        final Optional<AnswerScope> scope;
        final RepetitionDetector detector = new RepetitionDetector();
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicBoolean interrupted = new AtomicBoolean();
        final AtomicBoolean repeated = new AtomicBoolean();
        final AtomicBoolean cutOff = new AtomicBoolean();
        final AtomicBoolean waitNoted = new AtomicBoolean();

        Run(Session session, Optional<AnswerScope> scope) {
            this.session = session;
            this.scope = scope;
        }

        /** Ends the stream; text that still arrives is dropped. */
        void halt() {
            stopped.set(true);
            session.cancel();
        }

        /** The answer and its commands stop, a pending prompt included (stdout closed by its reader: 141). */
        void stop() {
            stopped.set(true);
            scope.ifPresent(AnswerScope::interrupt);
            session.cancel();
        }

        /** Ctrl-C during the stream, SIGTERM, SIGHUP: everything stops, and the answer was interrupted. */
        void interrupt() {
            interrupted.set(true);
            stop();
        }

        /** Ctrl-C at the approval prompt answers "no" and the answer goes on; anywhere else it interrupts. */
        void ctrlC() {
            if (scope.isPresent() && scope.get().declinePendingPrompt()) {
                return;
            }
            interrupt();
        }

        @Override
        public void accept(String piece) {
            if (stopped.get()) {
                return;
            }
            try {
                console.answer(piece);
            } catch (UncheckedIOException e) {
                halt();
                return;
            }
            if (detector.accept(piece)) {
                repeated.set(true);
                halt();
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
    }
}
