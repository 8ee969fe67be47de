package dev.aii.cli.output;

import dev.aii.cli.process.Interrupts;
import dev.aii.exec.ExecOutput;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * The one owner of aii's output, made once per run by {@link dev.aii.cli.Aii}: stdout
 * (the answer and whatever a command prints, through its {@link AnswerWriter})
 * and stderr (errors, hints, warnings, the {@code aii: $} log lines). It keeps
 * the order of writes (one lock for both streams) and the rule that nothing
 * else shares a line with the answer: before anything goes to stderr or the
 * terminal, pending text is flushed and, when stdout is a terminal, its started
 * line is ended. It is also the tool's {@link ExecOutput}, so the approval
 * prompt is readied by the same rule.
 *
 * <p>Under {@code --json} stderr carries JSON lines only: warnings and log
 * lines are left out, errors and hints are JSON. Every byte for stderr goes
 * through {@link #line}, and every other byte through the writer after
 * {@link #beforeTerminal()}, where the {@link WaitingLine} (drawn only on a
 * terminal's stderr, never under {@code --json}) is erased first.
 *
 * <p>By the clock, on its {@link Ticker}'s thread and under the same lock:
 * answer text that has waited {@link #FLUSH_AFTER} in the buffer is written,
 * and the waiting line is drawn and turned.
 */
public final class Console implements ExecOutput, AutoCloseable {

    /** Exit code when stdout was closed by its reader ({@code aii … | head -1}): 128 + SIGPIPE, as a shell shows it. */
    static final int CLOSED_BY_READER_EXIT = 141;

    /** How long the answer's text may wait in the buffer for a LF or 128 bytes. */
    static final Duration FLUSH_AFTER = Duration.ofMillis(100);

    private final AnswerWriter stdout;
    private final OutputStream err;
    private final boolean stdoutTerminal;
    private final boolean stderrTerminal;
    private final boolean json;
    private final boolean debug;
    private final Ticker ticker;
    private final Optional<WaitingLine> waiting;
    private long flushScheduledFor = -1;
    private Optional<String> model = Optional.empty();
    private volatile Runnable stdoutLost;

    /**
     * A console whose stderr is no terminal, on a ticker thread of its own.
     *
     * @param json {@code --json}: errors as JSON lines, no warnings or log lines
     * @param exec {@code -x}: the answer written at once and escaped
     */
    Console(OutputStream out, OutputStream err, boolean stdoutTerminal, boolean json, boolean exec, boolean debug) {
        this(out, err, stdoutTerminal, 0, json, exec, debug, Ticker.daemon());
    }

    /**
     * @param stderrColumns the width of stderr's terminal, or 0 when stderr is not a terminal
     * @param json {@code --json}: errors as JSON lines, no warnings or log lines, no waiting line
     * @param exec {@code -x}: the answer written at once and escaped
     */
    public Console(OutputStream out, OutputStream err, boolean stdoutTerminal, int stderrColumns, boolean json,
            boolean exec, boolean debug, Ticker ticker) {
        this.stdout = new AnswerWriter(out, stdoutTerminal, exec);
        this.err = err;
        this.stdoutTerminal = stdoutTerminal;
        this.stderrTerminal = stderrColumns > 0;
        this.json = json;
        this.debug = debug;
        this.ticker = ticker;
        this.waiting = stderrColumns > 0 && !json
                ? Optional.of(new WaitingLine(err, stderrColumns, ticker, this, stdout::prepareForTerminal))
                : Optional.empty();
    }

    boolean json() {
        return json;
    }

    // ---- stdout

    /**
     * One piece of the answer.
     *
     * @throws UncheckedIOException when stdout cannot take it (see {@link #stdoutFailure()})
     */
    public void answer(String piece) {
        try {
            answerLocked(piece);
        } catch (UncheckedIOException e) {
            lost();
            throw e;
        }
    }

    private synchronized void answerLocked(String piece) {
        stopWaiting();
        stdout.write(piece);
        if (stdout.pending() && stdout.pendingSince() != flushScheduledFor) {
            long since = stdout.pendingSince();
            flushScheduledFor = since;
            ticker.schedule(FLUSH_AFTER, () -> flushWaiting(since));
        }
    }

    /** Writes the answer's text that has waited since {@code since}, if it still waits. */
    private void flushWaiting(long since) {
        try {
            synchronized (this) {
                stdout.flushWaiting(since);
            }
        } catch (UncheckedIOException e) {
            // Recorded by the writer; the answer's thread reports it once it has stopped.
            lost();
        }
    }

    /**
     * While an answer runs: {@code stop} runs when stdout fails (its reader
     * closed it, a full disk), from whichever thread was writing, so that the
     * answer and its commands stop then rather than at the next write.
     */
    public Interrupts.Registration onStdoutLost(Runnable stop) {
        stdoutLost = stop;
        return () -> {
            if (stdoutLost == stop) {
                stdoutLost = null;
            }
        };
    }

    /**
     * Stdout's reader closed it while nothing was being written (a command
     * runs, the model thinks): taken as the write that would have failed, so
     * the answer and its commands stop now and aii ends with
     * {@link #CLOSED_BY_READER_EXIT}.
     */
    public void stdoutClosedByReader() {
        synchronized (this) {
            stdout.fail(new IOException("Broken pipe"));
        }
        lost();
    }

    private void lost() {
        Runnable stop = stdoutLost;
        if (stop != null) {
            stop.run();
        }
    }

    /** The LF that ends an answer, after what is pending. */
    public synchronized void endAnswer() {
        stopWaiting();
        stdout.endAnswer();
    }

    /** Text of aii's own in the answer's order, such as the {@code ...} that ends a repeating answer. */
    public synchronized void answerMarker(String text) {
        stopWaiting();
        stdout.writeDirect(text);
    }

    // ---- waiting for the model

    /** The model's name for the waiting line, once it is known. */
    public synchronized void model(String name) {
        model = Optional.of(name);
    }

    /** A request has been sent to the model: the waiting line comes if no text does (on a terminal's stderr). */
    public synchronized void requestSent() {
        if (waiting.isPresent() && model.isPresent()) {
            waiting.get().start(model.get());
        }
    }

    /** The model answered the request, with text or a tool call: the waiting line goes. */
    public synchronized void stopWaiting() {
        waiting.ifPresent(WaitingLine::stop);
    }

    /**
     * After Ctrl-C stopped an answer: the text received so far is written, the
     * waiting line erased, and the line the terminal showed {@code ^C} on is
     * ended with a LF (on stdout when it is the terminal, else on a terminal's
     * stderr outside {@code --json}), so that what comes next (the shell's
     * prompt, the next {@code > }) starts a line of its own.
     */
    public synchronized void interrupted() {
        stopWaiting();
        if (stdoutTerminal) {
            try {
                stdout.writeDirect("\n");
            } catch (UncheckedIOException e) {
                // Recorded by the writer.
            }
        } else {
            stdout.prepareForTerminal();
            if (stderrTerminal && !json) {
                line("\n");
            }
        }
    }

    /** Why writing to stdout failed (a closed pipe, a full disk), once it has. */
    public synchronized Optional<IOException> stdoutFailure() {
        return stdout.failure();
    }

    /**
     * The exit code for a run whose stdout failed: {@link #CLOSED_BY_READER_EXIT}
     * when its reader closed it, else that of an internal error.
     */
    public synchronized int stdoutFailureExit() {
        return closedByReader() ? CLOSED_BY_READER_EXIT : ErrorCode.INTERNAL_ERROR.exitCode();
    }

    /**
     * Whether stdout is a pipe its reader closed (EPIPE: the JVM ignores
     * SIGPIPE, so the write fails with "Broken pipe" instead of ending aii).
     */
    private boolean closedByReader() {
        return stdout.failure().map(e -> e.getMessage() != null && e.getMessage().contains("Broken pipe"))
                .orElse(false);
    }

    /**
     * Writes what a command prints to stdout (help, a listing, a header, a
     * prompt for a line): on a line of its own, then flushed. A stdout that
     * cannot take it (closed, a full disk) fails the command.
     */
    public synchronized void print(String text) throws ModelException {
        beforeTerminal();
        try {
            stdout.writeDirect(text);
        } catch (UncheckedIOException e) {
            throw CliErrors.internal(CliErrors.CANNOT_WRITE, e.getCause());
        }
    }

    /**
     * The prompt for a line of input when no line editor shows it.
     *
     * @throws UncheckedIOException when stdout cannot take it, so that it is not taken for a failure to read
     */
    public synchronized void linePrompt(String prompt) {
        stopWaiting();
        stdout.writePrompt(prompt);
    }

    // ---- stderr

    /**
     * Reports {@code e} (with its stack trace under {@code AII_DEBUG=1}) and
     * returns its exit code; once stdout's reader has closed it, nothing is
     * reported and the exit code is {@link #CLOSED_BY_READER_EXIT} (cli.md 9.7:
     * aii stops quietly, under {@code --json} too).
     */
    public synchronized int report(ModelException e) {
        if (closedByReader()) {
            return CLOSED_BY_READER_EXIT;
        }
        line(ErrorText.report(e, json));
        if (debug && e.getCause() != null) {
            line(ErrorText.trace(e.getCause(), json));
        }
        return e.code().exitCode();
    }

    /** A line of advice after an error: {@code aii: <text>}, or {@code {"hint":"<text>"}} under {@code --json}. */
    public synchronized void hint(String text) {
        line(ErrorText.hint(text, json));
    }

    /** A remark about the answer, {@code aii: <text>}; nothing under {@code --json}. */
    public synchronized void note(String text) {
        if (!json) {
            line("aii: " + text + "\n");
        }
    }

    /** {@code aii: warning: <text>}; nothing under {@code --json}. */
    @Override
    public synchronized void warning(String text) {
        if (!json) {
            line("aii: warning: " + text + "\n");
        }
    }

    /** {@code aii: $ <rendered>} before a command runs; nothing under {@code --json}. */
    @Override
    public synchronized void commandLog(String rendered) {
        if (!json) {
            line("aii: $ " + rendered + "\n");
        }
    }

    // ---- the terminal

    /** Erases the waiting line, flushes the answer and, when stdout is a terminal, ends its started line. */
    @Override
    public synchronized void beforeTerminal() {
        stopWaiting();
        stdout.prepareForTerminal();
    }

    /**
     * As {@link #beforeTerminal()}; true when stdout is not the terminal and
     * holds a started line that may show there, which the prompt then ends on
     * the terminal (once: a second prompt after no more text starts as usual).
     */
    @Override
    public synchronized boolean beforePrompt() {
        beforeTerminal();
        return stdout.takeLineOpenOffTerminal();
    }

    /** Writes {@code text} to stderr after readying stdout; a stderr that is gone loses it, as nothing else could carry it. */
    private void line(String text) {
        beforeTerminal();
        try {
            err.write(text.getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException e) {
            // stderr is gone: nothing else can carry the report.
        }
    }

    /** Erases the waiting line and stops the clock: nothing is written by it after this. */
    @Override
    public synchronized void close() {
        stopWaiting();
        ticker.close();
    }
}
