package dev.aii.policy.guard;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FakeDisk;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import dev.aii.policy.Seeded;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * No harmless form asks: commands built from each table's own vocabulary,
 * every option one its table does not guard (negations included), in the
 * spelling its dialect reads, with harmless values (an existing file, a
 * number, a word), run unasked under a bare rule for their program.
 */
class BenignFormsTest {

    /** Tables that guard every use with arguments (split writes its pieces), or read operands as guarded forms. */
    private static final Set<String> NO_OPERANDS = Set.of("date", "gdate", "uniq", "guniq", "xxd", "gzip", "gunzip",
            "git", "uname", "guname", "whoami", "gwhoami", "uptime", "guptime", "pwd", "gpwd", "ps", "sw_vers",
            "base64", "gbase64", "tar", "gtar", "bsdtar", "find", "gfind", "jq", "diff", "gdiff", "man");
    // rgrep is grep -r, which BSD grep reads FIFOs under without -D skip (rgrep -D skip runs).
    private static final Set<String> GUARDS_EVERY_USE = Set.of("split", "gsplit", "rgrep");

    record Case(String program, List<String> arguments) {
    }

    private static final List<String> VALUES = List.of("README.md", "3", "notes.md", "x");

    static Case draw(SplittableRandom r) {
        List<String> programs = new ArrayList<>(ArgumentGuards.programs());
        programs.removeAll(GUARDS_EVERY_USE);
        String program = programs.get(r.nextInt(programs.size()));
        Vocabulary v = ArgumentGuards.vocabulary(program).orElseThrow();
        List<String> args = new ArrayList<>();
        if (!v.subcommands().isEmpty()) {
            List<String> subs = new ArrayList<>(v.subcommands().keySet());
            String sub = subs.get(r.nextInt(subs.size()));
            args.add(sub);
            v = v.subcommands().get(sub);
        }
        // A dialect that acts on options it does not know asks for any other's: words all such dialects know.
        Vocabulary.Dialect d = v.dialects().get(r.nextInt(v.dialects().size()));
        Set<String> everyActing = null;
        for (Vocabulary.Dialect other : v.dialects()) {
            if (!other.stopsOnError()) {
                d = other;
                Set<String> known = new java.util.HashSet<>();
                other.words().forEach(w -> known.add(w.spelling()));
                if (everyActing == null) {
                    everyActing = known;
                } else {
                    everyActing.retainAll(known);
                }
            }
        }
        // A spelling any dialect guards asks, whichever dialect the command was meant for.
        if (program.equals("ps")) {
            // procps reads a command again as BSD options when a UNIX letter is one it does not know (-x).
            d = v.dialects().getFirst();
        }
        // So does one another dialect reads with another value (base64 -i: a flag in GNU, macOS's input file),
        // and one that names a path in any dialect gets an existing file.
        Set<String> guardedAnywhere = new java.util.HashSet<>();
        Set<String> pathAnywhere = new java.util.HashSet<>();
        java.util.Map<String, Vocabulary.Takes> takes = new java.util.HashMap<>();
        for (Vocabulary.Dialect other : v.dialects()) {
            for (Vocabulary.Word w : other.words()) {
                if (w.guarded() || (takes.containsKey(w.spelling()) && takes.get(w.spelling()) != w.takes())) {
                    guardedAnywhere.add(w.spelling());
                }
                takes.put(w.spelling(), w.takes());
                if (w.path() != null) {
                    pathAnywhere.add(w.spelling());
                }
            }
        }
        List<Vocabulary.Word> harmless = new ArrayList<>();
        for (Vocabulary.Word w : d.words()) {
            // ps's values may name users that do not exist, which makes procps read everything again.
            boolean psValue = program.equals("ps") && w.takes() != Vocabulary.Takes.NONE;
            boolean help = w.spelling().contains("help") || w.spelling().equals("-h") || w.spelling().equals("-?");
            if (!guardedAnywhere.contains(w.spelling()) && !psValue && !help && !w.spelling().equals("--")
                    && !isOperator(program, w) && (everyActing == null || everyActing.contains(w.spelling()))) {
                harmless.add(w);
            }
        }
        for (int i = harmless.isEmpty() ? 0 : r.nextInt(4); i > 0; i--) {
            Vocabulary.Word w = harmless.get(r.nextInt(harmless.size()));
            String value = pathAnywhere.contains(w.spelling()) ? "README.md" : VALUES.get(r.nextInt(VALUES.size()));
            switch (w.takes()) {
                case NONE -> args.add(w.spelling());
                case OPTIONAL -> args.add(w.spelling().startsWith("--") ? w.spelling() + "=" + value : w.spelling());
                case REQUIRED -> {
                    args.add(w.spelling());
                    args.add(value);
                }
                case TWO -> {
                    args.add(w.spelling());
                    args.add(value);
                    args.add(value);
                }
                default -> throw new AssertionError(w);
            }
        }
        if (!NO_OPERANDS.contains(program) && r.nextBoolean()) {
            args.add(r.nextBoolean() ? "README.md" : "notes.md");
        }
        return new Case(program, args);
    }

    /** find's operators, and its options that go before the starting points, are not primaries to add. */
    private static boolean isOperator(String program, Vocabulary.Word w) {
        return program.endsWith("find") && Set.of("(", ")", "!", ",", "-H", "-L", "-P", "-E", "-X", "-s", "-x",
                "-O3", "-D", "-f").contains(w.spelling());
    }

    @Test
    void everyHarmlessFormOfEveryTableRunsUnasked() {
        Seeded.forAll(4000, BenignFormsTest::draw, c -> {
            ExecPolicy policy = ExecPolicy.of(RuleSet.of(List.of(Rule.of(c.program()))),
                    new dev.aii.policy.Environment("/usr/bin", FakeDisk.HOME, new EveryProgram()));
            Decision d = policy.evaluate(c.program(), c.arguments());
            assertInstanceOf(Decision.Allow.class, d, () -> c + " asks: " + d);
        });
    }

    @Test
    void theHarmlessFormsTheIssueNamesRunUnasked() {
        ExecPolicy policy = ExecPolicy.of(RuleSet.of(List.of(Rule.of("git"), Rule.of("tail"))),
                new dev.aii.policy.Environment("/usr/bin", FakeDisk.HOME, new EveryProgram()));
        for (List<String> argv : List.of(List.of("git", "status", "--no-ahead-behind"),
                List.of("git", "status", "--no-renames"), List.of("git", "branch", "--no-merged"),
                List.of("git", "branch", "--no-merged", "main"), List.of("git", "branch", "--no-contains", "v1"),
                List.of("git", "branch", "--no-color"), List.of("git", "status", "--no-ahead"),
                List.of("git", "log", "--no-merges", "--no-color"), List.of("tail", "--", "-f"),
                List.of("tail", "-n", "5", "--", "-f"))) {
            Decision d = policy.evaluate(argv.getFirst(), argv.subList(1, argv.size()));
            assertInstanceOf(Decision.Allow.class, d, () -> argv + " asks: " + d);
        }
    }

    /** FakeDisk, with every program a regular file in /usr/bin. */
    private static final class EveryProgram implements dev.aii.policy.FileProbe {
        private final FakeDisk disk = new FakeDisk();

        @Override
        public boolean isExecutableRegularFile(String absolutePath) {
            return absolutePath.startsWith("/usr/bin/");
        }

        @Override
        public Target target(String absolutePath) {
            return absolutePath.startsWith("/usr/bin/") ? new Target(Kind.REGULAR_FILE, absolutePath)
                    : disk.target(absolutePath);
        }
    }
}
