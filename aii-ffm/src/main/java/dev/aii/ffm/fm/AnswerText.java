package dev.aii.ffm.fm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns the shim's answer events into text that only ever grows, because a
 * sink cannot take back what it has already printed.
 *
 * <p>A DELTA carries the bytes added since the last event; it may end inside
 * a UTF-8 sequence, whose bytes wait for the next DELTA. A RESET carries the
 * whole answer so far when it does not extend the previous text. Three cases:
 * <ul>
 *   <li>it does extend the previous text after all: the new part is appended;</li>
 *   <li>it shares nothing with the previous text (a new segment, as after a
 *       tool call): all of it is appended;</li>
 *   <li>it rewrites part of the previous text: what was printed stays printed,
 *       and only what goes beyond the printed length is appended. The rewrite
 *       of already printed characters is lost; duplicating them would be
 *       worse.</li>
 * </ul>
 * Invalid UTF-8 becomes U+FFFD. Not thread-safe: one answer, one thread.
 */
final class AnswerText {

    private static final byte[] NONE = new byte[0];

    /** The answer as the shim sees it, decoded. */
    private final StringBuilder current = new StringBuilder();
    /** How many characters of {@link #current} count as printed; may exceed its length after a shortening rewrite. */
    private int printed;
    /** The bytes of an unfinished UTF-8 sequence at the end of the last DELTA. */
    private byte[] carry = NONE;

    /** The text to append for a DELTA; empty when there is none yet. */
    String delta(byte[] bytes) {
        byte[] all = carry.length == 0 ? bytes : concat(carry, bytes);
        int complete = completePrefix(all);
        carry = Arrays.copyOfRange(all, complete, all.length);
        current.append(new String(all, 0, complete, StandardCharsets.UTF_8));
        return unprinted();
    }

    /** The text to append for a RESET carrying the whole answer so far. */
    String reset(byte[] bytes) {
        carry = NONE;
        String text = new String(bytes, StandardCharsets.UTF_8);
        int common = commonPrefix(current, text);
        if (common == 0 && !current.isEmpty()) {
            printed = 0;
        }
        current.setLength(0);
        current.append(text);
        return unprinted();
    }

    /** The text to append when the answer ends: an unfinished UTF-8 sequence becomes U+FFFD. */
    String finish() {
        if (carry.length == 0) {
            return "";
        }
        current.append(new String(carry, StandardCharsets.UTF_8));
        carry = NONE;
        return unprinted();
    }

    private String unprinted() {
        if (current.length() <= printed) {
            return "";
        }
        String piece = current.substring(printed);
        printed = current.length();
        return piece;
    }

    /** The length of the longest prefix of {@code bytes} that does not end inside a UTF-8 sequence. */
    static int completePrefix(byte[] bytes) {
        int end = bytes.length;
        // A sequence is at most 4 bytes: look back at most 3 for the lead byte of an unfinished one.
        for (int back = 1; back <= Math.min(3, end); back++) {
            int b = bytes[end - back] & 0xFF;
            if (b < 0x80) {
                return end;
            }
            if (b >= 0xC0) {
                int needed = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
                return needed > back ? end - back : end;
            }
        }
        return end;
    }

    /** The length of the common prefix, never splitting a surrogate pair. */
    private static int commonPrefix(CharSequence a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        if (i > 0 && i < n && Character.isHighSurrogate(a.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
