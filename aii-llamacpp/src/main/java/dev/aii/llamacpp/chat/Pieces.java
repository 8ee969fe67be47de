package dev.aii.llamacpp.chat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of an answer's tokens as text: a token may end inside a
 * character, so the last incomplete UTF-8 sequence waits for the next token.
 * Bytes that can never form a character become U+FFFD, as a server sends them.
 */
final class Pieces {

    private final StringBuilder text = new StringBuilder();
    private byte[] pending = new byte[0];

    /** Adds a token's bytes; returns the text they complete (possibly none). */
    String add(byte[] piece) {
        byte[] all = Arrays.copyOf(pending, pending.length + piece.length);
        System.arraycopy(piece, 0, all, pending.length, piece.length);
        int n = completeLength(all);
        String added = new String(all, 0, n, StandardCharsets.UTF_8);
        text.append(added);
        pending = Arrays.copyOfRange(all, n, all.length);
        return added;
    }

    /** The length of the text so far, in chars. */
    int length() {
        return text.length();
    }

    /** The text from char {@code from} on. */
    String from(int from) {
        return text.substring(from);
    }

    /** The text so far, without an incomplete character at the end. */
    String text() {
        return text.toString();
    }

    /** The text of every byte, an incomplete character at the end as U+FFFD. */
    String all() {
        return text + new String(pending, StandardCharsets.UTF_8);
    }

    /** The length of {@code b} without a trailing sequence that more bytes could still complete. */
    static int completeLength(byte[] b) {
        int n = b.length;
        for (int back = 1; back <= Math.min(3, n); back++) {
            int lead = b[n - back] & 0xFF;
            if ((lead & 0xC0) == 0x80) {
                continue;       // a continuation byte: look further back for its lead
            }
            int needed = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 && lead < 0xF0 ? 3
                    : lead >= 0xC2 && lead < 0xE0 ? 2 : 1;
            return needed > back ? n - back : n;
        }
        return n;
    }
}
