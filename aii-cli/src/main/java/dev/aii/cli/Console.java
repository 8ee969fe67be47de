package dev.aii.cli;

import dev.aii.exec.ExecOutput;
import dev.aii.model.ModelException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one owner of aii's output, made once per run by {@link Aii}: stdout
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
 * {@link #beforeTerminal()}: a status line drawn on stderr would be erased
 * there, before anything else is written.
 */
final class Console implements ExecOutput {

    private final AnswerWriter stdout;
    private final OutputStream err;
    private final boolean json;
    private final boolean debug;

    /**
     * @param json {@code --json}: errors as JSON lines, no warnings or log lines
     * @param exec {@code -x}: the answer written at once and escaped
     */
    Console(OutputStream out, OutputStream err, boolean stdoutTerminal, boolean json, boolean exec, boolean debug) {
        this.stdout = new AnswerWriter(out, stdoutTerminal, exec);
        this.err = err;
        this.json = json;
        this.debug = debug;
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
    synchronized void answer(String piece) {
        stdout.write(piece);
    }

    /** The LF that ends an answer, after what is pending. */
    synchronized void endAnswer() {
        stdout.endAnswer();
    }

    /** Text of aii's own in the answer's order, such as the {@code ...} that ends a repeating answer. */
    synchronized void answerMarker(String text) {
        stdout.writeDirect(text);
    }

    /** Why writing to stdout failed (a closed pipe, a full disk), once it has. */
    synchronized Optional<IOException> stdoutFailure() {
        return stdout.failure();
    }

    /**
     * Writes what a command prints to stdout (help, a listing, a header, a
     * prompt for a line): on a line of its own, then flushed. A stdout that
     * cannot take it (closed, a full disk) fails the command.
     */
    synchronized void print(String text) throws ModelException {
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
    synchronized void linePrompt(String prompt) {
        stdout.writePrompt(prompt);
    }

    // ---- stderr

    /** Reports {@code e} (with its stack trace under {@code AII_DEBUG=1}) and returns its exit code. */
    synchronized int report(ModelException e) {
        line(ErrorText.report(e, json));
        if (debug && e.getCause() != null) {
            line(ErrorText.trace(e.getCause(), json));
        }
        return e.code().exitCode();
    }

    /** A line of advice after an error: {@code aii: <text>}, or {@code {"hint":"<text>"}} under {@code --json}. */
    synchronized void hint(String text) {
        line(ErrorText.hint(text, json));
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

    /** Flushes the answer and, when stdout is a terminal, ends its started line. */
    @Override
    public synchronized void beforeTerminal() {
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
}
