package dev.aii.policy.guard;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every guard table, by program name. Homebrew's GNU tools under their
 * {@code g} names ({@code gls}, {@code gtar}, {@code ggrep}) use the same
 * tables, and so does {@code bsdtar}.
 */
final class GuardTables {

    private final Map<String, ProgramReader> readers;

    private GuardTables(Map<String, ProgramReader> readers) {
        this.readers = Map.copyOf(readers);
    }

    /** The tables; built once per policy class, immutable afterwards. */
    static final GuardTables ALL = build();

    private static GuardTables build() {
        Map<String, ProgramReader> tables = new HashMap<>();
        DefaultTables.addTo(tables);
        ToolTables.addTo(tables);
        // start-up idiom: lambdas, not method references (DEVELOPERS.md)
        tables.put("tar", new DeferredReader(() -> new TarReader()));
        tables.put("find", new DeferredReader(() -> new FindReader()));
        tables.put("xxd", new DeferredReader(() -> new XxdReader()));
        tables.put("git", new DeferredReader(() -> new GitReader()));
        Map<String, ProgramReader> aliases = new HashMap<>();
        for (String gnu : List.of("ls", "cat", "head", "tail", "wc", "date", "whoami", "uname", "pwd", "df", "du",
                "stat", "sort", "uniq", "split", "base64", "diff", "cmp", "comm", "nl", "od", "cut", "paste", "tr",
                "grep", "tar", "find", "uptime")) {
            aliases.put("g" + gnu, tables.get(gnu));
        }
        aliases.put("bsdtar", tables.get("tar"));
        // Debian's rgrep is grep -r: its operands are read recursively.
        aliases.put("rgrep", new PrefixedReader(tables.get("grep"), List.of("-r")));
        aliases.put("egrep", tables.get("grep"));
        aliases.put("fgrep", tables.get("grep"));
        tables.putAll(aliases);
        return new GuardTables(tables);
    }

    /** The reader of {@code program}, or null when it has no table. */
    ProgramReader reader(String program) {
        return readers.get(program);
    }

    /** The programs with a table, by name. */
    Map<String, ProgramReader> readers() {
        return readers;
    }
}
