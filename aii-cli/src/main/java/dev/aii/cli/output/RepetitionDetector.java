package dev.aii.cli.output;

import java.text.BreakIterator;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Notices an answer that has started repeating itself, counting in
 * user-perceived characters (grapheme clusters). Each finished line of at
 * least 40 characters (trimmed) leaves its fingerprint in a FIFO of at most 20;
 * a line in progress that reaches 40 characters (untrimmed) and whose
 * fingerprint is in the FIFO is a repetition. One detector per answer.
 */
public final class RepetitionDetector {

    static final int MIN_LINE = 40;
    static final int MAX_FINGERPRINT = 60;
    static final int MEMORY = 20;

    private final Deque<String> fingerprints = new ArrayDeque<>();
    private final LineSummary line = new LineSummary();
    private final BreakIterator clusters = BreakIterator.getCharacterInstance(Locale.ROOT);
    /** The last cluster taken, which the next piece may still extend (a combining mark, a ZWJ sequence). */
    private String last = "";
    /**
     * The longest cluster carried over to the next piece; a longer one (a
     * letter under thousands of combining marks) counts as complete, so that
     * no piece is joined to an ever-growing cluster.
     */
    private static final int MAX_CARRIED_CLUSTER = 32;
    /** A high surrogate that ended the previous piece: its pair comes with the next one. */
    private String carry = "";
    private boolean repeating;

    /**
     * Loads the rules of character segmentation on a daemon thread of its own,
     * so that the first piece of the first answer is not held up by them;
     * called while the model is still thinking.
     */
    public static void primeInBackground() {
        Thread.ofPlatform().daemon().name("aii-text-primer")
                .start(() -> new RepetitionDetector().accept("Primed, \u00e9\u0301 \uD83D\uDC4D.\n"));
    }

    /**
     * Takes the next piece of the answer.
     *
     * @return whether the answer is now repeating (stays true once it is)
     */
    public boolean accept(String piece) {
        if (repeating || piece.isEmpty()) {
            return repeating;
        }
        String text = last + carry + piece;
        carry = "";
        if (Character.isHighSurrogate(text.charAt(text.length() - 1))) {
            carry = text.substring(text.length() - 1);
            text = text.substring(0, text.length() - 1);
        }
        clusters.setText(text);
        int start = clusters.first();
        boolean first = true;
        for (int end = clusters.next(); end != BreakIterator.DONE; start = end, end = clusters.next()) {
            String cluster = text.substring(start, end);
            if (first && !last.isEmpty()) {
                first = false;
                if (cluster.equals(last)) {
                    continue;       // the previous cluster is complete: nothing changes
                }
                retract();          // the piece extends the previous cluster: take it again, whole
            }
            first = false;
            last = cluster;
            if (character(cluster)) {
                return true;
            }
        }
        if (last.length() > MAX_CARRIED_CLUSTER) {
            last = "";
        }
        return false;
    }

    /** Forgets the last cluster taken from the current line (it is about to be taken again, extended). */
    private void retract() {
        if (line.length() > 0 && !last.contains("\n")) {
            line.retract();
        }
    }

    private boolean character(String cluster) {
        if (cluster.indexOf('\n') >= 0) {
            last = "";
            if (line.trimmedLength() >= MIN_LINE) {
                remember(line.trimmedFingerprint());
            }
            line.clear();
            return false;
        }
        line.add(cluster);
        // Past the kept head the fingerprint, and so the answer, no longer changes until the line ends.
        if (line.length() >= MIN_LINE && line.length() <= LineSummary.HEAD + 1
                && fingerprints.contains(line.fingerprint())) {
            repeating = true;
        }
        return repeating;
    }

    private void remember(String fingerprint) {
        if (fingerprints.contains(fingerprint)) {
            return;
        }
        fingerprints.addLast(fingerprint);
        if (fingerprints.size() > MEMORY) {
            fingerprints.removeFirst();
        }
    }

    /**
     * The first min(max(40, e), 60, len) characters of a line of {@code length}
     * characters that starts with {@code head} (at least its first 61, or all
     * of it), where e is the index after the first {@code .}, {@code ?} or
     * {@code !} that ends the line or is followed by whitespace, else the length.
     */
    static String fingerprint(List<String> head, long length) {
        long e = length;
        // A terminator past the 60th character cannot shorten the fingerprint: look no further.
        for (int i = 0; i < Math.min(length, MAX_FINGERPRINT); i++) {
            String c = head.get(i);
            if ((c.equals(".") || c.equals("?") || c.equals("!"))
                    && (i == length - 1 || isWhitespace(head.get(i + 1)))) {
                e = i + 1;
                break;
            }
        }
        int n = (int) Math.min(Math.min(Math.max(MIN_LINE, e), MAX_FINGERPRINT), length);
        return String.join("", head.subList(0, n));
    }

    /** Tests and the old callers: the fingerprint of a whole line. */
    static String fingerprint(List<String> s) {
        return fingerprint(s, s.size());
    }

    static boolean isWhitespace(String cluster) {
        return cluster.codePoints().allMatch(Character::isWhitespace);
    }
}
