package dev.aii.cli.flags;

import java.util.Map;

/** The terminal's width as {@code COLUMNS} gives it: 80 when it is unset or not a width. */
public final class Columns {

    static final int DEFAULT = 80;

    /** Widths beyond this are taken for a mistake: no terminal is that wide. */
    static final int MAX = 10_000;

    private Columns() {
    }

    /** {@code COLUMNS} when it is a whole number from 1 to {@value #MAX} (blanks around allowed), else {@value #DEFAULT}. */
    public static int of(Map<String, String> env) {
        String value = env.get("COLUMNS");
        if (value == null) {
            return DEFAULT;
        }
        String v = value.strip();
        if (v.isEmpty() || v.length() > 5 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return DEFAULT;
        }
        int n = Integer.parseInt(v);
        return n >= 1 && n <= MAX ? n : DEFAULT;
    }
}
