package dev.aii.cli.output;

import dev.aii.policy.Render;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Stdout: the model's text as it arrives, and whatever else the command
 * prints there. Buffered mode writes the buffer when it holds a LF or reaches
 * 128 UTF-8 bytes, and when its text has waited long enough (the
 * {@link Console} keeps that time, with {@link #pendingSince()} and
 * {@link #flushWaiting()}); immediate mode ({@code -x}) writes every piece at once.
 * Either way it remembers whether the last byte written was a LF, so that
 * anything else written to the terminal can first start a fresh line.
 *
 * <p>With {@code -x} the model's text is shown with what a terminal would act
 * on rather than show escaped as in the approval prompt: C0 controls but tab
 * and LF, DEL, C1 controls, and format characters and line and paragraph
 * separators (exec.md §6). The model can repeat what a command printed, and an
 * escape sequence reaching the terminal could hide the prompt that follows
 * ({@code ESC[8m} conceals text) or draw a false one; through a pipe to
 * {@code tee} or {@code cat} it reaches the terminal all the same, so this
 * holds whatever stdout is. Escaping goes one character at a time, so a
 * sequence split across pieces is escaped as well; a high surrogate at the
 * end of a piece waits for its pair.
 *
 * <p>Not thread-safe: its one user, the {@link Console}, orders the writes.
 */
final class AnswerWriter {

    static final int FLUSH_BYTES = 128;

    private final OutputStream out;
    private final boolean stdoutIsTerminal;
    private final boolean immediate;
    private final StringBuilder buffer = new StringBuilder();
    private boolean atLineStart = true;
    private boolean lineEndedOnTerminal;
    private IOException failure;
    /** Counts the writes of the buffer: text left in it after the n-th has waited since then. */
    private long written;

    /**
     * @param immediate {@code -x}: every piece written at once, and escaped
     */
    AnswerWriter(OutputStream out, boolean stdoutIsTerminal, boolean immediate) {
        this.out = out;
        this.stdoutIsTerminal = stdoutIsTerminal;
        this.immediate = immediate;
    }

    /** Takes one piece of the answer. */
    void write(String piece) {
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
        written++;
        int end = buffer.length();
        if (Character.isHighSurrogate(buffer.charAt(end - 1))) {
            end--;
        }
        String pending = buffer.substring(0, end);
        buffer.delete(0, end);
        emit(shown(pending));
    }

    /** Whether text waits in the buffer. */
    boolean pending() {
        return !buffer.isEmpty();
    }

    /**
     * Since when the text in the buffer waits, as a count of the buffer's
     * writes: the same number later means none of it was written meanwhile.
     */
    long pendingSince() {
        return written;
    }

    /**
     * Writes the text that has waited since {@code since} (a value of
     * {@link #pendingSince()}), if it still waits, keeping a trailing high
     * surrogate for its pair as every flush of a piece does; so the bytes are
     * those a flush by LF or size would have written.
     */
    void flushWaiting(long since) {
        if (written == since && !buffer.isEmpty()) {
            flushWhole();
        }
    }

    /** Writes whatever is buffered (a high surrogate left alone there is shown escaped under {@code -x}). */
    void flush() {
        if (!buffer.isEmpty()) {
            written++;
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
    void prepareForTerminal() {
        try {
            flush();
            if (stdoutIsTerminal && !atLineStart) {
                emit("\n");
            }
        } catch (UncheckedIOException e) {
            // Recorded in failure by emit.
        }
    }

    /**
     * Whether stdout, not being the terminal, holds a started line that may
     * show there (through {@code tee} or {@code cat}) and that the terminal was
     * not told of yet. Told once: until more is written, the line counts as
     * ended on the terminal.
     */
    boolean takeLineOpenOffTerminal() {
        if (stdoutIsTerminal || atLineStart || lineEndedOnTerminal) {
            return false;
        }
        lineEndedOnTerminal = true;
        return true;
    }

    /**
     * Takes stdout as failed with {@code why} (its reader is gone, seen
     * before the next write), unless it already failed: nothing more is
     * written to it.
     */
    void fail(IOException why) {
        if (failure == null) {
            failure = why;
        }
    }

    /** Why writing to stdout failed (a closed pipe, a full disk), once it has. */
    Optional<IOException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Flushes, then writes the LF that ends an answer. */
    void endAnswer() {
        flush();
        emit("\n");
    }

    /** Writes text that is not model output (the repetition marker, a header, the help) in order with it. */
    void writeDirect(String text) {
        flush();
        emit(text);
    }

    /**
     * Writes the prompt for a line of input. The line the user then enters
     * ends it, so the line state stays as it was: what comes after the
     * answer to it starts as after a LF.
     */
    void writePrompt(String prompt) {
        flush();
        boolean lineStart = atLineStart;
        boolean ended = lineEndedOnTerminal;
        emit(prompt);
        atLineStart = lineStart;
        lineEndedOnTerminal = ended;
    }

    boolean atLineStart() {
        return atLineStart && buffer.isEmpty();
    }

    /** The model's text as it is written: under {@code -x}, with what a terminal acts on escaped. */
    private String shown(String text) {
        if (!immediate || text.codePoints().noneMatch(AnswerWriter::isActedOn)) {
            return text;
        }
        StringBuilder shown = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(cp -> {
            if (isActedOn(cp)) {
                shown.append(Render.escape(Character.toString(cp)));
            } else {
                shown.appendCodePoint(cp);
            }
        });
        return shown.toString();
    }

    /** What exec.md §6 escapes, but tab and LF, which text needs and which draw nothing false. */
    private static boolean isActedOn(int cp) {
        if (cp >= 0x20 && cp < 0x7F) {
            return false; // printable ASCII, most of any answer: no string made for it
        }
        return cp != '\t' && cp != '\n' && Render.needsEscape(Character.toString(cp));
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
        lineEndedOnTerminal = false;
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
