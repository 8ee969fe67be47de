package dev.aii.procfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One line of Linux {@code /proc/<pid>/stat}: the fields aii's runners need
 * to find what a command left behind. The one parser of that format, for the
 * portable runner here and the native one in aii-ffm (this package is
 * exported to that module only).
 *
 * @param pid the process id
 * @param state the state letter ({@code R}, {@code S}, {@code T}, {@code Z}, ...)
 * @param ppid the parent's process id
 * @param pgrp the process group id
 * @param session the session id
 * @param startTicks when it started, in clock ticks since boot: with the pid, names one process for good
 */
public record StatLine(long pid, char state, long ppid, long pgrp, long session, long startTicks) {

    /** The line in {@code statFile}, or empty when it cannot be read or is not such a line. */
    public static Optional<StatLine> read(Path statFile) {
        String text;
        try {
            text = new String(Files.readAllBytes(statFile), StandardCharsets.ISO_8859_1);
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
        return parse(text);
    }

    /**
     * Parses {@code pid (comm) state ppid pgrp session ... starttime} (the
     * 22nd field); the command name may hold anything, spaces and
     * parentheses too, so it ends at the last {@code )}.
     */
    public static Optional<StatLine> parse(String text) {
        int open = text.indexOf(" (");
        int close = text.lastIndexOf(')');
        if (open < 0 || close < open || close + 2 >= text.length()) {
            return Optional.empty();
        }
        String[] rest = text.substring(close + 2).trim().split(" ");
        if (rest.length < 20 || rest[0].length() != 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new StatLine(Long.parseLong(text.substring(0, open)), rest[0].charAt(0),
                    Long.parseLong(rest[1]), Long.parseLong(rest[2]), Long.parseLong(rest[3]),
                    Long.parseLong(rest[19])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
