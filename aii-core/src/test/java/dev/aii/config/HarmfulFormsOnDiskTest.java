package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The guarded forms are harmful for real: each is run on this machine in a
 * scratch directory and leaves the file it writes (or that the program it
 * runs creates), and the policy, deciding on the real file system, asks for
 * it although a bare rule for the program covers it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class HarmfulFormsOnDiskTest {

    @TempDir
    Path dir;

    @BeforeEach
    void files() throws Exception {
        Files.writeString(dir.resolve("data.txt"), "b\na\na\n");
        run(List.of("tar", "cf", "a.tar", "data.txt"));
        run(List.of("git", "init", "-q", "repo"));
        run(List.of("git", "-C", "repo", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q",
                "--allow-empty", "-m", "x"));
    }

    static Stream<Arguments> forms() {
        return Stream.of(
                form("out", "sort", "data.txt", "-o", "out"),
                form("out", "sort", "-no", "out", "data.txt"),
                form("out", "sort", "--out=out", "data.txt"),
                form("out", "uniq", "data.txt", "out"),
                form("out", "uniq", "data.txt", "-c", "out"),
                form("out", "xxd", "data.txt", "out"),
                form("out", "xxd", "-c", "8", "data.txt", "out"),
                form("marker", "tar", "tf", "a.tar", "--checkpoint=1", "--checkpoint-action=exec=touch marker"),
                form("marker", "tar", "-I", "sh -c 'touch marker; cat'", "-tf", "a.tar"),
                form("data.txt.gz", "gzip", "data.txt"),
                form("out", "find", ".", "-maxdepth", "0", "-fprint", "out"),
                form("marker", "find", ".", "-maxdepth", "0", "-exec", "touch", "marker", ";"),
                form("xaa", "split", "data.txt"),
                form("marker", "split", "--filter=touch marker", "data.txt"),
                form("out", "git", "-C", "repo", "log", "-1", "--format=tformat:bash", "--output=../out"),
                form("marker", "git", "-C", "repo", "-c", "alias.x=!touch ../marker", "x"),
                form("marker", "git", "-C", "repo", "-c", "core.pager=touch ../marker", "-p", "log"),
                form("out", "file", "-C", "-m", "magic"));
    }

    private static Arguments form(String effect, String... argv) {
        return Arguments.argumentSet(String.join(" ", argv), effect, List.of(argv));
    }

    @ParameterizedTest
    @MethodSource("forms")
    void theFormHasItsEffectAndThePolicyAsks(String effect, List<String> argv) throws Exception {
        if (argv.get(0).equals("file")) {
            Files.writeString(dir.resolve("magic"), "0 string hello hello\n");
            effect = "magic.mgc";
        }
        ExecPolicy policy = ExecPolicy.of(RuleSet.of(List.of(Rule.of(argv.get(0)))),
                SystemEnvironment.of(Map.of("PATH", "/usr/bin:/bin"), dir));
        Decision decision = policy.evaluate(argv.get(0), argv.subList(1, argv.size()));
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision, decision::toString);
        assertEquals(Decision.Always.GUARDED, ask.always());

        boolean pager = argv.contains("-p");
        run(pager ? List.of("script", "-qec", String.join(" ", quoteAll(argv)), "/dev/null") : argv);
        String made = effect;
        assertTrue(Files.exists(dir.resolve(made)), () -> argv + " left no " + made);
    }

    private static List<String> quoteAll(List<String> argv) {
        List<String> out = new ArrayList<>();
        for (String a : argv) {
            out.add("'" + a.replace("'", "'\\''") + "'");
        }
        return out;
    }

    private void run(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), argv::toString);
    }
}
