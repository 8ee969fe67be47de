package dev.aii.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Writes the model's text to stdout as it arrives. Buffered mode writes the
 * buffer when it holds a LF or reaches 128 UTF-8 bytes; immediate mode
 * ({@code -x}) writes every piece at once. Either way it remembers whether the
 * last byte written was a LF, so that anything else written to the terminal
 * can first start a fresh line.
 *
 * <p>With {@code -x} on a terminal, control characters in the model's text
 * other than tab, LF and CR are shown as {@code \xNN}, as in the approval
 * prompt: the model can repeat what a command printed, and an escape sequence
 * reaching the terminal could hide the prompt that follows ({@code ESC[8m}
 * conceals text) or draw a false one.
 */
final class AnswerWriter {

    static final int FLUSH_BYTES = 128;

    private final OutputStream out;
    private final boolean stdoutIsTerminal;
    private final boolean immediate;
    private final boolean escapeControls;
    private final StringBuilder buffer = new StringBuilder();
    private boolean atLineStart = true;
    private IOException failure;

    AnswerWriter(OutputStream out, boolean stdoutIsTerminal, boolean immediate) {
        this.out = out;
        this.stdoutIsTerminal = stdoutIsTerminal;
        this.immediate = immediate;
        this.escapeControls = immediate && stdoutIsTerminal;
    }

    /** Takes one piece of the answer. */
    synchronized void write(String piece) {
        if (piece.isEmpty()) {
            return;
        }
        buffer.append(piece);
        if (immediate || buffer.indexOf("\n") >= 0 || utf8Length(buffer) >= FLUSH_BYTES) {
            flushWhole();
        }
    }

    /** Writes the buffer except a trailing high surrogate, whose pair is still to come. */
    private void flushWhole() {
        int end = buffer.length();
        if (Character.isHighSurrogate(buffer.charAt(end - 1))) {
            end--;
        }
        String pending = buffer.substring(0, end);
        buffer.delete(0, end);
        emit(shown(pending));
    }

    /** Writes whatever is buffered. */
    synchronized void flush() {
        if (!buffer.isEmpty()) {
            String pending = buffer.toString();
            buffer.setLength(0);
            emit(shown(pending));
        }
    }

    /**
     * Readies stdout before something else is written to the terminal or
     * stderr: flushes, and on a terminal ends a started line. Never fails: when
     * stdout is gone, what comes next (an error report, a prompt) still goes on,
     * and {@link #failure()} tells.
     */
    synchronized void prepareForTerminal() {
        try {
            flush();
            if (stdoutIsTerminal && !atLineStart) {
                emit("\n");
            }
        } catch (UncheckedIOException e) {
            // Recorded in failure by emit.
        }
    }

    /** Why writing to stdout failed (a closed pipe, a full disk), once it has. */
    synchronized Optional<IOException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Flushes, then writes the LF that ends an answer. */
    synchronized void endAnswer() {
        flush();
        emit("\n");
    }

    /** Writes text that is not model output (e.g. the repetition marker) in order with it. */
    synchronized void writeDirect(String text) {
        flush();
        emit(text);
    }

    synchronized boolean atLineStart() {
        return atLineStart && buffer.isEmpty();
    }

    /** The model's text as it is written: with controls escaped where {@link #escapeControls} says so. */
    private String shown(String text) {
        if (!escapeControls || text.chars().noneMatch(AnswerWriter::isHiddenControl)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        text.chars().forEach(c -> {
            if (isHiddenControl(c)) {
                out.append(String.format(Locale.ROOT, "\\x%02X", c));
            } else {
                out.append((char) c);
            }
        });
        return out.toString();
    }

    /** C0 controls but tab, LF and CR, DEL, and C1 controls: what a terminal acts on rather than shows. */
    private static boolean isHiddenControl(int c) {
        return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7F && c <= 0x9F);
    }

    private void emit(String text) {
        if (text.isEmpty()) {
            return;
        }
        if (failure != null) {
            throw new UncheckedIOException(failure);
        }
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            failure = e;
            throw new UncheckedIOException(e);
        }
        atLineStart = text.charAt(text.length() - 1) == '\n';
    }

    private static int utf8Length(CharSequence s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
