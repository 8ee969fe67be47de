package dev.aii.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.policy.Seeded;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syscall oracle: the real programs judge the policy. Commands built
 * from every table's vocabulary, and extensions of every rule "always"
 * stored, that aii would run without asking are run under strace in a
 * sandbox; none may execute anything, open a terminal, FIFO, device or
 * process's environment, write, change the system or run past 2 seconds.
 * It runs for {@code -Daii.oracle.seconds} (90 by default; {@code make fuzz}
 * gives it 30 minutes), from the seed {@code -Daii.test.seed} when given,
 * prints one line, {@code oracle: <N> commands traced, <A> allowed, <V>
 * violations}, and writes every violation with its trace to
 * {@code target/oracle}.
 */
class OracleTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 45, unit = java.util.concurrent.TimeUnit.MINUTES)
    void noCommandAiiRunsUnaskedDoesWhatThePolicyForbids() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").equals("Linux"),
                "the oracle traces Linux programs; elsewhere the tables are checked against themselves only");
        long seconds = Long.getLong("aii.oracle.seconds", 90);
        long seed = Seeded.seed();
        System.out.println("oracle: seed " + seed + " (replay: -D" + Seeded.SEED_PROPERTY + "=" + seed + "), "
                + seconds + " s");
        // Everyone may pass through: the sandbox's user must reach the scratch directory.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path report = Path.of("target", "oracle");
        if (Files.exists(report)) {
            try (var old = Files.walk(report)) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(report);
        try (PtyHolder pty = new PtyHolder()) {
            Path root = Files.createDirectories(dir.resolve("scratch"));
            Scratch scratch = Scratch.build(root, pty.name());
            Sandbox sandbox = Sandbox.in(Files.createDirectories(dir.resolve("sandbox")));
            sandbox.handOver(root);
            Path work = Files.createDirectories(dir.resolve("work"));
            Oracle oracle = new Oracle(scratch, sandbox, work, seed);
            Oracle.Outcome outcome = oracle.run(Duration.ofSeconds(seconds));
            System.out.println(outcome.line());
            String violations = outcome.violations().stream().map(v -> v.describe(root))
                    .collect(Collectors.joining("\n"));
            Files.writeString(report.resolve("report.txt"), oracle.report(outcome, violations));
            try (var traces = Files.list(work)) {
                for (Path t : traces.filter(p -> p.getFileName().toString().startsWith("violation-")).toList()) {
                    Files.copy(t, report.resolve(t.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            assertEquals(0, outcome.violations().size(), () -> "seed " + seed + ": " + outcome.line() + "\n"
                    + violations.lines().limit(40).collect(Collectors.joining("\n")));
        }
    }
}
