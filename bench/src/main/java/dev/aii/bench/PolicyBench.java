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
 * built-in defaults) and 1,000 rules (983 others before the defaults, so the
 * allowed command matches late). Two environments: the real file system
 * (resolution stats the PATH directories, as aii does) and an in-memory probe
 * (the policy's own cost alone).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PolicyBench {

    @Param({"17", "1000"})
    int rules;

    @Param({"filesystem", "memory"})
    String probe;

    private ExecPolicy policy;
    private final List<String> allowedArgs = List.of("-l", "/tmp");
    private final List<String> askedArgs = List.of("status", "--short");

    @Setup
    public void setUp() {
        List<Rule> list = new ArrayList<>();
        for (int i = list.size(); i < rules - Builtins.DEFAULT_RULES.size(); i++) {
            list.add(Rule.of("tool" + i, "sub" + i, "--flag"));
        }
        list.addAll(Builtins.DEFAULT_RULES);
        Environment env = probe.equals("filesystem")
                ? SystemEnvironment.of(System.getenv(), Path.of("").toAbsolutePath())
                : new Environment("/usr/local/bin:/usr/bin:/bin", "/home/user",
                        FileProbe.executablesOnly(Set.of("/usr/bin/ls", "/usr/bin/git")::contains));
        policy = ExecPolicy.of(RuleSet.of(list), env);
        if (!(policy.evaluate("ls", allowedArgs) instanceof Decision.Allow)) {
            throw new IllegalStateException("ls must be allowed in this set-up");
        }
    }

    /** {@code ls -l /tmp}: a rule allows it. */
    @Benchmark
    public Decision allowed() {
        return policy.evaluate("ls", allowedArgs);
    }

    /** {@code git status --short}: no rule covers it, so every rule is looked at and a prefix derived. */
    @Benchmark
    public Decision asked() {
        return policy.evaluate("git", askedArgs);
    }
}
