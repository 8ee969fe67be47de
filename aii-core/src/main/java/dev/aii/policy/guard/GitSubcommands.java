package dev.aii.policy.guard;

import dev.aii.policy.Render;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The tables of the git subcommands aii reads (the ones that only read, and
 * config, branch, reflog and remote for their reading forms), with what
 * each guards: log's and diff's options with --output, --ext-diff and
 * --textconv, branch's writing forms, config's setting ones, and every way
 * back into submodules.
 */
final class GitSubcommands {

    private static final String[] DIFF = {
        "patch=p", "no-patch=s", "unified=U::", "output:", "output-indicator-new:", "output-indicator-old:",
        "output-indicator-context:", "raw", "patch-with-raw", "indent-heuristic", "minimal", "patience",
        "histogram", "anchored:", "diff-algorithm:", "stat::", "stat-width:", "stat-name-width:",
        "stat-graph-width:", "stat-count:", "compact-summary", "numstat", "shortstat", "dirstat=X::",
        "cumulative", "dirstat-by-file::", "summary", "patch-with-stat", "name-only", "name-status",
        "submodule::", "color::", "color-moved::", "color-moved-ws:", "word-diff::", "word-diff-regex:",
        "color-words::", "renames", "rename-empty", "check", "ws-error-highlight:", "full-index", "binary",
        "abbrev::", "break-rewrites=B::", "find-renames=M::", "find-copies=C::", "find-copies-harder",
        "irreversible-delete=D", "diff-filter:", "find-object:", "pickaxe-all", "pickaxe-regex",
        "skip-to:", "rotate-to:", "relative::", "text=a", "ignore-cr-at-eol", "ignore-space-at-eol",
        "ignore-space-change=b", "ignore-all-space=w", "ignore-blank-lines", "ignore-matching-lines=I:",
        "inter-hunk-context:", "function-context=W", "exit-code", "quiet", "ext-diff", "textconv",
        "ignore-submodules::", "src-prefix:", "dst-prefix:", "prefix", "default-prefix", "line-prefix:",
        "ita-invisible-in-index", "ita-visible-in-index", "help", "color-moved-ws:", "follow", "merge-base",
        "cached", "staged", "no-index", "base", "ours", "theirs", "combined-all-paths", "cc", "dd",
        "remerge-diff", "diff-merges:", "no-diff-merges"
    };

    private static final String[] REVISIONS = {
        "decorate::", "decorate-refs:", "decorate-refs-exclude:", "clear-decorations", "source", "mailmap",
        "use-mailmap", "full-diff", "log-size", "max-count=n:", "skip:", "since:", "after:", "since-as-filter:",
        "until:", "before:", "author:", "committer:", "grep-reflog:", "grep:", "all-match", "invert-grep",
        "regexp-ignore-case=i", "basic-regexp", "extended-regexp=E", "fixed-strings=F", "perl-regexp=P",
        "remove-empty", "merges", "min-parents:", "max-parents:", "first-parent", "exclude-first-parent-only",
        "not", "all", "branches::", "tags::", "remotes::", "glob:", "exclude:", "exclude-hidden:", "reflog",
        "alternate-refs", "single-worktree", "ignore-missing", "bisect", "stdin", "cherry-mark", "cherry-pick",
        "left-only", "right-only", "cherry", "walk-reflogs=g", "merge", "boundary", "simplify-by-decoration",
        "show-pulls", "full-history", "dense", "sparse", "simplify-merges", "ancestry-path::", "date-order",
        "author-date-order", "topo-order", "reverse", "walk::", "do-walk", "pretty::", "format:",
        "abbrev-commit", "oneline", "encoding:", "expand-tabs::", "notes::", "show-notes::", "standard-notes",
        "show-signature", "relative-date", "date:", "parents", "children", "left-right", "graph",
        "show-linear-break::", "count", "objects", "objects-edge", "unpacked", "timestamp", "header",
        "no-walk::", "in-commit-order", "no-object-names", "object-names", "filter:", "missing:", "indexed-objects",
        "quiet=q", "show-origin"
    };

