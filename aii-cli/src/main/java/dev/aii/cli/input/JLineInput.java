package dev.aii.cli.input;

import dev.aii.cli.process.ProcessEnd;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * Line editing and history on a real terminal: arrow keys, Ctrl-R, Ctrl-C
 * clears the line, Ctrl-D on an empty line ends input. The history is kept
 * in a file when one is given (each line added to it as it is entered, the
 * file trimmed to the last {@value HistoryFile#LINES} lines), else for the
 * session only. Also the source of Ctrl-C while an answer streams, since the
 * terminal owns the signal then.
 */
public final class JLineInput implements LineInputWithInterrupts {

    /** How JLine's exec provider turns a file descriptor into a redirect for a child process. */
    static final String REDIRECT_PIPE_MODE = "org.jline.terminal.exec.redirectPipeCreationMode";

    private final Terminal terminal;
    private final LineReader reader;
    private final Optional<Path> history;
    /** Held so that its level (off) is not lost when the logging framework drops unreferenced loggers. */
    private final java.util.logging.Logger jlineLog;

    private JLineInput(Terminal terminal, java.util.logging.Logger jlineLog, Optional<Path> history) {
        this.terminal = terminal;
        this.jlineLog = jlineLog;
        this.history = history;
        LineReaderBuilder builder = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("aii")
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.BRACKETED_PASTE, true)
                // One entry a line, as typed (JLine escapes a backslash or a line break in it), no time stamps.
                .option(LineReader.Option.HISTORY_TIMESTAMPED, false)
                .variable(LineReader.HISTORY_SIZE, HistoryFile.LINES)
                .variable(LineReader.HISTORY_FILE_SIZE, HistoryFile.LINES);
        history.ifPresent(file -> builder.variable(LineReader.HISTORY_FILE, file));
        this.reader = builder.build();
    }

    /** Opens the terminal, with the history in {@code history} when given (see {@link HistoryFile}). */
    public static JLineInput open(Optional<Path> history) throws IOException {
        // JLine restores the terminal from a shutdown hook of its own.
        ProcessEnd.foreignHooksRegistered();
        // JLine reports its own troubles through java.util.logging on stderr, which --json
        // reserves for JSON lines; a terminal it cannot set up shows in its behaviour instead.
        java.util.logging.Logger jlineLog = java.util.logging.Logger.getLogger("org.jline");
        jlineLog.setLevel(java.util.logging.Level.OFF);
        // The exec provider drives the terminal with stty: no native access is granted to JLine.
        // Asked whether a stream that is not a terminal (stderr redirected) is one, it would load
        // JLine's native library to name it, and the JVM would warn on stderr about native access;
        // by reflection alone (java.lang is not opened to it) it fails quietly with the same answer.
        if (System.getProperty(REDIRECT_PIPE_MODE) == null) {
            System.setProperty(REDIRECT_PIPE_MODE, "reflection");
        }
        Terminal terminal = TerminalBuilder.builder()
                .system(true)
                .provider("exec")
                .name("aii")
                .build();
        Size size = terminal.getSize();
        if (size.getColumns() <= 0 || size.getRows() <= 0) {
            // A pseudo-terminal made without a size (script(1), some container runtimes) reports 0 x 0, and
            // JLine would then draw the prompt as dots and hide what is typed: assume 80 x 24, as readline does.
            terminal.setSize(new Size(size.getColumns() > 0 ? size.getColumns() : 80,
                    size.getRows() > 0 ? size.getRows() : 24));
        }
        return new JLineInput(terminal, jlineLog, history);
    }

    @Override
    public Optional<String> readLine(String prompt) {
        while (true) {
            try {
                return Optional.of(reader.readLine(prompt));
            } catch (UserInterruptException e) {
                // Ctrl-C at the prompt: the line is dropped, ask again.
            } catch (EndOfFileException e) {
                return Optional.empty();
            }
        }
    }

    @Override
    public Registration onInterrupt(Runnable action) {
        Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.INT, s -> action.run());
        return () -> terminal.handle(Terminal.Signal.INT, previous);
    }

    @Override
    public Registration onSuspend(Runnable action) {
        Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.TSTP, s -> action.run());
        return () -> terminal.handle(Terminal.Signal.TSTP, previous);
    }

    @Override
    public void close() {
        history.ifPresent(file -> {
            try {
                HistoryFile.trim(file);
            } catch (IOException | RuntimeException e) {
                // The lines are kept; the file is trimmed at the next session.
            }
        });
        try {
            terminal.close();
        } catch (IOException e) {
            // Closing restores the terminal's modes; nothing more can be done if it fails.
        }
    }
}
