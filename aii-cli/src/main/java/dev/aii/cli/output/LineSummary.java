package dev.aii.cli.output;

import java.util.ArrayList;
import java.util.List;

/**
 * What the repetition check needs to know of the line in progress, in
 * memory that does not grow with the line: its length in characters, its
 * first {@value #HEAD} characters as written and after its leading
 * whitespace, and how much whitespace it starts and ends with. A line of
 * 50 MB without a line feed costs what a line of 61 characters costs.
 */
final class LineSummary {

    /** Characters kept from the start: 60 for the fingerprint and one to see what follows the 60th. */
    static final int HEAD = RepetitionDetector.MAX_FINGERPRINT + 1;

    private final List<String> head = new ArrayList<>(HEAD);
    private final List<String> trimmedHead = new ArrayList<>(HEAD);
    private long length;
    private long leading;
    private long trailing;
    private boolean text;

    /** The state before the last {@link #add}, so that it can be taken back. */
    private long lengthBefore;
    private long leadingBefore;
    private long trailingBefore;
    private boolean textBefore;
    private boolean addedToHead;
    private boolean addedToTrimmedHead;

    void add(String cluster) {
        lengthBefore = length;
        leadingBefore = leading;
        trailingBefore = trailing;
        textBefore = text;
        boolean blank = RepetitionDetector.isWhitespace(cluster);
        addedToHead = head.size() < HEAD;
        if (addedToHead) {
            head.add(cluster);
        }
        addedToTrimmedHead = false;
        if (!blank || text) {
            text = true;
            addedToTrimmedHead = trimmedHead.size() < HEAD;
            if (addedToTrimmedHead) {
                trimmedHead.add(cluster);
            }
        } else {
            leading++;
        }
        trailing = blank ? trailing + 1 : 0;
        length++;
    }

    /** Takes back the last {@link #add} (once): the cluster it added is to be added again, extended. */
    void retract() {
        if (length == lengthBefore) {
            return;
        }
        if (addedToHead) {
            head.remove(head.size() - 1);
        }
        if (addedToTrimmedHead) {
            trimmedHead.remove(trimmedHead.size() - 1);
        }
        length = lengthBefore;
        leading = leadingBefore;
        trailing = trailingBefore;
        text = textBefore;
        addedToHead = false;
        addedToTrimmedHead = false;
    }

    void clear() {
        head.clear();
        trimmedHead.clear();
        length = 0;
        leading = 0;
        trailing = 0;
        text = false;
        lengthBefore = 0;
        addedToHead = false;
        addedToTrimmedHead = false;
    }

    /** The line's length in characters, as written. */
    long length() {
        return length;
    }

    /** The length without leading and trailing whitespace. */
    long trimmedLength() {
        return text ? length - leading - trailing : 0;
    }

    /** The fingerprint of the line as written. */
    String fingerprint() {
        return RepetitionDetector.fingerprint(head, length);
    }

    /** The fingerprint of the line without its leading and trailing whitespace. */
    String trimmedFingerprint() {
        long n = trimmedLength();
        List<String> kept = trimmedHead.subList(0, (int) Math.min(n, trimmedHead.size()));
        return RepetitionDetector.fingerprint(kept, n);
    }
}