    /** What a git that recurses into submodules can do: their own configuration can make it run programs. */
    static final String RECURSES = "runs git in each submodule, whose own configuration can run programs";

    private static final String SUBMODULES = "when its value is not all (" + RECURSES + ")";
    private static final String SUBMODULE_DIFF = "when its value is diff (" + RECURSES + ")";

    private static final String CHECKS_SIGNATURES = "checks signatures, which runs gpg";

    /** A format that shows a signature ({@code %G?}, {@code %GK}, ...) or ref-filter's {@code %(signature)}. */
    static boolean signs(String format) {
        return format.contains("%G") || format.contains("%(signature");
    }

    private static final String LOG_SHORTS = "pusU::X::B::M::C::Dl:S:G:O:RaI:Wn:0123456789iEFPgcmtzL:qh";

    private GitSubcommands() {
    }

    /** Each subcommand git's table reads, with its table, in the order docs/exec.md lists them. */
    static Map<String, ProgramReader> tables() {
        Map<String, ProgramReader> subcommands = new LinkedHashMap<>();
        // The three tables of log's options (some 300, each with its negation) are built when first needed.
        ProgramReader logLike = new DeferredReader(() -> new GetoptTable("git log",
                List.of(logTable("git log, show, whatchanged, rev-list", concat(DIFF, REVISIONS)))));
        for (String sub : List.of("log", "show", "whatchanged", "rev-list", "diff")) {
            subcommands.put(sub, logLike);
        }
        subcommands.put("status", table("git status", gitImpl("sbuz::vM::h",
                "short=s", "branch=b", "show-stash", "porcelain::", "long", "verbose=v", "untracked-files=u::",
                "ignore-submodules::", "ignored::", "column::", "ahead-behind", "renames", "find-renames=M::",
                "null=z", "help")
                .guard(Effect.EXEC, "--help")
                .guardWhen(Effect.EXEC, "--ignore-submodules", SUBMODULES, v -> !v.equals("all"))));
        subcommands.put("branch", table("git branch", gitImpl("arlvqdDmMcCfitu:h",
                "all=a", "remotes=r", "list=l", "verbose=v", "quiet=q", "abbrev::", "column::", "sort:",
                "merged::", "no-merged::", "contains::", "no-contains::", "points-at:", "format:", "color::",
                "ignore-case=i",
                "omit-empty", "show-current", "create-reflog", "recurse-submodules", "track=t::",
                "set-upstream-to=u:", "unset-upstream", "delete=d", "move=m", "copy=c", "force=f",
                "edit-description", "help")
                .guard(Effect.WRITE, "d", "D", "m", "M", "c", "C", "f", "t", "u", "--create-reflog",
                        "--unset-upstream")
                .guard(Effect.EXEC, "--edit-description", "--help")
                .guardWhen(Effect.EXEC, "--format", "when it shows a signature (%(signature))", GitSubcommands::signs)
                .guardSaying(Effect.EXEC, RECURSES, "--recurse-submodules")
                .operands("a branch name without --list (it creates the branch)", Effect.WRITE,
                        GitSubcommands::createsBranch)));
        subcommands.put("ls-files", table("git ls-files", gitImpl("cdmoiskuzx:X:tvfh",
                "cached=c", "deleted=d", "modified=m", "others=o", "ignored=i", "stage=s", "killed=k",
                "unmerged=u", "exclude=x:", "exclude-from=X:", "exclude-per-directory:", "exclude-standard",
                "error-unmatch", "with-tree:", "full-name", "recurse-submodules", "abbrev::", "debug", "eol",
                "deduplicate", "directory", "empty-directory", "sparse", "format:", "resolve-undo", "help")
                .guard(Effect.EXEC, "--help")
                .guardSaying(Effect.EXEC, RECURSES, "--recurse-submodules")
                .guardSaying(Effect.LIST, "reads a file of that name in every directory, which aii does not see",
                        "--exclude-per-directory")
                .paths(PathValue.FROM_TOP, "X")));
        subcommands.put("blame", table("git blame", gitImpl("btS:pL:lM::C::fnseswch",
                "root", "show-stats", "porcelain=p", "line-porcelain", "incremental", "encoding:",
                "contents:", "date:", "progress", "ignore-rev:", "ignore-revs-file:", "color-lines",
                "color-by-age", "score-debug", "show-name=f", "show-number=n", "show-email=e", "abbrev::",
                "minimal", "reverse", "first-parent", "textconv", "help")
                .guard(Effect.EXEC, "--textconv", "--help")
                .paths(PathValue.FROM_TOP, "S", "--contents", "--ignore-revs-file")));
        // shortlog reads the revision and diff options too (setup_revisions), --output among them.
        subcommands.put("shortlog", new DeferredReader(() -> table("git shortlog", logTable("git shortlog",
                concat(concat(DIFF, REVISIONS), new String[] {"numbered", "summary", "email", "committer", "group:",
                    "format:", "help"}), "nsecw::"))));
        subcommands.put("ls-tree", table("git ls-tree", gitImpl("drtlzh",
                "long=l", "name-only", "name-status", "object-only", "full-name", "full-tree", "abbrev::",
                "format:", "help").guard(Effect.EXEC, "--help")));
        subcommands.put("cat-file", table("git cat-file", gitImpl("tsepZh",
                "textconv", "filters", "path:", "batch::", "batch-check::", "batch-command::",
                "batch-all-objects", "buffer", "unordered", "follow-symlinks", "allow-unknown-type",
                "use-mailmap", "mailmap", "help")
                .guard(Effect.EXEC, "--textconv", "--filters", "--help")));
        subcommands.put("grep", table("git grep", gitImplInOrder("aiIvwzclLEGFPnhHoqe:f:A:B:C:WpO::m:0123456789",
                "cached", "no-index", "untracked", "exclude-standard", "recurse-submodules",
                "text=a", "textconv", "ignore-case=i", "max-depth:", "word-regexp=w", "invert-match=v",
                "full-name", "extended-regexp=E", "basic-regexp=G", "perl-regexp=P", "fixed-strings=F",
                "line-number=n", "column", "files-with-matches=l", "name-only=l",
                "files-without-match=L", "open-files-in-pager=O::", "null=z", "only-matching=o", "count=c",
                "color::", "break", "heading", "show-function=p", "context=C:", "after-context=A:",
                "before-context=B:", "function-context=W", "threads:", "all-match", "and", "or", "not",
                "quiet=q", "max-count=m:", "help")
                .guard(Effect.EXEC, "O", "--textconv", "--help")
                .guardSaying(Effect.EXEC, RECURSES, "--recurse-submodules")
                .paths(PathValue.FROM_TOP, "f")));
        subcommands.put("describe", table("git describe", gitImpl("h",
                "contains", "debug", "all", "tags", "long", "abbrev::", "exact-match", "candidates:",
                "match:", "exclude:", "always", "first-parent", "dirty::", "broken::", "help")
                .guard(Effect.EXEC, "--help")
                .guardSaying(Effect.WRITE, "refreshes the index, which writes it", "--dirty")
                .guardSaying(Effect.EXEC, "runs git again, as aii cannot read it", "--broken")));
        subcommands.put("reflog", new DeferredReader(() -> {
            Implementation reflog = logTable("git reflog", concat(DIFF, REVISIONS));
            reflog.operands("a first word but show, exists, list (a subcommand aii has no table for, or a ref: "
                    + "spell it show REF)", Effect.EXEC, onlySubcommands("reflog", REFLOG_WORDS));
            reflog.operands("expire or delete (it rewrites the reflog)", Effect.WRITE, (parsed, arguments, out) -> {
                if (!parsed.operands().isEmpty()
                        && List.of("expire", "delete").contains(parsed.operands().get(0).value())) {
                    out.effect(parsed.operands().get(0).index(), Effect.WRITE);
                }
            });
            return table("git reflog", reflog);
        }));
        subcommands.put("remote", table("git remote", gitImplInOrder("vh", "verbose=v")
                .operands("any subcommand but get-url (they change remotes or reach the network)", Effect.WRITE,
                        (parsed, arguments, out) -> {
                            if (!parsed.operands().isEmpty()
                                    && !parsed.operands().get(0).value().equals("get-url")) {
                                out.effect(parsed.operands().get(0).index(), Effect.WRITE);
                            }
                        })));
        subcommands.put("config", table("git config", gitImplInOrder("lzf:eh",
                "get", "get-all", "get-regexp", "get-urlmatch", "list=l", "show-origin", "show-scope", "name-only",
                "null=z", "global", "system", "local", "worktree", "file=f:", "blob:", "type:", "bool", "int",
                "bool-or-int", "path", "expiry-date", "includes", "default:", "add", "unset", "unset-all",
                "replace-all", "rename-section", "remove-section", "edit=e", "fixed-value")
                .guard(Effect.WRITE, "--add", "--unset", "--unset-all", "--replace-all", "--rename-section",
                        "--remove-section")
                .guard(Effect.EXEC, "e")
                .guard(Effect.LIST, "--includes")
                .paths(PathValue.FROM_TOP, "f")
                .operands("a name and a value, or set, unset, rename-section, remove-section, edit",
                        Effect.WRITE, GitSubcommands::setsConfig)
                .operands("a first word without a dot but list, get, set, unset, rename-section, remove-section, "
                        + "edit (a subcommand aii has no table for)", Effect.EXEC,
                        onlySubcommands("config", CONFIG_WORDS))));
        subcommands.put("rev-parse", new AnyArguments());
        subcommands.put("version", table("git version", gitImpl("h", "build-options")));
        return subcommands;
    }

