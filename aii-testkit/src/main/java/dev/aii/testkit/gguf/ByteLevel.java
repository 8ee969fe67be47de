package dev.aii.testkit.gguf;

import java.nio.charset.StandardCharsets;

/**
 * GPT-2's byte-level alphabet: each of the 256 byte values is written as one
 * printable character (the printable ASCII and Latin-1 ones as themselves,
 * the rest from U+0100 on), so that token texts in a {@code gpt2} vocabulary
 * are strings of these characters. Space is {@code Ġ}, LF is {@code Ċ}.
 */
public final class ByteLevel {

    private static final char[] CHARS = new char[256];

    static {
        int next = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            CHARS[b] = printable ? (char) b : (char) (256 + next++);
        }
    }

    private ByteLevel() {
    }

    /** The character that stands for byte {@code b}. */
    public static String ofByte(int b) {
        return String.valueOf(CHARS[b & 0xFF]);
    }

    /** {@code text}'s UTF-8 bytes, each as its character. */
    public static String encode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.append(CHARS[b & 0xFF]);
        }
        return out.toString();
    }
}
