package dev.aii.oracle;

import dev.aii.policy.Builtins;
import dev.aii.policy.Render;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import dev.aii.policy.guard.ArgumentGuards;
import dev.aii.policy.guard.Vocabulary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The oracle's loop: commands built from the tables' vocabularies are
 * decided by the tool; those it would run unasked are run, in batches, in
 * two sandboxes at once under strace, and their traces judged by
 * {@link Findings}. Two kinds of user are played: one who keeps a bare rule
 * for every program with a table (so that only a guard can make a command
 * ask), and one who has the defaults and answers "always" whenever it is
 * offered, whose stored rules are then extended with more arguments.
 */
final class Oracle {

    /** A command that ran unasked and did what the oracle holds against it. */
    record Violation(Path cwd, List<String> argv, List<String> findings) {
        String describe(Path root) {
            return Render.render(argv) + "  (in " + root.relativize(cwd) + "/): " + String.join("; ", findings);
        }
    }

    /**
     * The counts of a run and its violations.
     *
     * @param judgingMillis the time spent deciding, the tracing excluded
     */
    record Outcome(long seed, int judged, int allowed, int traced, List<Violation> violations, long judgingMillis) {
        String line() {
            return "oracle: " + traced + " commands traced, " + allowed + " allowed, " + violations.size()
                    + " violations";
        }
    }

    /** Programs without a table: "always" stores their exact command, which no added argument may extend. */
    private static final List<String> UNTABLED = List.of("shuf", "printf", "id", "touch", "truncate", "basename",
            "seq", "tac", "rev", "fold", "nproc", "realpath", "readlink", "sha256sum", "expand", "numfmt");

    private static final int BATCH = 60;

    private final Scratch scratch;
    private final Sandbox sandbox;
    private final Path work;
    private final long seed;
    private final Map<String, Vocabulary> tabled = new LinkedHashMap<>();
    private final Map<String, Judge> judges = new LinkedHashMap<>();

    Oracle(Scratch scratch, Sandbox sandbox, Path work, long seed) {
        this.scratch = scratch;
        this.sandbox = sandbox;
        this.work = work;
        this.seed = seed;
        for (String program : ArgumentGuards.programs()) {
            if (Files.isExecutable(Path.of("/usr/bin", program)) || Files.isExecutable(Path.of("/bin", program))) {
                tabled.put(program, ArgumentGuards.vocabulary(program).orElseThrow());
            }
        }
    }

    private Judge judge(boolean always, Path cwd) {
        return judges.computeIfAbsent((always ? "always " : "bare ") + cwd, k -> {
            List<Rule> rules = new ArrayList<>(Builtins.DEFAULT_RULES);
            if (!always) {
                tabled.keySet().forEach(p -> rules.add(Rule.of(p)));
            }
            return new Judge(RuleSet.of(rules), cwd, always, sandbox, scratch.home);
        });
    }

