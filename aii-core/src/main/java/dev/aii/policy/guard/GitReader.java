package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The guard table of {@code git}: its global options, then one table per
 * subcommand aii knows (the ones that only read). A subcommand without a
 * table (an alias among them, which the configuration may make run a shell)
 * asks. What a repository's configuration can make git run is turned off by
 * the environment aii gives git under a rule, not here.
 */
final class GitReader implements ProgramReader {

    /** Global options without a value. */
    private static final Set<String> GLOBAL_FLAGS = Set.of("-p", "--paginate", "-P", "--no-pager",
            "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks", "--bare", "--literal-pathspecs",
            "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-advice", "--html-path",
            "--man-path", "--info-path", "--version", "-v");

    /** Global options with a value, attached with {@code =} or in the next argument. */
    private static final Set<String> GLOBAL_VALUES = Set.of("--git-dir", "--work-tree", "--namespace",
            "--super-prefix", "--attr-source", "--list-cmds");

    private final Map<String, ProgramReader> subcommands = new LinkedHashMap<>();

    GitReader() {
        subcommands.putAll(GitSubcommands.tables());
    }

    @Override
    public void read(List<String> args, GuardHits out) {
        // Where git resolves relative paths: each -C changes directory from the one before.
        String base = "";
        List<String> workTrees = new ArrayList<>();
        int i = 0;
        while (i < args.size()) {
            String a = args.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (a.equals("-C")) {
                if (i + 1 >= args.size()) {
                    out.rejected(i);
                    return;
                }
                String dir = args.get(i + 1);
                out.pathAt(base, i, dir);
                base = dir.isEmpty() ? base : dir.startsWith("/") || base.isEmpty() ? dir : base + "/" + dir;
                i += 2;
            } else if (a.equals("-c") || name.equals("--config-env")) {
                out.effect(i, "runs what the configuration it sets names");
                i += a.contains("=") ? 1 : 2;
            } else if (name.equals("--exec-path")) {
                if (a.contains("=")) {
                    out.effect(i, Effect.EXEC);
                }
                i++;
            } else if (GLOBAL_VALUES.contains(name)) {
                String value = a.contains("=") ? a.substring(a.indexOf('=') + 1)
                        : i + 1 < args.size() ? args.get(++i) : "";
                out.pathAt(base, i, value);
                if (name.equals("--work-tree") && !value.isEmpty()) {
                    workTrees.add(value);
                }
                i++;
            } else if (a.equals("--help") || a.equals("-h")) {
                out.effect(i, Effect.EXEC);
                i++;
            } else if (GLOBAL_FLAGS.contains(a)) {
                i++;
            } else if (a.startsWith("-")) {
                out.unknown(i, a);
                return;
            } else {
                break;
            }
        }
        if (i >= args.size()) {
            return;
        }
        String sub = args.get(i);
        ProgramReader reader = subcommands.get(sub);
        if (reader == null) {
            out.hit(i, GitSubcommands.noTable(sub) + (sub.equals("help") ? " (it starts a manual viewer)" : ""));
            return;
        }
        GuardHits inner = out.at(base, workTrees);
        List<String> rest = args.subList(i + 1, args.size());
        reader.read(rest, inner);
        List<Integer> from = new ArrayList<>();
        for (int k = i + 1; k < args.size(); k++) {
            from.add(k);
        }
        out.addAll(inner, from);
    }

    @Override
    public Vocabulary vocabulary() {
        List<Vocabulary.Word> words = new ArrayList<>();
        GLOBAL_FLAGS.stream().sorted().forEach(f -> words.add(new Vocabulary.Word(f, Vocabulary.Takes.NONE, null,
                false)));
        GLOBAL_VALUES.stream().sorted().forEach(f -> words.add(new Vocabulary.Word(f, Vocabulary.Takes.REQUIRED,
                null, false)));
        words.add(new Vocabulary.Word("-C", Vocabulary.Takes.REQUIRED, null, false));
        words.add(new Vocabulary.Word("-c", Vocabulary.Takes.REQUIRED, null, true));
        words.add(new Vocabulary.Word("--config-env", Vocabulary.Takes.REQUIRED, null, true));
        words.add(new Vocabulary.Word("--exec-path", Vocabulary.Takes.OPTIONAL, null, true));
        words.add(new Vocabulary.Word("--help", Vocabulary.Takes.NONE, null, true));
        words.add(new Vocabulary.Word("-h", Vocabulary.Takes.NONE, null, true));
        Map<String, Vocabulary> subs = new LinkedHashMap<>();
        subcommands.forEach((name, reader) -> subs.put(name, reader.vocabulary()));
        return new Vocabulary(List.of(new Vocabulary.Dialect("git (global)", words, null, false, true)), subs);
    }

    @Override
    public List<TableRow> rows() {
        List<TableRow> rows = new ArrayList<>();
        rows.add(new TableRow("`-c NAME=VALUE`, `--config-env=NAME=ENV`", Effect.EXEC, "git (global)"));
        rows.add(new TableRow("`--exec-path=PATH`", Effect.EXEC, "git (global)"));
        rows.add(new TableRow("`--help`, `-h` (global or after a subcommand), `help`", Effect.EXEC, "git"));
        rows.add(new TableRow("any subcommand but " + String.join(", ", subcommands.keySet())
                + " (aliases included)", Effect.EXEC, "git"));
        Map<ProgramReader, List<String>> names = new LinkedHashMap<>();
        subcommands.forEach((sub, reader) -> names.computeIfAbsent(reader, r -> new ArrayList<>()).add(sub));
        names.forEach((reader, subs) -> {
            for (TableRow row : reader.rows()) {
                if (!row.forms().contains("--help`")) {
                    rows.add(new TableRow(row.forms(), row.effect(), "git " + String.join(", ", subs)));
                }
            }
        });
        return rows;
    }

}
