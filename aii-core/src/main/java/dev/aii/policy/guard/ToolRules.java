package dev.aii.policy.guard;

/**
 * The operand rules and notes of {@link ToolTables}: what jq's program, a
 * walk of a tree, a directory diff compares, less's first command and
 * gzip's operands can do.
 */
final class ToolRules {

    private ToolRules() {
    }

    /** jq's builtin {@code env} (not the field {@code .env}) and its variable {@code $ENV}. */
    static final java.util.regex.Pattern JQ_ENV = java.util.regex.Pattern.compile(
            "(?<![\\w$.])env(?!\\w)|\\$ENV(?!\\w)");

    /** A jq argument that names the environment: jq's {@code env} and {@code $ENV} show aii's own. */
    static void showsEnvironment(Getopt.Parsed parsed, java.util.List<String> arguments, GuardHits out) {
        for (int i = 0; i < arguments.size(); i++) {
            if (JQ_ENV.matcher(arguments.get(i)).find()) {
                out.effect(i, "can show its environment");
            }
        }
    }

    /**
     * What a walk of a tree does when it follows links (GNU grep -R, gzip -r,
     * rg -L, busybox grep -r): a link inside the tree leads anywhere
     * ({@code /proc}, a device), and a FIFO waits forever. GNU grep -r does
     * neither, and runs; BSD grep -r follows no link, but reads FIFOs.
     */
    static final String FOLLOWS_LINKS = "reads every file below a directory, following links and reading "
            + "FIFOs and devices";

    /** What BSD grep -r does unless told -D skip: it opens the FIFOs and devices it meets, and waits on a FIFO. */
    static final String FIFOS_BELOW = "it reads the FIFOs and devices it finds below a directory";

    /**
     * An operand rule: any of {@code keys} (or {@code -d recurse}) without
     * {@code -D skip} reads the FIFOs and devices below a directory.
     */
    static GetoptTable.OperandRule readsSpecialFilesBelow(String... keys) {
        return (parsed, arguments, out) -> {
            for (Getopt.Occurrence o : parsed.options()) {
                if (o.keys().contains("D") && o.value().orElse("").equals("skip")) {
                    return;
                }
            }
            for (Getopt.Occurrence o : parsed.options()) {
                if (o.keys().contains("d") && o.value().orElse("").equals("recurse")) {
                    out.effect(o.index(), Effect.FOLLOW);
                    return;
                }
                for (String key : keys) {
                    if (o.keys().contains(key)) {
                        out.effect(o.index(), Effect.FOLLOW);
                        return;
                    }
                }
            }
        };
    }

    /**
     * GNU diff given a directory reads the files in it (below it with -r),
     * following their links unless told --no-dereference: a link there leads
     * anywhere, and -N or -P show what it leads to in full.
     */
    static void diffFollowsLinks(Getopt.Parsed parsed, java.util.List<String> arguments, GuardHits out) {
        if (parsed.has("--no-dereference")) {
            return;
        }
        for (Getopt.Operand operand : parsed.operands()) {
            out.pathFollowed(operand.index(), operand.value());
        }
    }

    /** less runs a {@code +} operand as its first command, and a command may be {@code !} (a shell). */
    static void initialCommand(Getopt.Parsed parsed, java.util.List<String> arguments, GuardHits out) {
        for (Getopt.Operand operand : parsed.operands()) {
            if (operand.value().startsWith("+")) {
                out.effect(operand.index(), Effect.EXEC);
            }
        }
    }

    /** gzip and gunzip replace each file operand by its (de)compressed form unless told to write to stdout. */
    static void replacesFiles(Getopt.Parsed parsed, java.util.List<String> arguments, GuardHits out) {
        if (parsed.has("c") || parsed.has("l") || parsed.has("t") || parsed.has("h") || parsed.has("V")
                || parsed.has("L")) {
            return;
        }
        for (Getopt.Operand operand : parsed.operands()) {
            if (!operand.value().equals("-")) {
                out.effect(operand.index(), Effect.WRITE);
            }
        }
    }
}
