package dev.aii.cli.flags;

import java.util.ArrayList;
import java.util.List;

/**
 * Fits the {@code --help} text to a terminal's width. The text is rendered
 * (by picocli, at build time) {@link #RENDER_WIDTH} wide, so that each
 * paragraph, synopsis line and table entry is one line; here every line is
 * wrapped again: a table entry ({@code "  -f, --file=FILE  File to ..."}) with
 * its text in a column, a synopsis line under its command, anything else
 * under its own indentation. No line is wider than asked, down to one
 * column: a word longer than its room is cut.
 */
final class HelpLayout {

    /** How wide the text is rendered: wider than any of its lines, so picocli wraps nothing. */
    static final int RENDER_WIDTH = 1000;

    /** How wide picocli lets the option column be, so that every option keeps its text on its line. */
    static final int RENDER_TERM_WIDTH = 40;

    /** Below this room for an entry's text, it goes under its term instead of beside it. */
    static final int MIN_TEXT_COLUMNS = 20;

    private static final String USAGE = "Usage: ";

    private HelpLayout() {
    }

    /** {@code text} laid out in {@code width} columns (at least 1). */
    static String fit(String text, int width) {
        int w = Math.max(1, width);
        List<String> lines = text.lines().toList();
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i).stripTrailing();
            if (Entry.of(line) != null) {
                int end = i;
                while (end < lines.size() && Entry.of(lines.get(end).stripTrailing()) != null) {
                    end++;
                }
                table(lines.subList(i, end), w, out);
                i = end;
                continue;
            }
            if (line.isEmpty()) {
                out.append('\n');
            } else if (line.startsWith(USAGE)) {
                wrap(line, "", " ".repeat(USAGE.length() + 4), w, out);
            } else {
                int indent = indentOf(line);
                String pad = " ".repeat(indent);
                // A synopsis line goes on under its command; anything else under its first word.
                wrap(line.substring(indent), pad, " ".repeat(indent + (line.startsWith(" ") ? 4 : 0)), w, out);
            }
            i++;
        }
        return out.toString();
    }

    /**
     * Consecutive entries, their texts in one column: the column they were
     * rendered in when it fits, else one just past the longest term that fits.
     */
    private static void table(List<String> entries, int width, StringBuilder out) {
        int column = 0;
        int rendered = -1;
        for (String line : entries) {
            Entry entry = Entry.of(line.stripTrailing());
            int end = entry.indent() + entry.term().length() + 2;
            if (end <= width / 2) {
                column = Math.max(column, end);
            }
            rendered = rendered == -1 || rendered == entry.textStart() ? entry.textStart() : -2;
        }
        if (rendered > 0 && rendered <= width / 2) {
            column = rendered;
        }
        boolean beside = column > 0 && width - column >= MIN_TEXT_COLUMNS;
        for (String line : entries) {
            Entry entry = Entry.of(line.stripTrailing());
            String indent = " ".repeat(entry.indent());
            String term = entry.term();
            String text = entry.text();
            if (beside && indent.length() + term.length() + 2 <= column) {
                String lead = indent + term + " ".repeat(column - indent.length() - term.length());
                wrap(text, lead, " ".repeat(column), width, out);
            } else if (beside) {
                wrap(term, indent, indent + "  ", width, out);
                wrap(text, " ".repeat(column), " ".repeat(column), width, out);
            } else {
                wrap(term, indent, indent + "  ", width, out);
                String under = indent + "    ";
                wrap(text, under, under, width, out);
            }
        }
    }

    /**
     * Words of {@code text} filled into lines of {@code width}: the first
     * after {@code first}, the others after {@code next}. A prefix is cut to
     * half the width when the width is too small for it.
     */
    private static void wrap(String text, String first, String next, int width, StringBuilder out) {
        String lead = fitted(first, width);
        String more = fitted(next, width);
        StringBuilder line = new StringBuilder(lead);
        int used = length(lead);
        boolean empty = true;
        for (String word : words(text.strip())) {
            if (word.isEmpty()) {
                continue;
            }
            int room = width - used - (empty ? 0 : 1);
            int len = length(word);
            if (len <= room) {
                if (!empty) {
                    line.append(' ');
                    used++;
                }
                line.append(word);
                used += len;
                empty = false;
                continue;
            }
            if (!empty) {
                out.append(line).append('\n');
                line = new StringBuilder(more);
                used = length(more);
                empty = true;
            }
            // The word alone is too long for a line: cut it into pieces that fill lines.
            String rest = word;
            while (length(rest) > width - used) {
                int cut = rest.offsetByCodePoints(0, width - used);
                out.append(line).append(rest, 0, cut).append('\n');
                rest = rest.substring(cut);
                line = new StringBuilder(more);
                used = length(more);
            }
            line.append(rest);
            used += length(rest);
            empty = rest.isEmpty();
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    /**
     * A table entry: indented by spaces, a term (words apart by single
     * spaces), two spaces or more, then its text. Read by hand rather than by
     * a regular expression, which would cost {@code --help} a few ms of
     * start-up; HelpLayoutTest holds it to the expression
     * {@code ^( +)(\S(?:\S| (?! ))*) {2,}(\S.*)$}.
     */
    record Entry(int indent, String term, int textStart, String text) {

        /** The entry {@code line} is, or null when it is none. */
        static Entry of(String line) {
            int n = line.length();
            int indent = 0;
            while (indent < n && line.charAt(indent) == ' ') {
                indent++;
            }
            if (indent == 0 || indent == n || whitespace(line.charAt(indent))) {
                return null;
            }
            int end = indent;
            while (end < n) {
                char c = line.charAt(end);
                if (!whitespace(c)) {
                    end++;
                } else if (c == ' ' && end + 1 < n && line.charAt(end + 1) != ' ' && !whitespace(line.charAt(end + 1))) {
                    end += 2;
                } else {
                    break;
                }
            }
            int start = end;
            while (start < n && line.charAt(start) == ' ') {
                start++;
            }
            if (start - end < 2 || start == n || whitespace(line.charAt(start))) {
                return null;
            }
            // the text's first character is any but \s; the rest is what . matches, to the end
            for (int i = start + 1; i < n; i++) {
                if (lineTerminator(line.charAt(i))) {
                    return null;
                }
            }
            return new Entry(indent, line.substring(indent, end), start, line.substring(start));
        }

        /** What {@code \s} matches. */
        private static boolean whitespace(char c) {
            return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
        }

        /** What {@code .} does not match. */
        private static boolean lineTerminator(char c) {
            return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
        }
    }

    /** The runs of {@code text} between spaces (not a split by expression, which would compile one). */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int end = text.indexOf(' ', i);
            if (end < 0) {
                end = text.length();
            }
            if (end > i) {
                words.add(text.substring(i, end));
            }
            i = end + 1;
        }
        return words;
    }

    private static String fitted(String prefix, int width) {
        return prefix.length() <= width / 2 ? prefix : prefix.substring(0, width / 2);
    }

    private static int indentOf(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == ' ') {
            n++;
        }
        return n;
    }

    private static int length(String s) {
        return s.codePointCount(0, s.length());
    }
}