    private static Implementation logTable(String name, String[] longs) {
        return logTable(name, longs, LOG_SHORTS);
    }

    private static Implementation logTable(String name, String[] longs, String shorts) {
        Implementation impl = new Implementation(
                OptionSyntax.of(name, shorts, true, true, longs).withNegations());
        if (impl.syntax().knows("--output")) {
            impl.guard(Effect.WRITE, "--output").guard(Effect.EXEC, "--ext-diff", "--textconv")
                    .guardWhen(Effect.EXEC, "--submodule", SUBMODULE_DIFF, v -> v.equals("diff"))
                    .guardWhen(Effect.EXEC, "--ignore-submodules", SUBMODULES, v -> !v.equals("all"));
        }
        if (impl.syntax().knows("O")) {
            // diff's -O<orderfile>, a file read from the current directory.
            impl.paths(PathValue.ONE, "O");
        }
        if (impl.syntax().knows("--show-signature")) {
            // Checking a signature runs gpg (or gpgsm, ssh-keygen), with the user's keys and trust database.
            impl.guardSaying(Effect.EXEC, CHECKS_SIGNATURES, "--show-signature")
                    .guardWhen(Effect.EXEC, "--pretty", "when it shows a signature (%G)", GitSubcommands::signs)
                    .guardWhen(Effect.EXEC, "--format", "when it shows a signature (%G)", GitSubcommands::signs);
        }
        return impl.guard(Effect.EXEC, "--help");
    }

