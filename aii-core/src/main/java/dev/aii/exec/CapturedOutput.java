package dev.aii.exec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The start of a command's output and how long the whole was.
 *
 * @param head the first bytes, at most the cap
 * @param totalBytes how many bytes the command wrote in all
 */
public record CapturedOutput(byte[] head, long totalBytes) {

    public CapturedOutput {
        head = head.clone();
        if (totalBytes < head.length) {
            throw new IllegalArgumentException("total " + totalBytes + " is less than the " + head.length + " bytes kept");
        }
    }

    @Override
    public byte[] head() {
        return head.clone();
    }

    /** Whether bytes were dropped. */
    public boolean truncated() {
        return totalBytes > head.length;
    }

    /** The kept bytes as text; invalid UTF-8 becomes U+FFFD. */
    public String text() {
        return StandardCharsets.UTF_8.decode(ByteBuffer.wrap(head)).toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CapturedOutput other && totalBytes == other.totalBytes && Arrays.equals(head, other.head);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(head) + Long.hashCode(totalBytes);
    }

    @Override
    public String toString() {
        return "CapturedOutput[" + head.length + " of " + totalBytes + " bytes]";
    }
}
