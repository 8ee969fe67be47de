package dev.aii.bench;

import dev.aii.config.AllowFile;
import dev.aii.policy.Render;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSyntaxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Rendering a command for the log and the prompt, the rule tokenizer (one
 * allow-file line), and loading an allow file of 10,000 lines.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TextBench {

    private final List<String> plainArgv = List.of("/usr/bin/git", "log", "--oneline", "-n", "20");
    private final List<String> escapedArgv = List.of("/usr/bin/grep", "-e", "it's a \"quote\"", "my file.txt", "tab\there",
            "\u001b[31mred\u001b[0m");
    private Path allowFile;

    @Setup
    public void setUp() throws IOException {
        StringBuilder text = new StringBuilder("# seeded from aii 0.9.0 built-in defaults\n");
        for (int i = 0; i < 10_000; i++) {
            switch (i % 4) {
                case 0 -> text.append("tool").append(i).append('\n');
                case 1 -> text.append("git log --oneline -n ").append(i).append('\n');
                case 2 -> text.append("grep -e 'a b' \"c\\\"d\" e\\ f").append(i).append('\n');
                default -> text.append("# comment ").append(i).append('\n');
            }
        }
        allowFile = Files.createTempFile("aii-bench-allow", "");
        Files.writeString(allowFile, text);
    }

    @TearDown
    public void tearDown() throws IOException {
        Files.deleteIfExists(allowFile);
    }

    @Benchmark
    public String renderPlain() {
        return Render.render(plainArgv);
    }

    @Benchmark
    public String renderEscaped() {
        return Render.render(escapedArgv);
    }

    @Benchmark
    public Rule tokenizePlain() throws RuleSyntaxException {
        return Rule.parse("git log --oneline -n 20");
    }

    @Benchmark
    public Rule tokenizeQuoted() throws RuleSyntaxException {
        return Rule.parse("grep -e 'a b' \"c\\\"d\" e\\ f");
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public AllowFile.Loaded allowFile10000Lines() {
        return AllowFile.at(allowFile).load();
    }
}
