package dev.aii.policy.guard;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The guard table of {@code ps}, which has three syntaxes in one program:
 * UNIX options after {@code -}, BSD options without a dash ({@code ps aux}),
 * and GNU long options. procps ({@code ps e}, a BSD {@code e}) and macOS
 * ({@code ps -E}) show processes' environments; a format naming an
 * environment column does the same. procps and macOS ps stop on an option
 * they do not know, so arguments that neither accepts ask.
 */
final class PsReader implements ProgramReader {

    private static final Set<String> PROCPS_LONG_VALUE = Set.of("cols", "columns", "width", "format", "group",
            "Group", "pid", "ppid", "quick-pid", "sid", "sort", "tty", "user", "User", "rows", "lines");
    private static final Set<String> PROCPS_LONG_FLAG = Set.of("cumulative", "deselect", "forest", "headers",
            "no-headers", "no-heading", "heading", "info", "version", "context", "help", "signames");
    private static final String PROCPS_UNIX_FLAGS = "AacdefFHjlLMmNPTVwXxyZh";
    private static final String PROCPS_UNIX_VALUES = "CGgOopqstUuDk";
    private static final String PROCPS_BSD_FLAGS = "acefghjlLmMnrsSTuvwxXZVC";
    private static final String PROCPS_BSD_VALUES = "OopqtUkN";
    private static final String MACOS_FLAGS = "AaCcEefhjLlMmrSTuvwXx";
    private static final String MACOS_VALUES = "gOopGtU";

    @Override
    public void read(List<String> arguments, GuardHits out) {
        int procpsError = procps(arguments, out);
        int macosError = macos(arguments, out);
        if (procpsError >= 0 && macosError >= 0) {
            out.rejected(Math.max(procpsError, macosError));
        }
    }

    /** Reads as procps does; returns the index of the first usage error, or -1. */
    private static int procps(List<String> args, GuardHits out) {
        GuardHits mine = new GuardHits(out.program());
        int error = -1;
        for (int i = 0; i < args.size() && error < 0; i++) {
            String arg = args.get(i);
            if (arg.startsWith("--")) {
                String body = arg.substring(2);
                int eq = body.indexOf('=');
                String name = eq < 0 ? body : body.substring(0, eq);
                if (PROCPS_LONG_VALUE.contains(name)) {
                    String value = eq >= 0 ? body.substring(eq + 1) : i + 1 < args.size() ? args.get(++i) : null;
                    if (value == null) {
                        error = i;
                    } else {
                        format(name.equals("format"), value, i, mine);
                    }
                } else if (!PROCPS_LONG_FLAG.contains(name)) {
                    error = i;
                }
            } else if (arg.startsWith("-")) {
                error = cluster(args, i, arg.substring(1), PROCPS_UNIX_FLAGS, PROCPS_UNIX_VALUES, "oO", "", mine);
                i = Math.max(i, -error - 2);
                error = error >= 0 ? error : -1;
            } else if (arg.chars().allMatch(c -> (c >= '0' && c <= '9') || c == ',')) {
                continue;
            } else {
                error = cluster(args, i, arg, PROCPS_BSD_FLAGS, PROCPS_BSD_VALUES, "oO", "e", mine);
                i = Math.max(i, -error - 2);
                error = error >= 0 ? error : -1;
            }
        }
        if (error < 0) {
            mine.hits().forEach(h -> out.hit(h.index(), h.reason()));
        }
        return error;
    }

    /** Reads as macOS ps does (getopt, a first argument without a dash read as options); the first error or -1. */
    private static int macos(List<String> args, GuardHits out) {
        GuardHits mine = new GuardHits(out.program());
        int error = -1;
        for (int i = 0; i < args.size() && error < 0; i++) {
            String arg = args.get(i);
            boolean options = arg.startsWith("-") && arg.length() > 1 && !arg.equals("--");
            if (i == 0 && !arg.startsWith("-")) {
                options = true;
                arg = "-" + arg;
            }
            if (arg.equals("--")) {
                break;
            }
            if (!options) {
                break;
            }
            if (arg.startsWith("--")) {
                error = i;
                break;
            }
            error = cluster(args, i, arg.substring(1), MACOS_FLAGS, MACOS_VALUES, "oO", "E", mine);
            i = Math.max(i, -error - 2);
            error = error >= 0 ? error : -1;
        }
        if (error < 0) {
            mine.hits().forEach(h -> out.hit(h.index(), h.reason()));
        }
        return error;
    }

    /**
     * Reads one cluster of letters at {@code index}: flags, or a letter that
     * takes the rest or the next argument as its value. Returns the index of
     * an error (0 or more), or {@code -(next index to read) - 1} when the value
     * was the next argument, or -1.
     */
    private static int cluster(List<String> args, int index, String letters, String flags, String values,
                               String formats, String environ, GuardHits out) {
        for (int p = 0; p < letters.length(); p++) {
            char c = letters.charAt(p);
            if (environ.indexOf(c) >= 0) {
                out.effect(index, Effect.ENVIRON);
            }
            if (values.indexOf(c) >= 0) {
                String rest = letters.substring(p + 1);
                if (!rest.isEmpty()) {
                    format(formats.indexOf(c) >= 0, rest, index, out);
                    return -1;
                }
                if (index + 1 >= args.size()) {
                    return index;
                }
                format(formats.indexOf(c) >= 0, args.get(index + 1), index, out);
                return -(index + 1) - 2;
            }
            if (flags.indexOf(c) < 0) {
                return index;
            }
        }
        return -1;
    }

    /** A format list naming an environment column shows environments. */
    private static void format(boolean isFormat, String value, int index, GuardHits out) {
        if (isFormat && value.toLowerCase(Locale.ROOT).contains("env")) {
            out.effect(index, Effect.ENVIRON);
        }
        out.path(index, value, false);
    }

    @Override
    public List<TableRow> rows() {
        return List.of(
                new TableRow("`e` (BSD syntax, alone or in a cluster: `eww`, `auxe`)", Effect.ENVIRON, "procps"),
                new TableRow("`-E` (also `E` as the first argument)", Effect.ENVIRON, "macOS"),
                new TableRow("`-o`, `-O`, `o`, `O`, `--format` with a column naming `env` (`environ`)",
                        Effect.ENVIRON, "procps, macOS"));
    }
}