    /** Runs for about {@code budget}. */
    Outcome run(Duration budget) throws IOException, InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        Generator generator = new Generator(scratch.values());
        long deadline = System.nanoTime() + budget.toNanos();
        Set<String> seen = new HashSet<>();
        List<Violation> violations = new ArrayList<>();
        int judged = 0;
        int allowed = 0;
        int traced = 0;
        int round = 0;
        long judgingNanos = 0;
        List<String> programs = new ArrayList<>(tabled.keySet());
        // Deciding goes on while two sandboxes trace what was decided before; at most a few batches wait.
        ExecutorService pool = Executors.newFixedThreadPool(2);
        java.util.ArrayDeque<Future<List<Violation>>> pending = new java.util.ArrayDeque<>();
        try {
            boolean first = true;
            while (System.nanoTime() < deadline) {
                long judging = System.nanoTime();
                List<Planned> planned = new ArrayList<>();
                if (first) {
                    // Commands to try first (-Daii.oracle.try), as a red-team pass or a replay gives them.
                    for (Tried t : tries()) {
                        Judge.Verdict v = judge(false, t.cwd()).judge(t.argv().getFirst(),
                                t.argv().subList(1, t.argv().size()));
                        judged++;
                        allowed += plan(v, t.cwd(), t.argv().getFirst(), seen, planned);
                    }
                    first = false;
                }
                while (planned.size() < BATCH && System.nanoTime() < deadline) {
                    boolean always = random.nextInt(3) == 0;
                    String program = always && random.nextInt(3) == 0 ? Generator.oneOf(random, UNTABLED)
                            : Generator.oneOf(random, programs);
                    Path cwd = program.equals("git") ? (random.nextBoolean() ? scratch.repo : scratch.repoSub)
                            : scratch.root;
                    Judge judge = judge(always, cwd);
                    Vocabulary vocabulary = tabled.get(program);
                    List<String> args = vocabulary == null ? randomArguments(generator, random)
                            : generator.arguments(vocabulary, random);
                    Judge.Verdict v = judge.judge(program, args);
                    judged++;
                    allowed += plan(v, cwd, program, seen, planned);
                    if (v.stored().isPresent()) {
                        // Extend what "always" stored: any argument added must be read by a table, or ask.
                        for (int k = 0; k < 3; k++) {
                            List<String> more = new ArrayList<>(v.stored().get().argumentPrefix());
                            more.addAll(vocabulary == null ? randomArguments(generator, random)
                                    : generator.arguments(vocabulary, random));
                            if (more.equals(v.stored().get().argumentPrefix())) {
                                // The stored command itself is what the user allowed: only what is added counts.
                                more.add(generator.value(random));
                            }
                            Judge.Verdict extended = judge.judge(program, more);
                            judged++;
                            allowed += plan(extended, cwd, program, seen, planned);
                        }
                    }
                }
                judgingNanos += System.nanoTime() - judging;
                Path dir = Files.createDirectories(work.resolve("batch-" + round++));
                List<Planned> batch = List.copyOf(planned);
                pending.add(pool.submit(() -> trace(batch, dir)));
                traced += batch.size();
                while (pending.size() > 4) {
                    violations.addAll(result(pending.poll()));
                }
            }
            while (!pending.isEmpty()) {
                violations.addAll(result(pending.poll()));
            }
        } finally {
            pool.shutdownNow();
        }
        return new Outcome(seed, judged, allowed, traced, violations, judgingNanos / 1_000_000);
    }

    /** A command to try: its directory and argv. */
    private record Tried(Path cwd, List<String> argv) {
    }

    /**
     * {@code -Daii.oracle.try}: commands separated by {@code ;}, words by
     * spaces, each run in the scratch directory, or in the repository when it
     * starts with {@code repo:} ({@code repo/sub} with {@code sub:}).
     */
    private List<Tried> tries() {
        List<Tried> out = new ArrayList<>();
        for (String command : System.getProperty("aii.oracle.try", "").split(";")) {
            String c = command.strip();
            Path cwd = scratch.root;
            if (c.startsWith("repo:") || c.startsWith("sub:")) {
                cwd = c.startsWith("repo:") ? scratch.repo : scratch.repoSub;
                c = c.substring(c.indexOf(':') + 1).strip();
            }
            if (!c.isEmpty()) {
                out.add(new Tried(cwd, List.of(c.split(" +"))));
            }
        }
        return out;
    }

    private static List<Violation> result(Future<List<Violation>> batch) throws IOException, InterruptedException {
        try {
            return batch.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("a sandbox failed", e.getCause());
        }
    }

    private static List<String> randomArguments(Generator generator, SplittableRandom random) {
        List<String> args = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            args.add(random.nextInt(3) == 0 ? Generator.oneOf(random, List.of("-o", "-f", "--help", "-n"))
                    : generator.value(random));
        }
        return args;
    }

    /** One command to trace. */
    private record Planned(String program, Path cwd, List<String> argv, Map<String, String> env) {
    }

    /** Adds a command the tool would run unasked (once); returns 1 when it would. */
    private int plan(Judge.Verdict v, Path cwd, String program, Set<String> seen, List<Planned> planned) {
        if (!v.ranUnasked()) {
            return 0;
        }
        if (seen.add(cwd + "\0" + String.join("\0", v.argv()))) {
            Map<String, String> env = new LinkedHashMap<>(Map.of("PATH", "/usr/bin:/bin", "LC_ALL", "C",
                    "HOME", scratch.home.toString(), Sandbox.MARK_VARIABLE, sandbox.mark));
            env.putAll(v.environment());
            planned.add(new Planned(program, cwd, v.argv(), env));
        }
        return 1;
    }

    /** The report's text: the line, the seed, the violations, the slow commands, the time per program. */
    String report(Outcome outcome, String violations) {
        StringBuilder out = new StringBuilder(outcome.line()).append("\nseed ").append(seed).append(", ")
                .append(outcome.judged()).append(" commands judged in ").append(outcome.judgingMillis())
                .append(" ms\n").append(violations).append("\nslow, not waiting:\n")
                .append(String.join("\n", slow)).append("\ncommands traced and their time, by program:\n");
        cost.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
                .forEach(e -> out.append(e.getKey()).append(' ').append(e.getValue()[0]).append(' ')
                        .append(e.getValue()[1]).append(" ms\n"));
        return out.toString();
    }

    /** Per program, how many commands were traced and how long they took in all (ms). */
    final Map<String, long[]> cost = new java.util.concurrent.ConcurrentHashMap<>();

    /** Commands that ran out of time working, not waiting: reported, not held against the policy. */
    final List<String> slow = java.util.Collections.synchronizedList(new ArrayList<>());

    private List<Violation> trace(List<Planned> batch, Path dir) throws IOException, InterruptedException {
        List<Sandbox.Command> commands = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Planned p = batch.get(i);
            commands.add(new Sandbox.Command(i, p.cwd(), p.env(), p.argv()));
        }
        List<Sandbox.Result> results = sandbox.run(commands, dir);
        List<Violation> out = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            Sandbox.Result r = results.get(i);
            Planned p = batch.get(i);
            long[] c = cost.computeIfAbsent(p.program(), k -> new long[2]);
            synchronized (c) {
                c[0]++;
                c[1] += r.millis();
            }
            List<String> findings = new ArrayList<>(Findings.of(p.program(), Trace.read(r.trace()), p.cwd(),
                    r.timedOut() && !r.busy()));
            if (r.busy()) {
                slow.add(Render.render(p.argv()));
            }
            if (r.showsEnvironment()) {
                findings.add("shows an environment (its output holds the sandbox's mark)");
            }
            if (!findings.isEmpty()) {
                out.add(new Violation(p.cwd(), p.argv(), findings));
                Files.copy(r.trace(), work.resolve("violation-" + dir.getFileName() + "-" + i + ".trace"));
            }
        }
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
        return out;
    }
}
