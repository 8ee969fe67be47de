package dev.aii.policy;

import dev.aii.policy.guard.ArgumentGuards;
import dev.aii.policy.guard.PathNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The exec policy: a rule set and the environment programs are resolved in.
 * Immutable; {@link #withRule} makes a new policy.
 *
 * <p>Embedding it: load the rules (the built-in defaults, or an allow file
 * through {@code dev.aii.config.AllowFile}), evaluate each command, show the
 * human {@link ResolvedCommand#display()} when asked, and remember "always".
 * {@snippet :
 * AllowFile file = AllowFile.at(Path.of("/etc/mytool/allow"));   // or Builtins.defaults()
 * AllowFile.Loaded loaded = file.load();                         // never throws; see warnings()
 * ExecPolicy policy = ExecPolicy.of(loaded.rules(), SystemEnvironment.current());
 *
 * Decision decision = policy.evaluate("git", List.of("status", "--short"));
 * if (decision instanceof Decision.Allow allow) {
 *     run(allow.command().path(), allow.command().arguments());
 * } else if (decision instanceof Decision.Ask ask) {
 *     // shows "git status --short"; "always" would store "git status" (for a program without a guard
 *     // table, the exact command: r.exact() is true, and the allow file writes "= shuf data.txt")
 *     Answer answer = askHuman(ask.command().display(), ask.alwaysPrefix().map(r -> Render.render(r.tokens())));
 *     if (answer == Answer.ALWAYS && ask.alwaysPrefix().isPresent()) {
 *         policy = policy.withRule(ask.alwaysPrefix().get());
 *         file.add(ask.alwaysPrefix().get());              // seeds or appends
 *     }
 * } else if (decision instanceof Decision.Refuse refuse) {
 *     report(refuse.message());                            // e.g. "Error: executable not found: gti"
 * }
 * }
 */
public final class ExecPolicy {

    /** Returned for an empty executable or one containing NUL. */
    public static final String INVALID_EXECUTABLE = "Error: invalid executable";

    /** Returned when the first argument repeats the program. */
    public static final String PROGRAM_NAME_IN_ARGUMENTS =
            "Error: arguments must not include the program name. Pass only the arguments, "
                    + "e.g. executable \"df\" with arguments [\"-h\", \"/\"].";

    private final RuleSet rules;
    private final Environment environment;

    private ExecPolicy(RuleSet rules, Environment environment) {
        this.rules = Objects.requireNonNull(rules, "rules");
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /** A policy with {@code rules}, resolving programs in {@code environment}. */
    public static ExecPolicy of(RuleSet rules, Environment environment) {
        return new ExecPolicy(rules, environment);
    }

    /**
     * Builds ahead, once per JVM, what the first decision would otherwise
     * build first: the argument guards' tables of every program they know (a
     * few milliseconds in a fresh JVM). It reads no file, decides nothing and
     * changes no decision; call it on a thread that would otherwise wait, as
     * aii does while the model produces its first answer. Safe from any
     * thread, at any time, any number of times.
     */
    public static void prepare() {
        ArgumentGuards.prepare();
    }

    public RuleSet rules() {
        return rules;
    }

    public Environment environment() {
        return environment;
    }

    /** This policy with {@code rule} added (unchanged when already present). */
    public ExecPolicy withRule(Rule rule) {
        RuleSet more = rules.with(rule);
        return more == rules ? this : new ExecPolicy(more, environment);
    }

    /**
     * Decides about one command: validate, resolve, match, and when no rule
     * matches, say whether "always" can be offered and what it would store.
     *
     * <p>A command that uses a guarded argument form (such as {@code date -s},
     * {@code git log --output=x}, an option the program's guard table does not
     * know, or an argument naming a terminal, device or process file) is
     * allowed only by a rule whose own arguments spell that form out (a
     * hand-written {@code date -s} does, the default {@code date} does not);
     * otherwise it is asked about, with {@link Decision.Always#GUARDED} and the
     * reasons to show. Arguments that may name paths are looked up through the
     * environment's {@link FileProbe}; nothing else touches the file system.
     */
    public Decision evaluate(String executable, List<String> arguments) {
        if (executable == null || executable.isEmpty() || executable.indexOf('\0') >= 0) {
            return new Decision.Refuse(Decision.Refusal.INVALID_EXECUTABLE, INVALID_EXECUTABLE);
        }
        List<String> args = List.copyOf(arguments);
        if (!args.isEmpty()) {
            String first = args.get(0);
            String last = PathNames.lastComponent(executable);
            if (first.equals(executable) || (!last.isEmpty() && first.equals(last))) {
                return new Decision.Refuse(Decision.Refusal.PROGRAM_NAME_IN_ARGUMENTS, PROGRAM_NAME_IN_ARGUMENTS);
            }
        }
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).indexOf('\0') >= 0) {
                return new Decision.Refuse(Decision.Refusal.NUL_IN_ARGUMENT,
                        "Error: could not launch " + executable + ": argument contains a NUL character");
            }
        }
        Optional<ResolvedCommand> resolved = Resolver.resolve(environment, executable, args);
        if (resolved.isEmpty()) {
            return new Decision.Refuse(Decision.Refusal.NOT_FOUND, "Error: executable not found: " + executable);
        }
        ResolvedCommand command = resolved.get();
        Rule always = alwaysRule(command.program(), command.arguments());
        if (!command.trusted()) {
            return new Decision.Ask(command, always, Decision.Always.NOT_IN_SYSTEM_DIRECTORY);
        }
        ArgumentGuards.Found hits = ArgumentGuards.check(environment, command.program(), command.arguments());
        Optional<Rule> rule = hits.isEmpty()
                ? rules.firstCovering(command.program(), command.arguments())
                : rules.firstCovering(command.program(), command.arguments(), hits::spelledOutBy);
        if (rule.isPresent()) {
            return new Decision.Allow(command, rule.get());
        }
        if (!hits.isEmpty()) {
            return new Decision.Ask(command, always, Decision.Always.GUARDED, hits.reasons());
        }
        return new Decision.Ask(command, always, alwaysFor(command, always));
    }

    /** Resolves a program without deciding anything; empty when it is not found. */
    public Optional<ResolvedCommand> resolve(String executable, List<String> arguments) {
        if (executable == null || executable.isEmpty() || executable.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        return Resolver.resolve(environment, executable, arguments);
    }

    /**
     * The prefix "always" stores for a command: the program alone when there
     * are no arguments; the program and its first argument when that does not
     * start with {@code -}; else the whole argv.
     */
    public static Rule derivePrefix(String program, List<String> arguments) {
        List<String> tokens = new ArrayList<>(arguments.size() + 1);
        tokens.add(program);
        if (!arguments.isEmpty()) {
            if (arguments.get(0).startsWith("-")) {
                tokens.addAll(arguments);
            } else {
                tokens.add(arguments.get(0));
            }
        }
        return new Rule(tokens);
    }

    /**
     * The rule "always" stores for a command: for a program with a guard
     * table, {@link #derivePrefix} (the table reads every argument after it);
     * for any other program the exact command, since aii cannot tell what
     * further arguments would do.
     */
    public static Rule alwaysRule(String program, List<String> arguments) {
        if (ArgumentGuards.hasTable(program)) {
            return derivePrefix(program, arguments);
        }
        List<String> tokens = new ArrayList<>(arguments.size() + 1);
        tokens.add(program);
        tokens.addAll(arguments);
        return Rule.exactly(tokens);
    }

    /** Whether every token of {@code rule} shows as itself (nothing in it needs escaping). */
    public static boolean isPlain(Rule rule) {
        return rule.tokens().stream().noneMatch(Render::needsEscape);
    }

    private Decision.Always alwaysFor(ResolvedCommand command, Rule prefix) {
        if (neverAlways(command)) {
            return Decision.Always.NEVER_ALWAYS_PROGRAM;
        }
        if (!isPlain(prefix)) {
            return Decision.Always.PREFIX_NOT_PLAIN;
        }
        return Decision.Always.OFFERED;
    }

    /**
     * Whether the program is never-always by the name it was given or by the
     * name it resolves to through symbolic links ({@code editor} leads to
     * {@code vim.basic} through Debian's alternatives), a multi-call program
     * such as busybox excepted, which runs what the given name says.
     */
    private boolean neverAlways(ResolvedCommand command) {
        if (Builtins.isNeverAlways(command.program())) {
            return true;
        }
        String real = PathNames.lastComponent(environment.probe().target(command.path()).realPath());
        return !real.isEmpty() && !Builtins.MULTI_CALL.contains(real) && Builtins.isNeverAlways(real);
    }
}
