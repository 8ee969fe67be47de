package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a program reads an option's value as a path: one path; a list of
 * paths, split at any of {@code separators} ({@code file -m a:b}); or one
 * path that the program resolves from the top of its work tree rather than
 * from the current directory (git's {@code blame --ignore-revs-file},
 * {@code grep -f}, {@code ls-files --exclude-from}). A value read as a path
 * must exist as written, and is checked from every base the program may
 * resolve it from.
 *
 * @param kind how the value is read
 * @param separators for a list, the characters between its paths; else empty
 * @param filesInDirectories whether the program reads every file in a directory it is given, through their
 *                           links ({@code file -m dir}): a directory there asks
 */
public record PathValue(Kind kind, String separators, boolean filesInDirectories) {

    /** How a value is read. */
    public enum Kind {
        /** One path, from the current directory. */
        ONE,
        /** Several paths, from the current directory. */
        LIST,
        /** One path, from the top of the work tree (which may be the current directory or any above it). */
        FROM_TOP
    }

    /** One path. */
    public static final PathValue ONE = new PathValue(Kind.ONE, "", false);

    /** One path, from the top of the work tree. */
    public static final PathValue FROM_TOP = new PathValue(Kind.FROM_TOP, "", false);

    public PathValue {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(separators, "separators");
        if ((kind == Kind.LIST) == separators.isEmpty()) {
            throw new IllegalArgumentException("separators go with a list and only with it: " + kind + " "
                    + separators);
        }
    }

    /** A list of paths split at any of {@code separators}. */
    public static PathValue list(String separators) {
        return new PathValue(Kind.LIST, separators, false);
    }

    /** This way of reading, for a program that reads every file in a directory it is given. */
    public PathValue readingDirectories() {
        return new PathValue(kind, separators, true);
    }

    /**
     * The paths {@code value} names, read this way: a list's empty elements
     * name nothing, and neither does {@code -} alone, standard input (which
     * aii makes {@code /dev/null}).
     */
    List<String> paths(String value) {
        if (kind != Kind.LIST) {
            return value.equals("-") ? List.of() : List.of(value);
        }
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= value.length(); i++) {
            if (i == value.length() || separators.indexOf(value.charAt(i)) >= 0) {
                if (i > start) {
                    out.add(value.substring(start, i));
                }
                start = i + 1;
            }
        }
        return out;
    }
}
