package dev.aii.cli;

import dev.aii.exec.RunCommandTool;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.TextSink;
import java.time.Duration;
import java.io.UncheckedIOException;
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

        record Interrupted() implements Outcome {
        }

        record Failed(ModelException error) implements Outcome {
        }
    }

    /** The stderr line after an answer the server cut off at its output limit (cli.md 9.12). */
    static final String CUT_OFF = "the answer was cut off by the server's output limit";

    private final AnswerWriter writer;
    private final Optional<RunCommandTool> tool;
    private final int contextSize;
    private final ErrorReporter errors;

    Answerer(AnswerWriter writer, Optional<RunCommandTool> tool, int contextSize, ErrorReporter errors) {
        this.writer = writer;
        this.tool = tool;
        this.contextSize = contextSize;
        this.errors = errors;
        // Segmenting text into characters loads its rules on first use: do that while the model
        // is still thinking, so the first text of the first answer is not held up by it.
        Thread.ofPlatform().daemon().name("aii-text-primer")
                .start(() -> new RepetitionDetector().accept("Primed, \u00e9\u0301 \uD83D\uDC4D.\n"));
    }

    Outcome answer(Session session, String prompt, Interrupts interrupts) {
        tool.ifPresent(RunCommandTool::beginAnswer);
        RepetitionDetector detector = new RepetitionDetector();
        AtomicBoolean stopped = new AtomicBoolean();
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean repeated = new AtomicBoolean();
        AtomicBoolean cutOff = new AtomicBoolean();
        AtomicBoolean waitNoted = new AtomicBoolean();
        Runnable onCtrlC = () -> {
            if (tool.isPresent() && tool.get().declinePendingPrompt()) {
                return; // Ctrl-C at the approval prompt answers "no"; the answer goes on.
            }
            interrupted.set(true);
            stopped.set(true);
            tool.ifPresent(RunCommandTool::interrupt);
            session.cancel();
        };
        try (Interrupts.Registration ignored = interrupts.onInterrupt(onCtrlC)) {
            session.respond(prompt, new TextSink() {
                @Override
                public void accept(String piece) {
                    if (stopped.get()) {
                        return;
                    }
                    try {
                        writer.write(piece);
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
                        errors.note(ServerNotes.busy(reason));
                    }
                }
            });
        } catch (ModelException e) {
            if (!interrupted.get() && !repeated.get() && writer.failure().isEmpty()) {
                writer.prepareForTerminal();
                return new Outcome.Failed(e);
            }
        } catch (RuntimeException e) {
            if (!interrupted.get() && writer.failure().isEmpty()) {
                writer.prepareForTerminal();
                return new Outcome.Failed(CliErrors.internal("The model backend failed unexpectedly", e));
            }
        }
        try {
            if (interrupted.get()) {
                writer.prepareForTerminal();
                return new Outcome.Interrupted();
            }
            if (writer.failure().isEmpty() && repeated.get()) {
                writer.writeDirect("...\n");
                return new Outcome.Failed(ModelException.repetition(contextSize));
            }
            if (writer.failure().isEmpty()) {
                writer.endAnswer();
                if (cutOff.get()) {
                    errors.note(CUT_OFF);
                }
                return new Outcome.Completed();
            }
        } catch (UncheckedIOException e) {
            // The writer holds the failure, reported below.
        }
        return new Outcome.Failed(CliErrors.internal("Cannot write the answer to stdout", writer.failure().orElseThrow()));
    }
}
