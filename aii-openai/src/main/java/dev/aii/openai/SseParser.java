package dev.aii.openai;

import dev.aii.model.ModelException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An incremental {@code text/event-stream} parser: bytes go in as they
 * arrive, and each event's data goes out as soon as its blank line does, so
 * nothing is held back beyond one event. Lines end with LF, CRLF or CR;
 * comment lines ({@code :...}) and fields other than {@code data},
 * {@code error} and {@code event} are skipped; several {@code data} lines of
 * one event are joined with LF. An {@code error} field, or an event named
 * {@code error}, goes to {@link Listener#onError}.
 */
final class SseParser {

    /** Receives each event's data. */
    @FunctionalInterface
    interface Listener {

        /** Returns false to stop: no further event is delivered. */
        boolean onData(String data) throws ModelException;

        /**
         * An event that reports an error: an {@code error:} field (as older
         * llama.cpp servers send), or the data of an {@code event: error}.
         * Ignored unless overridden.
         */
        default void onError(String value) throws ModelException {
        }
    }

    /** The longest line accepted; a server sending more is broken, not chatty. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private final Listener listener;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private final StringBuilder error = new StringBuilder();
    private boolean hasError;
    private boolean errorEvent;
    private boolean afterCr;
    private boolean firstLine = true;
    private boolean stopped;

    SseParser(Listener listener) {
        this.listener = listener;
    }

    /** Feeds {@code len} bytes; returns false once the listener has asked to stop. */
    boolean feed(byte[] bytes, int off, int len) throws ModelException {
        for (int i = off; i < off + len && !stopped; i++) {
            byte b = bytes[i];
            if (afterCr) {
                afterCr = false;
                if (b == '\n') {
                    continue;
                }
            }
            if (b == '\n' || b == '\r') {
                afterCr = b == '\r';
                endLine();
            } else {
                if (line.size() >= MAX_LINE_BYTES) {
                    throw ModelException.internal("The model server sent a stream line that is too long",
                            "more than " + MAX_LINE_BYTES + " bytes without a line break", null);
                }
                line.write(b);
            }
        }
        return !stopped;
    }

    /**
     * At the end of the stream: an event whose closing blank line never came
     * is still delivered, since servers that end with a bare
     * {@code data: [DONE]} line mean it.
     */
    boolean finish() throws ModelException {
        if (!stopped && line.size() > 0) {
            endLine();
        }
        return flushCompleteLines();
    }

    /**
     * After the connection failed: the event whose lines all arrived is
     * delivered even though its blank line never came; a line cut in the
     * middle is not (it is not whole). Returns false once the listener has
     * asked to stop.
     */
    boolean flushCompleteLines() throws ModelException {
        line.reset();
        if (!stopped) {
            dispatch();
        }
        return !stopped;
    }

    private void endLine() throws ModelException {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (firstLine) {
            firstLine = false;
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
        }
        if (text.isEmpty()) {
            dispatch();
            return;
        }
        if (text.startsWith(":")) {
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (field.equals("data")) {
            if (hasData) {
                data.append('\n');
            }
            data.append(value);
            hasData = true;
        } else if (field.equals("error")) {
            if (hasError) {
                error.append('\n');
            }
            error.append(value);
            hasError = true;
        } else if (field.equals("event")) {
            errorEvent = value.equals("error");
        }
    }

    private void dispatch() throws ModelException {
        boolean isError = errorEvent;
        errorEvent = false;
        if (hasError) {
            String value = error.toString();
            error.setLength(0);
            hasError = false;
            if (hasData) {
                deliver();
            }
            if (!stopped) {
                listener.onError(value);
            }
            return;
        }
        if (!hasData) {
            return;
        }
        if (isError) {
            String value = data.toString();
            data.setLength(0);
            hasData = false;
            listener.onError(value);
            return;
        }
        deliver();
    }

    private void deliver() throws ModelException {
        String event = data.toString();
        data.setLength(0);
        hasData = false;
        if (!listener.onData(event)) {
            stopped = true;
        }
    }
}
