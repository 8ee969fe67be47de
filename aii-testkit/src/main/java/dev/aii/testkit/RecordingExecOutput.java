package dev.aii.testkit;

import dev.aii.exec.ExecOutput;
import java.util.ArrayList;
import java.util.List;

/** An {@link ExecOutput} that records, in order, every event as a line: {@code <before-terminal>}, log and warning lines. */
public final class RecordingExecOutput implements ExecOutput {

    /** The marker recorded for {@link #beforeTerminal()}. */
    public static final String BEFORE_TERMINAL = "<before-terminal>";

    private final List<String> events = new ArrayList<>();

    @Override
    public synchronized void beforeTerminal() {
        events.add(BEFORE_TERMINAL);
    }

    @Override
    public synchronized void commandLog(String rendered) {
        events.add("aii: $ " + rendered);
    }

    @Override
    public synchronized void warning(String text) {
        events.add("aii: warning: " + text);
    }

    /** Everything recorded so far. */
    public synchronized List<String> events() {
        return List.copyOf(events);
    }

    /** The recorded log and warning lines, without the before-terminal markers. */
    public synchronized List<String> lines() {
        return events.stream().filter(e -> !e.equals(BEFORE_TERMINAL)).toList();
    }
}
