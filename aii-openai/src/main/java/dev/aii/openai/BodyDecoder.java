package dev.aii.openai;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * The body of an HTTP/1.1 response, decoded as it arrives: chunked, of a
 * fixed length, or until the connection closes. The property this class
 * exists for: every body byte that arrived before the framing broke (a bad
 * chunk header, a connection closed in a chunk) is returned by
 * {@link #read} before the failure is thrown. The JDK's client decodes a
 * whole read before handing any of it over, so a bad header there loses the
 * good chunks that came in the same packet.
 */
final class BodyDecoder {

    /** The longest chunk-size line accepted (with extensions). */
    private static final int MAX_SIZE_LINE = 4096;

    private enum State { SIZE, DATA, DATA_END, TRAILER, DONE }

    private final InputStream in;
    private final boolean chunked;
    private long remaining;        // fixed length: bytes left; chunked: bytes left in this chunk
    private final boolean untilClose;
    private State state;
    private final StringBuilder line = new StringBuilder();
    private final byte[] raw = new byte[16 * 1024];
    private int rawStart;
    private int rawEnd;
    private IOException failure;

    private BodyDecoder(InputStream in, boolean chunked, long length, boolean untilClose) {
        this.in = in;
        this.chunked = chunked;
        this.remaining = length;
        this.untilClose = untilClose;
        // an empty body of a stated length is whole before any byte is read
        this.state = chunked ? State.SIZE : length == 0 && !untilClose ? State.DONE : State.DATA;
    }

    static BodyDecoder chunked(InputStream in) {
        return new BodyDecoder(in, true, 0, false);
    }

    static BodyDecoder ofLength(InputStream in, long length) {
        return new BodyDecoder(in, false, length, false);
    }

    static BodyDecoder untilClose(InputStream in) {
        return new BodyDecoder(in, false, Long.MAX_VALUE, true);
    }

    /**
     * Decoded body bytes into {@code out}: at least one, or -1 at the end of
     * the body. Blocks until some arrive.
     *
     * @throws IOException when the connection or the framing failed, only once
     *     every byte before the failure has been returned
     */
    int read(byte[] out) throws IOException {
        while (true) {
            int n = decode(out);
            if (n != 0) {
                return n;
            }
            if (failure != null) {
                throw failure;
            }
            if (state == State.DONE) {
                return -1;
            }
            fill();
        }
    }

    /** Moves what the raw buffer holds into {@code out}; 0 when it needs more bytes (or the body ended). */
    private int decode(byte[] out) {
        int written = 0;
        while (rawStart < rawEnd && written < out.length && failure == null && state != State.DONE) {
            switch (state) {
                case DATA -> {
                    int n = (int) Math.min(Math.min(remaining, rawEnd - rawStart), out.length - written);
                    System.arraycopy(raw, rawStart, out, written, n);
                    rawStart += n;
                    written += n;
                    remaining -= untilClose ? 0 : n;
                    if (remaining == 0) {
                        state = chunked ? State.DATA_END : State.DONE;
                    }
                }
                case SIZE -> sizeLine();
                case DATA_END, TRAILER -> endLine();
                default -> throw new IllegalStateException(state.toString());
            }
        }
        return written;
    }

    private void sizeLine() {
        Boolean whole = takeLine();
        if (whole == null) {
            return;
        }
        String text = line.toString();
        line.setLength(0);
        int semicolon = text.indexOf(';');
        String hex = (semicolon < 0 ? text : text.substring(0, semicolon)).strip();
        if (hex.isEmpty() || hex.length() > 15 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            failure = new IOException("bad chunk size line: " + ServerErrors.excerpt(text));
            return;
        }
        remaining = Long.parseLong(hex.toLowerCase(Locale.ROOT), 16);
        state = remaining == 0 ? State.TRAILER : State.DATA;
    }

    /** The CRLF after a chunk's data, or one trailer line (an empty one ends the body). */
    private void endLine() {
        Boolean whole = takeLine();
        if (whole == null) {
            return;
        }
        String text = line.toString();
        line.setLength(0);
        if (state == State.DATA_END) {
            if (!text.isEmpty()) {
                failure = new IOException("a chunk is longer than its size says");
                return;
            }
            state = State.SIZE;
        } else if (text.isEmpty()) {
            state = State.DONE;
        }
    }

    /** Appends raw bytes to {@link #line} up to a LF; TRUE when the line is whole, null when more is needed. */
    private Boolean takeLine() {
        while (rawStart < rawEnd) {
            byte b = raw[rawStart++];
            if (b == '\n') {
                if (line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
                    line.setLength(line.length() - 1);
                }
                return Boolean.TRUE;
            }
            if (line.length() >= MAX_SIZE_LINE) {
                failure = new IOException("a chunk size line is too long");
                return null;
            }
            line.append((char) (b & 0xFF));
        }
        return null;
    }

    private void fill() throws IOException {
        rawStart = 0;
        rawEnd = 0;
        int n;
        try {
            n = in.read(raw);
        } catch (IOException e) {
            failure = e;
            return;
        }
        if (n < 0) {
            if (untilClose) {
                state = State.DONE;
            } else {
                failure = new IOException(chunked ? "the connection closed inside a chunked body"
                        : "the connection closed " + remaining + " bytes before the end of the body");
            }
            return;
        }
        rawEnd = n;
    }
}
