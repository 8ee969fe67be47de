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
    // No x: procps has no UNIX -x, and reads a command with one again as BSD options (ps -x -e shows environments).
    private static final String PROCPS_UNIX_FLAGS = "AacdefFHjlLMmNPTVwXyZh";
    private static final String PROCPS_UNIX_VALUES = "CGgOopqstUuDk";
    private static final String PROCPS_BSD_FLAGS = "acefghjlLmMnrsSTuvwxXZVC";
    private static final String PROCPS_BSD_VALUES = "OopqtUkN";
    private static final String MACOS_FLAGS = "AaCcEefhjLlMmrSTuvwXx";
    private static final String MACOS_VALUES = "gOopGtU";

    /** procps's format keywords ({@code ps L} of procps-ng 4.0): a format made of these alone is accepted. */
    private static final Set<String> PROCPS_FORMAT = Set.of(("%cpu %mem _left _left2 _right _right2 _unlimited "
            + "_unlimited2 ag_id ag_nice args atime blocked bsdstart bsdtime c caught cgname cgroup cgroupns class "
            + "cls cmd comm command context cp cpuid cputime cputimes cuc cuu drs dsiz egid egroup eip esp etime "
            + "etimes euid euser exe f fgid fgroup flag flags fname fsgid fsgroup fsuid fsuser fuid fuser gid group "
            + "ignored intpri ipcns label lastcpu lim longtname lsession lstart luid lwp lxc m_drs m_size m_trs "
            + "machine maj_flt majflt min_flt minflt mntns netns ni nice nlwp numa oom oomadj opri ouid pagein pcpu "
            + "pending pgid pgrp pid pidns pmem policy ppid pri pri_api pri_bar pri_baz pri_foo priority psr pss "
            + "rbytes rchars rgid rgroup rops rss rssize rsz rtprio ruid ruser s sched seat sess session sgi_p "
            + "sgi_rss sgid sgroup sid sig sig_block sig_catch sig_ignore sig_pend sigcatch sigignore sigmask size "
            + "slice spid stackp start start_stack start_time stat state stime suid supgid supgrp suser svgid "
            + "svgroup svuid svuser sz tgid thcount tid time timens times tname tpgid trs trss tsig tsiz tt tty "
            + "tty4 tty8 ucmd ucomm uid uid_hack uname unit user userns uss util utsns uunit vsize vsz wbytes "
            + "wcbytes wchan wchars wname wops zone").split(" "));

    @Override
    public void read(List<String> arguments, GuardHits out) {
        int procpsError = procps(arguments, out);
        int macosError = macos(arguments, out);
        if (procpsError >= 0 && macosError >= 0) {
            out.rejected(Math.max(procpsError, macosError));
        }
    }

    /**
     * Reads as procps does; returns the index of the first usage error, or
     * -1. procps first reads dashed clusters as UNIX options; when anything
     * in that reading fails (an unknown letter, a user or terminal that does
     * not exist, a format it does not know), it reads every argument again as
     * BSD options, dash or not: {@code ps -auxe} is {@code ps auxe}, which
     * shows environments. aii cannot tell whether a user exists, so unless
     * the UNIX reading cannot fail, the BSD reading counts too.
     */
    private static int procps(List<String> args, GuardHits out) {
        GuardHits unix = out.fresh();
        boolean[] mayFail = {false};
        int error = procpsReading(args, false, unix, mayFail);
        if (error < 0) {
            unix.hits().forEach(h -> out.hit(h.index(), h.reason()));
        }
        if (error < 0 && !mayFail[0]) {
            return -1;
        }
        GuardHits bsd = out.fresh();
        int bsdError = procpsReading(args, true, bsd, new boolean[1]);
        if (bsdError < 0) {
            bsd.hits().forEach(h -> out.hit(h.index(), h.reason()));
            return -1;
        }
        return error < 0 ? -1 : Math.max(error, bsdError);
    }

    /** One procps reading, every dashed cluster read as BSD options when {@code forceBsd}. */
    private static int procpsReading(List<String> args, boolean forceBsd, GuardHits mine, boolean[] mayFail) {
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
                        mayFail[0] |= !cannotFail(name.equals("format") ? 'o' : name.equals("pid") ? 'p' : '?',
                                value);
                        format(name.equals("format"), value, i, mine);
                    }
                } else if (!PROCPS_LONG_FLAG.contains(name)) {
                    error = i;
                }
            } else if (arg.startsWith("-") && !forceBsd) {
                error = cluster(args, i, arg.substring(1), PROCPS_UNIX_FLAGS, PROCPS_UNIX_VALUES, "oO", "", mine,
                        mayFail);
                i = Math.max(i, -error - 2);
                error = error >= 0 ? error : -1;
            } else if (arg.chars().allMatch(c -> (c >= '0' && c <= '9') || c == ',')) {
                continue;
            } else {
                String letters = arg.startsWith("-") ? arg.substring(1) : arg;
                error = cluster(args, i, letters, PROCPS_BSD_FLAGS, PROCPS_BSD_VALUES, "oO", "e", mine, mayFail);
                i = Math.max(i, -error - 2);
                error = error >= 0 ? error : -1;
            }
        }
        return error;
    }

    /** Whether procps accepts the value of {@code letter} whatever the system holds: a known format, a pid list. */
    private static boolean cannotFail(char letter, String value) {
        if (letter == 'o' || letter == 'O') {
            for (String spec : value.split("[, ]")) {
                String keyword = spec.split("[=:]", 2)[0];
                if (!keyword.isEmpty() && !PROCPS_FORMAT.contains(keyword)) {
                    return false;
                }
            }
            return !value.isEmpty();
        }
        if (letter == 'p' || letter == 'q') {
            return value.matches("[0-9]+([, ][0-9]+)*");
        }
        return false;
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
            error = cluster(args, i, arg.substring(1), MACOS_FLAGS, MACOS_VALUES, "oO", "E", mine, new boolean[1]);
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
                               String formats, String environ, GuardHits out, boolean[] mayFail) {
        for (int p = 0; p < letters.length(); p++) {
            char c = letters.charAt(p);
            if (environ.indexOf(c) >= 0) {
                out.effect(index, Effect.ENVIRON);
            }
            if (values.indexOf(c) >= 0) {
                String rest = letters.substring(p + 1);
                if (!rest.isEmpty()) {
                    mayFail[0] |= !cannotFail(c, rest);
                    format(formats.indexOf(c) >= 0, rest, index, out);
                    return -1;
                }
                if (index + 1 >= args.size()) {
                    return index;
                }
                mayFail[0] |= !cannotFail(c, args.get(index + 1));
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
    public Vocabulary vocabulary() {
        return Vocabulary.of(List.of(
                letters("procps (UNIX)", "-", PROCPS_UNIX_FLAGS, PROCPS_UNIX_VALUES, ""),
                letters("procps (BSD)", "", PROCPS_BSD_FLAGS, PROCPS_BSD_VALUES, "e"),
                longWords(),
                letters("macOS", "-", MACOS_FLAGS, MACOS_VALUES, "E")));
    }

    private static Vocabulary.Dialect letters(String name, String dash, String flags, String values, String environ) {
        List<Vocabulary.Word> words = new java.util.ArrayList<>();
        for (char c : flags.toCharArray()) {
            words.add(new Vocabulary.Word(dash + c, Vocabulary.Takes.NONE, null, environ.indexOf(c) >= 0));
        }
        for (char c : values.toCharArray()) {
            words.add(new Vocabulary.Word(dash + c, Vocabulary.Takes.REQUIRED, null, c == 'o' || c == 'O'));
        }
        return new Vocabulary.Dialect(name, words, dash, false, true);
    }

    private static Vocabulary.Dialect longWords() {
        List<Vocabulary.Word> words = new java.util.ArrayList<>();
        PROCPS_LONG_FLAG.stream().sorted().forEach(n -> words.add(
                new Vocabulary.Word("--" + n, Vocabulary.Takes.NONE, null, false)));
        PROCPS_LONG_VALUE.stream().sorted().forEach(n -> words.add(
                new Vocabulary.Word("--" + n, Vocabulary.Takes.REQUIRED, null, n.equals("format"))));
        return new Vocabulary.Dialect("procps (GNU)", words, null, false, true);
    }

    @Override
    public List<TableRow> rows() {
        return List.of(
                new TableRow("`e` (BSD syntax, alone or in a cluster: `eww`, `auxe`)", Effect.ENVIRON, "procps"),
                new TableRow("`e` in a dashed cluster that procps may read again as BSD options (`-auxe`, "
                        + "`-e -u NAME`: a UNIX reading that can fail, by a user or terminal that does not exist)",
                        Effect.ENVIRON, "procps"),
                new TableRow("`-E` (also `E` as the first argument)", Effect.ENVIRON, "macOS"),
                new TableRow("`-o`, `-O`, `o`, `O`, `--format` with a column naming `env` (`environ`)",
                        Effect.ENVIRON, "procps, macOS"));
    }
}