    /** A subcommand's options: getopt_long's reading with git's negations ({@code --no-renames}). */
    private static Implementation gitImpl(String shorts, String... longs) {
        return Implementation.negatable("git", shorts, true, true, longs);
    }

    /**
     * A subcommand that stops reading options at its first operand (git's
     * {@code PARSE_OPT_STOP_AT_NON_OPTION}: config, grep, remote), so that
     * {@code git config a.b --worktree} sets a.b to {@code --worktree}.
     */
    private static Implementation gitImplInOrder(String shorts, String... longs) {
        return Implementation.negatable("git", shorts, false, true, longs);
    }

    private static GetoptTable table(String name, Implementation impl) {
        return new GetoptTable(name, List.of(impl));
    }

    private static String[] concat(String[] a, String[] b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).distinct().toArray(String[]::new);
    }

    /** git config NAME VALUE (and the subcommand forms of git 2.46) write; a name alone, --get and --list read. */
    private static void setsConfig(Getopt.Parsed parsed, List<String> arguments, GuardHits out) {
        List<Getopt.Operand> operands = parsed.operands();
        if (operands.isEmpty()) {
            return;
        }
        Getopt.Operand first = operands.get(0);
        if (List.of("set", "unset", "rename-section", "remove-section", "edit").contains(first.value())) {
            out.effect(first.index(), Effect.WRITE);
            return;
        }
        boolean reading = parsed.has("--get") || parsed.has("--get-all") || parsed.has("--get-regexp")
                || parsed.has("--get-urlmatch") || parsed.has("l") || first.value().equals("get")
                || first.value().equals("list");
        if (!reading && operands.size() >= 2) {
            out.effect(operands.get(1).index(), Effect.WRITE);
        }
    }

    private static void createsBranch(Getopt.Parsed parsed, List<String> arguments, GuardHits out) {
        if (!parsed.operands().isEmpty() && !parsed.has("l") && !parsed.has("--show-current")) {
            boolean listing = parsed.has("a") || parsed.has("r") || parsed.has("--contains")
                    || parsed.has("--merged") || parsed.has("--points-at") || parsed.has("--no-contains")
                    || parsed.has("--no-merged");
            if (!listing) {
                out.effect(parsed.operands().get(0).index(), Effect.WRITE);
            }
        }
    }

    static String noTable(String words) {
        return "aii has no guard table for git " + Render.render(List.of(words));
    }

    /**
     * An operand rule: a first operand that git may take as a subcommand of
     * {@code sub} (lower case letters and dashes) and that is not one of
     * {@code known} asks. {@code git reflog} reads an unknown first word as a
     * ref to show, but newer versions add subcommands ({@code drop},
     * {@code write}) that an older git would show as refs, so a ref like
     * {@code main} asks too (spell it {@code show main}); {@code git config}
     * (2.46) has subcommands where a key always holds a dot.
     */
    private static GetoptTable.OperandRule onlySubcommands(String sub, Set<String> known) {
        return (parsed, arguments, out) -> {
            if (parsed.operands().isEmpty()) {
                return;
            }
            Getopt.Operand first = parsed.operands().get(0);
            boolean afterDashes = first.index() > 0 && arguments.subList(0, first.index()).contains("--");
            if (!afterDashes && first.value().matches("[a-z][a-z-]*") && !known.contains(first.value())) {
                out.hit(first.index(), noTable(sub + " " + first.value()));
            }
        };
    }

    /** What the reflog table reads: showing (the default), asking whether a log exists, listing the logs. */
    private static final Set<String> REFLOG_WORDS = Set.of("show", "exists", "list", "expire", "delete");

    /** What the config table reads: its subcommands of 2.46, each read by {@link #setsConfig}. */
    private static final Set<String> CONFIG_WORDS = Set.of("list", "get", "set", "unset", "rename-section",
            "remove-section", "edit");

    /** A subcommand that only prints what it is given, whatever its options ({@code rev-parse}). */
    private static final class AnyArguments implements ProgramReader {
        @Override
        public void read(List<String> arguments, GuardHits out) {
            for (int i = 0; i < arguments.size(); i++) {
                if (arguments.get(i).equals("--help")) {
                    out.effect(i, Effect.EXEC);
                }
                out.path(i, arguments.get(i), false);
            }
        }

        @Override
        public List<TableRow> rows() {
            return List.of();
        }

        @Override
        public Vocabulary vocabulary() {
            return Vocabulary.of(List.of(new Vocabulary.Dialect("git rev-parse", List.of(), null, true, true)));
        }
    }
}
