package dev.aii.bench;

import dev.aii.config.SystemEnvironment;
import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.Environment;
import dev.aii.policy.FileProbe;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One policy decision ({@link ExecPolicy#evaluate}) against 17 rules (the
 * built-in defaults), 1,000 and 100,000 rules. Two shapes: "spread", the
 * other rules each of a program of its own ({@code ls -l /tmp} allowed by the
 * default {@code ls}, {@code git status --short} asked), and "oneProgram",
 * every other rule a {@code git} rule before the allowing {@code git status}
 * ({@code git status --short} allowed, {@code git log --oneline} asked). Two
 * environments: the real file system, as aii has it (resolution remembers
 * where it found a program and checks that file again; the operand guard
 * stats argument paths), and an in-memory probe (the policy's own cost).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PolicyBench {

    @Param({"17", "1000", "100000"})
    int rules;

    @Param({"spread", "oneProgram"})
    String shape;

    @Param({"filesystem", "memory"})
    String probe;

    private ExecPolicy policy;
    private String allowedProgram;
    private List<String> allowedArgs;
    private List<String> askedArgs;

    @Setup
    public void setUp() {
        boolean one = shape.equals("oneProgram");
        allowedProgram = one ? "git" : "ls";
        allowedArgs = one ? List.of("status", "--short") : List.of("-l", "/tmp");
        askedArgs = one ? List.of("log", "--oneline") : List.of("status", "--short");
        List<Rule> list = new ArrayList<>();
        int others = rules - Builtins.DEFAULT_RULES.size() - (one ? 1 : 0);
        for (int i = 0; i < others; i++) {
            list.add(one ? Rule.of("git", "sub" + i, "--flag") : Rule.of("tool" + i, "sub" + i, "--flag"));
        }
        list.addAll(Builtins.DEFAULT_RULES);
        if (one) {
            list.add(Rule.of("git", "status"));
        }
        Environment env = probe.equals("filesystem")
                ? SystemEnvironment.of(System.getenv(), Path.of("").toAbsolutePath())
                : new Environment("/usr/local/bin:/usr/bin:/bin", "/home/user",
                        FileProbe.executablesOnly(Set.of("/usr/bin/ls", "/usr/bin/git")::contains));
        policy = ExecPolicy.of(RuleSet.of(list), env);
        if (!(policy.evaluate(allowedProgram, allowedArgs) instanceof Decision.Allow)) {
            throw new IllegalStateException(allowedProgram + " " + allowedArgs + " must be allowed in this set-up");
        }
        if (!(policy.evaluate("git", askedArgs) instanceof Decision.Ask)) {
            throw new IllegalStateException("git " + askedArgs + " must be asked about in this set-up");
        }
    }

    /** A command a rule allows: the last rule of the program in the set. */
    @Benchmark
    public Decision allowed() {
        return policy.evaluate(allowedProgram, allowedArgs);
    }

    /** A command no rule covers, so a prefix is derived and "always" weighed. */
    @Benchmark
    public Decision asked() {
        return policy.evaluate("git", askedArgs);
    }
}
