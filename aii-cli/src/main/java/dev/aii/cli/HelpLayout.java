package dev.aii.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    private static final Pattern ENTRY = Pattern.compile("^( +)(\\S(?:\\S| (?! ))*) {2,}(\\S.*)$");
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
            if (ENTRY.matcher(line).matches()) {
                int end = i;
                while (end < lines.size() && ENTRY.matcher(lines.get(end).stripTrailing()).matches()) {
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
        for (String entry : entries) {
            Matcher m = ENTRY.matcher(entry.stripTrailing());
            m.matches();
            int end = m.group(1).length() + m.group(2).length() + 2;
            if (end <= width / 2) {
                column = Math.max(column, end);
            }
            rendered = rendered == -1 || rendered == m.start(3) ? m.start(3) : -2;
        }
        if (rendered > 0 && rendered <= width / 2) {
            column = rendered;
        }
        boolean beside = column > 0 && width - column >= MIN_TEXT_COLUMNS;
        for (String entry : entries) {
            Matcher m = ENTRY.matcher(entry.stripTrailing());
            m.matches();
            String indent = " ".repeat(m.group(1).length());
            String term = m.group(2);
            String text = m.group(3);
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
        for (String word : text.strip().split(" +")) {
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
