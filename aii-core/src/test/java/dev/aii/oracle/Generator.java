package dev.aii.oracle;

import dev.aii.policy.guard.PathValue;
import dev.aii.policy.guard.Vocabulary;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Builds argument lists from a guard table's own vocabulary: its options in
 * every spelling a reader accepts (clusters, attached values, {@code =},
 * unique and ambiguous abbreviations, negations, options after operands and
 * after {@code --}), values and operands drawn from the scratch directory's
 * hostile and harmless values, and for lists the list forms of them.
 */
final class Generator {

    private final List<String> values;
    private final List<String> paths;

    Generator(List<String> values) {
        this.values = List.copyOf(values);
        List<String> p = new ArrayList<>();
        for (String v : values) {
            if (v.contains("/") || v.contains(".") || v.equals("fifo") || v.equals("tty") || v.equals("zero")
                    || v.equals("env") || v.equals("up") || v.equals("nul") || v.equals("sub") || v.startsWith("-")) {
                p.add(v);
            }
        }
        this.paths = List.copyOf(p);
    }

    /** Arguments for a program with this vocabulary; for git a subcommand and its options most of the time. */
    List<String> arguments(Vocabulary vocabulary, SplittableRandom r) {
        List<String> args = new ArrayList<>();
        if (!vocabulary.subcommands().isEmpty()) {
            // Global options first (as git reads them), then a subcommand, its options and operands.
            int globals = r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0;
            args.addAll(options(vocabulary.dialects().get(0), globals, r, false));
            List<String> names = new ArrayList<>(vocabulary.subcommands().keySet());
            if (r.nextInt(12) == 0) {
                args.add(oneOf(r, List.of("stash", "worktree", "reflog", "config", "remote", "help", "am", "lol")));
                args.add(oneOf(r, List.of("drop", "write", "list", "show", "delete", "expire", "add", "foo")));
                return args;
            }
            String sub = names.get(r.nextInt(names.size()));
            args.add(sub);
            args.addAll(arguments(vocabulary.subcommands().get(sub), r));
            return args;
        }
        Vocabulary.Dialect d = vocabulary.dialects().get(r.nextInt(vocabulary.dialects().size()));
        List<String> options = options(d, r.nextInt(5), r, true);
        List<String> operands = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            operands.add(value(r));
        }
        int shape = r.nextInt(10);
        if (shape < 6 || !d.permutes()) {
            args.addAll(options);
            if (r.nextInt(5) == 0) {
                args.add("--");
            }
            args.addAll(operands);
        } else if (shape < 9) {
            args.addAll(operands);
            args.addAll(options);
        } else {
            args.addAll(options);
            args.add("--");
            args.addAll(operands);
            args.add(oneOf(r, List.of("-f", "-n", "--output=x", "-1f")));
        }
        return args;
    }

    /** {@code count} options of {@code d}, each spelled one of the ways its reader accepts. */
    List<String> options(Vocabulary.Dialect d, int count, SplittableRandom r, boolean cluster) {
        List<String> out = new ArrayList<>();
        if (d.words().isEmpty()) {
            return out;
        }
        for (int i = 0; i < count; i++) {
            Vocabulary.Word w = d.words().get(r.nextInt(d.words().size()));
            String s = w.spelling();
            boolean isLong = s.startsWith("--");
            boolean isLetter = d.clusterPrefix() != null && s.length() == d.clusterPrefix().length() + 1;
            if (isLong && r.nextInt(4) == 0 && s.length() > 4) {
                // An abbreviation: unique or not, the reader decides.
                s = s.substring(0, 3 + r.nextInt(s.length() - 3));
            }
            if (isLetter && cluster && w.takes() == Vocabulary.Takes.NONE && r.nextInt(3) == 0) {
                Vocabulary.Word next = d.words().get(r.nextInt(d.words().size()));
                if (next.spelling().length() == s.length()) {
                    s = s + next.spelling().substring(d.clusterPrefix().length());
                    if (next.takes() == Vocabulary.Takes.REQUIRED) {
                        w = next;
                    }
                }
            }
            switch (w.takes()) {
                case NONE -> out.add(s);
                case OPTIONAL -> out.add(r.nextBoolean() ? s : s + (isLong ? "=" : "") + value(w, r));
                case REQUIRED -> {
                    String v = value(w, r);
                    int how = r.nextInt(3);
                    if (how == 0 && isLong) {
                        out.add(s + "=" + v);
                    } else if (how == 0 && isLetter) {
                        out.add(s + v);
                    } else {
                        out.add(s);
                        out.add(v);
                    }
                }
                case TWO -> {
                    out.add(s);
                    out.add(value(w, r));
                    out.add(value(r));
                }
                default -> throw new AssertionError(w.takes());
            }
        }
        return out;
    }

    private String value(Vocabulary.Word w, SplittableRandom r) {
        if (w.path() == null || r.nextInt(4) == 0) {
            return value(r);
        }
        if (w.path().kind() == PathValue.Kind.LIST && r.nextBoolean()) {
            String sep = w.path().separators().substring(0, 1);
            return oneOf(r, paths) + sep + oneOf(r, paths);
        }
        return oneOf(r, paths);
    }

    String value(SplittableRandom r) {
        return oneOf(r, values);
    }

    static <T> T oneOf(SplittableRandom r, List<T> from) {
        return from.get(r.nextInt(from.size()));
    }
}
