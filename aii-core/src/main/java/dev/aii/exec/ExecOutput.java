package dev.aii.exec;

import java.io.PrintStream;
import java.util.Objects;

/**
 * Where the tool reports: the command log and warnings on stderr, and the
 * hook that readies stdout before anything else is written to the terminal.
 */
public interface ExecOutput {

    /**
     * Called before anything is written to the terminal or stderr: flushes
     * pending model text and, when stdout is a terminal whose last byte was not
     * LF, writes one LF.
     */
    void beforeTerminal();

    /**
     * Called before an approval prompt: does what {@link #beforeTerminal()}
     * does, and tells whether a line of the answer may still stand unended on
     * the terminal, because stdout is not the terminal (a pipe to {@code tee}
     * or {@code cat} can still reach it) and the last byte written to it was
     * not a LF. The prompt then starts with a LF of its own. By default
     * nothing is known of such a line.
     *
     * @return whether the prompt should end a line of the answer first
     */
    default boolean beforePrompt() {
        beforeTerminal();
        return false;
    }

    /** Logs a command that is about to run, as {@code aii: $ <rendered>} (not in JSON mode). */
    void commandLog(String rendered);

    /** Prints {@code aii: warning: <text>} (not in JSON mode). */
    void warning(String text);

    /**
     * Output to {@code err}; in JSON mode logs and warnings are suppressed.
     *
     * @param beforeTerminal the hook of {@link #beforeTerminal()}
     */
    static ExecOutput to(PrintStream err, boolean json, Runnable beforeTerminal) {
        Objects.requireNonNull(err, "err");
        Objects.requireNonNull(beforeTerminal, "beforeTerminal");
        return new ExecOutput() {
            @Override
            public void beforeTerminal() {
                beforeTerminal.run();
            }

            @Override
            public void commandLog(String rendered) {
                line("aii: $ " + rendered);
            }

            @Override
            public void warning(String text) {
                line("aii: warning: " + text);
            }

            private void line(String text) {
                if (json) {
                    return;
                }
                synchronized (err) {
                    beforeTerminal.run();
                    err.print(text + "\n");
                    err.flush();
                }
            }
        };
    }
}
