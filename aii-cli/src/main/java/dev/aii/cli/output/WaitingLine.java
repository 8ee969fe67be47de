package dev.aii.cli.output;

import dev.aii.policy.Render;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The status line on a terminal's stderr while the model has sent no text:
 * {@code 300 ms} after a request is sent, {@code \r}, a spinner and
 * {@code waiting for <model>}, redrawn as the spinner turns, until
 * {@link #stop()} erases it with {@code \r\x1b[2K}. Only the {@link Console}
 * uses it, under its lock, and stops it before anything else is written, so
 * it never shares the screen with text, a prompt, a log line or an error.
 */
final class WaitingLine {

    /** How long a request goes without text before the line is drawn. */
    static final Duration DELAY = Duration.ofMillis(300);
    /** How often the spinner turns. */
    static final Duration FRAME = Duration.ofMillis(100);
    /** Back to column 0, the line cleared. */
    static final String ERASE = "\r\u001b[2K";
    static final String FRAMES = "-\\|/";

    private final OutputStream err;
    private final int columns;
    private final Ticker ticker;
    private final Object lock;
    private final Runnable beforeDraw;
    private String text = "";
    private int generation;
    private boolean shown;
    private int frame;

    /**
     * @param columns the terminal's width, which the line never reaches (a wrapped line would not be erased whole)
     * @param lock the console's lock, taken by the ticks
     * @param beforeDraw readies stdout (its text flushed, its line ended) before the line is first drawn
     */
    WaitingLine(OutputStream err, int columns, Ticker ticker, Object lock, Runnable beforeDraw) {
        this.err = err;
        this.columns = columns;
        this.ticker = ticker;
        this.lock = lock;
        this.beforeDraw = beforeDraw;
    }

    /** A request for {@code model} has been sent: the line is drawn if no text comes within {@link #DELAY}. */
    void start(String model) {
        stop();
        text = fitted("waiting for " + Render.escape(model));
        frame = 0;
        int tick = ++generation;
        ticker.schedule(DELAY, () -> tick(tick));
    }

    /** Erases the line if it is drawn, and draws it no more until the next {@link #start}. */
    void stop() {
        generation++;
        if (shown) {
            shown = false;
            write(ERASE);
        }
    }

    /** Whether the line is on the screen now. */
    boolean shown() {
        return shown;
    }

    private void tick(int tick) {
        synchronized (lock) {
            if (tick != generation) {
                return;
            }
            if (!shown) {
                beforeDraw.run();
            }
            shown = true;
            write("\r" + FRAMES.charAt(frame) + " " + text);
            frame = (frame + 1) % FRAMES.length();
            ticker.schedule(FRAME, () -> tick(tick));
        }
    }

    /** {@code s}, cut with {@code ...} so that the spinner, a space and it stay within the columns. */
    private String fitted(String s) {
        int room = Math.max(0, columns - 3);
        if (s.codePointCount(0, s.length()) <= room) {
            return s;
        }
        int keep = Math.max(0, room - 3);
        return s.substring(0, s.offsetByCodePoints(0, keep)) + "...".substring(0, Math.min(3, room));
    }

    private void write(String s) {
        try {
            err.write(s.getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException e) {
            // stderr is gone: the line is only a courtesy.
        }
    }
}
