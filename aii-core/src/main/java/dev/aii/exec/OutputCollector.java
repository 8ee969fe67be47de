package dev.aii.exec;

/**
 * Keeps the first {@code cap} bytes written to it and counts them all, so a
 * runner can drain any amount of output in constant memory. Not thread-safe:
 * one reader thread feeds it.
 */
public final class OutputCollector {

    private final byte[] kept;
    private int keptLength;
    private long total;

    public OutputCollector(int cap) {
        this.kept = new byte[cap];
    }

    /** Takes {@code length} bytes of {@code buffer} from {@code offset}. */
    public void accept(byte[] buffer, int offset, int length) {
        int room = kept.length - keptLength;
        if (room > 0) {
            int n = Math.min(room, length);
            System.arraycopy(buffer, offset, kept, keptLength, n);
            keptLength += n;
        }
        total += length;
    }

    /**
     * Counts {@code length} bytes that were passed on without being seen
     * (moved inside the kernel, for one): only once the cap is full, since
     * such bytes cannot be kept.
     *
     * @throws IllegalStateException when there is still room to keep bytes
     */
    public void count(long length) {
        if (keptLength < kept.length) {
            throw new IllegalStateException("bytes can be counted unseen only once the " + kept.length
                    + " bytes of the cap are kept; " + keptLength + " are");
        }
        if (length < 0) {
            throw new IllegalArgumentException("a negative count: " + length);
        }
        total += length;
    }

    /** Whether the cap is full, so that what follows is only counted. */
    public boolean full() {
        return keptLength == kept.length;
    }

    /** What was kept, and the total so far. */
    public CapturedOutput snapshot() {
        return new CapturedOutput(java.util.Arrays.copyOf(kept, keptLength), total);
    }
}
