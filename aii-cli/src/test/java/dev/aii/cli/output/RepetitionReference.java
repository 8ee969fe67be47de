package dev.aii.cli.output;

import java.text.BreakIterator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * cli.md §5's repetition rule written as plainly as it reads, keeping the
 * whole line: the reference the bounded {@link RepetitionDetector} is
 * compared with. It sees the whole answer at once, so clusters are never
 * split between pieces.
 */
final class RepetitionReference {

    private RepetitionReference() {
    }

    /** The index (in clusters) at which {@code text} counts as repeating, or -1. */
    static int repeatsAt(String text) {
        Deque<String> fifo = new ArrayDeque<>();
        List<String> line = new ArrayList<>();
        BreakIterator it = BreakIterator.getCharacterInstance(Locale.ROOT);
        it.setText(text);
        int index = 0;
        for (int start = it.first(), end = it.next(); end != BreakIterator.DONE; start = end, end = it.next(), index++) {
            String c = text.substring(start, end);
            if (c.contains("\n")) {
                List<String> trimmed = trim(line);
                if (trimmed.size() >= 40) {
                    String f = fingerprint(trimmed);
                    if (!fifo.contains(f)) {
                        fifo.addLast(f);
                        if (fifo.size() > 20) {
                            fifo.removeFirst();
                        }
                    }
                }
                line.clear();
            } else {
                line.add(c);
                if (line.size() >= 40 && fifo.contains(fingerprint(line))) {
                    return index;
                }
            }
        }
        return -1;
    }

    static String fingerprint(List<String> s) {
        int e = s.size();
        for (int i = 0; i < s.size(); i++) {
            String c = s.get(i);
            if ((c.equals(".") || c.equals("?") || c.equals("!")) && (i == s.size() - 1 || blank(s.get(i + 1)))) {
                e = i + 1;
                break;
            }
        }
        return String.join("", s.subList(0, Math.min(Math.min(Math.max(40, e), 60), s.size())));
    }

    private static List<String> trim(List<String> s) {
        int a = 0;
        int b = s.size();
        while (a < b && blank(s.get(a))) {
            a++;
        }
        while (b > a && blank(s.get(b - 1))) {
            b--;
        }
        return s.subList(a, b);
    }

    private static boolean blank(String c) {
        return c.codePoints().allMatch(Character::isWhitespace);
    }
}
