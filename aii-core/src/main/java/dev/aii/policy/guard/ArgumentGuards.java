package dev.aii.policy.guard;

import dev.aii.policy.Environment;
import dev.aii.policy.Rule;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Argument forms that make an otherwise harmless command write, run other
 * programs, change the system, wait forever, show other processes'
 * environments, or reach a terminal, device or process file: the guard
 * tables ({@link GuardTables}) and the operand guard ({@link PathGuard}).
 *
 * <p>A command that uses a guarded form is allowed only by a rule whose own
 * tokens spell it out: every hit is at the index of the argument that spells
 * it, and a rule waives the hits inside its argument prefix. So the bare
 * default {@code date} waives nothing, a hand-written {@code date -s} waives
 * {@code date -s 2030-01-01}, and {@code git log} does not waive
 * {@code git log --output=x}. "Always" is never offered for a guarded form,
 * so it never stores one.
 */
public final class ArgumentGuards {

    /** What the guards found in one command: the guarded forms, each at the argument that spells it. */
    public static final class Found {
        private final List<GuardHits.Hit> hits;

        Found(List<GuardHits.Hit> hits) {
            this.hits = List.copyOf(hits);
        }

        /** Whether the command uses no guarded form. */
        public boolean isEmpty() {
            return hits.isEmpty();
        }

        /** Whether {@code rule} spells out every guarded form: its argument prefix reaches past each one. */
        public boolean spelledOutBy(Rule rule) {
            return ArgumentGuards.spelledOutBy(rule, hits);
        }

        /** The notes of the guarded forms, each once, in order. */
        public List<String> reasons() {
            return ArgumentGuards.reasons(hits);
        }

        List<GuardHits.Hit> hits() {
            return hits;
        }
    }

    private ArgumentGuards() {
    }

    /**
     * Builds the tables and reads a sample through one of them and through
     * the path for programs without one; no file is looked at.
     */
    public static void prepare() {
        GuardHits sample = new GuardHits("ls");
        ProgramReader reader = GuardTables.ALL.reader("ls");
        if (reader != null) {
            reader.read(List.of("-la", "--", "."), sample);
        }
        untabled(List.of("-o/x", "k=v", "file:///x"), sample);
    }

    /** Whether {@code program} has a guard table (under its own name or an alias). */
    public static boolean hasTable(String program) {
        return GuardTables.ALL.reader(program) != null;
    }

    /** The programs with a guard table, aliases included ({@code gtail}, {@code bsdtar}), in order. */
    public static java.util.SortedSet<String> programs() {
        return new java.util.TreeSet<>(GuardTables.ALL.readers().keySet());
    }

    /** What the guard table of {@code program} knows of its arguments, when it has one. */
    public static java.util.Optional<Vocabulary> vocabulary(String program) {
        ProgramReader reader = GuardTables.ALL.reader(program);
        return reader == null ? java.util.Optional.empty() : java.util.Optional.of(reader.vocabulary());
    }

    /** What guards {@code program} with {@code arguments} hits, the path probe included. */
    public static Found check(Environment env, String program, List<String> arguments) {
        return new Found(hits(env, program, arguments));
    }

    /** What guards {@code program} with {@code arguments} hits, the path probe included. */
    static List<GuardHits.Hit> hits(Environment env, String program, List<String> arguments) {
        GuardHits out = new GuardHits(program);
        ProgramReader reader = GuardTables.ALL.reader(program);
        if (reader != null) {
            reader.read(arguments, out);
        } else {
            untabled(arguments, out);
        }
        PathGuard.check(env, out);
        return out.hits();
    }

    /**
     * For a program without a table, every string an argument could pass as a
     * path: the argument, the value after {@code =}, after a leading
     * {@code @} or {@code +}, every attached value of a short option
     * cluster ({@code -xf/dev/tty} gives {@code f/dev/tty} and {@code /dev/tty}),
     * and every absolute path after a {@code :}, {@code =}, {@code ,} or
     * {@code @} ({@code file:///dev/tty}, {@code in=a,/dev/tty}).
     */
    static void untabled(List<String> arguments, GuardHits out) {
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            out.path(i, a, false);
            int eq = a.indexOf('=');
            if (eq >= 0) {
                out.path(i, a.substring(eq + 1), false);
            }
            if (a.startsWith("@") || a.startsWith("+")) {
                out.path(i, a.substring(1), false);
            }
            for (int p = a.indexOf('/', 1); p > 0; p = a.indexOf('/', p + 1)) {
                char before = a.charAt(p - 1);
                if (before == ':' || before == '=' || before == ',' || before == '@') {
                    out.path(i, a.substring(p), false);
                }
            }
            if (a.startsWith("-") && !a.startsWith("--")) {
                // Every place a value could start; past 256 characters (no cluster is that long) only at a slash.
                for (int p = 1; p < a.length(); p++) {
                    if (p < 256 || a.charAt(p) == '/') {
                        out.path(i, a.substring(p), false);
                    }
                }
            }
        }
    }

    /** The highest argument index among {@code hits}, or -1 when there is none (or only the program itself). */
    static int lastIndex(List<GuardHits.Hit> hits) {
        int last = -1;
        for (GuardHits.Hit h : hits) {
            last = Math.max(last, h.index());
        }
        return last;
    }

    /** Whether {@code rule} spells out every hit: its argument prefix reaches past each hit's argument. */
    static boolean spelledOutBy(Rule rule, List<GuardHits.Hit> hits) {
        return rule.argumentPrefix().size() > lastIndex(hits);
    }

    /** The hits' reasons, each once, in order. */
    static List<String> reasons(List<GuardHits.Hit> hits) {
        Set<String> reasons = new LinkedHashSet<>();
        for (GuardHits.Hit h : hits) {
            reasons.add(h.reason());
        }
        return new ArrayList<>(reasons);
    }
}
