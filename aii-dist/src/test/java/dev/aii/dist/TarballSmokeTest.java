package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Survivors;
import dev.aii.testkit.Wire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user gets from the release tarball, unpacked into a new directory
 * outside the checkout (its name has a blank) and run with nothing but
 * {@code PATH=/usr/bin:/bin} and a HOME: no JDK on the PATH, no JAVA_HOME.
 * The release workflow runs this class on the tarball of each runner.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TarballSmokeTest {

    static final String VERSION = System.getProperty("aii.version", "0.9.0");

    @TempDir
    static Path tmp;
    static Unpacked aii;
    /** Every run carries it, so that what a run leaves behind is found (Linux: /proc). */
    static final Survivors MARK = Survivors.mark();

    @BeforeAll
    static void unpack() throws IOException {
        aii = Unpacked.in(Packages.unpack(tmp.resolve("a new place")), tmp);
    }

    @AfterAll
    static void nothingIsLeftRunning() throws InterruptedException {
        if (OS.LINUX.isCurrentOs()) {
            assertEquals(List.of(), MARK.awaitNone(Duration.ofSeconds(10)));
        }
    }

    /** The environment of every run: the mark, and what the test adds. */
    private static Map<String, String> marked(Map<String, String> extra) {
        Map<String, String> all = new java.util.HashMap<>(extra);
        String mark = MARK.assignment();
        all.put(mark.substring(0, mark.indexOf('=')), mark.substring(mark.indexOf('=') + 1));
        return all;
    }

    private static Run run(String... args) {
        return run(Map.of(), args);
    }

    private static Run run(Map<String, String> extra, String... args) {
        return aii.run(marked(extra), args);
    }

    @Test
    void theFirstRunInANewPlaceChecksTheShippedCachesAndTheSecondStartsFromOne() throws IOException {
        // A place of its own: the other tests' runs would be the first there.
        Unpacked fresh = Unpacked.in(Packages.unpack(tmp.resolve("first run")), tmp.resolve("first run"));
        Path cache = fresh.lib().resolve("aii.aot");
        FileTime shipped = Files.getLastModifiedTime(cache);
        String madeFor = fresh.keyOf(cache);
        assertNotEquals(fresh.lib().resolve("runtime").toString(), madeFor, "the key names where the image was built");

        assertEquals(new Run(0, "aii " + VERSION + "\n", ""), fresh.run(marked(Map.of()), "--version"));
        // Checked, not made again: the same file, now with a key for here.
        assertEquals(shipped, Files.getLastModifiedTime(cache));
        assertEquals(fresh.lib().resolve("runtime").toString(), fresh.keyOf(cache));
        assertEquals(fresh.lib().resolve("runtime").toString(), fresh.keyOf(fresh.lib().resolve("aii-prompt.aot")));
        assertTrue(fresh.startsFromACache(Map.of(), "--version"));
        assertTrue(fresh.startsFromACache(Map.of("AII_BASE_URL", FakeOpenAiServer.unreachableBaseUrl()), "hi"),
                "a prompt starts from a cache too");
        try (var left = Files.list(fresh.lib())) {
            assertEquals(List.of("aii-prompt.aot", "aii-prompt.aot.key", "aii.aot", "aii.aot.key", "aot-caches",
                    "native", "runtime"), left.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void versionHelpAndCheckAnswerAsTheBuiltAiiDoes() {
        assertEquals(new Run(0, "aii " + VERSION + "\n", ""), run("--version"));
        Run help = run("--help");
        assertEquals(0, help.status(), help.err());
        assertTrue(help.out().startsWith("Usage: aii [-ijx] [-f FILE] [--model NAME] [--] [PROMPT...]\n"), help.out());
        if (Run.packaged()) {
            assertEquals(Run.of(Map.of("HOME", aii.home().toString()), "bin/aii", "--help").ok().out(), help.out(),
                    "the checkout's bin/aii");
        }
        assertEquals(new Run(0, "allow (rule: ls)\n", ""), run("--check", "ls", "-la"));
    }

    @Test
    void aPromptIsAnsweredByAServer() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.text("The capital of France ", "is Paris."));
            assertEquals(new Run(0, "The capital of France is Paris.\n", ""),
                    run(server.environment(), "what", "is", "the", "capital", "of", "France"));
            assertEquals("what is the capital of France", server.lastChatRequest().lastUserMessage());
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void withXACommandRunsAfterTheUserApprovesItOnTheTerminal() throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", "{\"executable\":\"touch\",\"arguments\":[\"x.txt\"]}"),
                    Reply.text("Created."));
            Map<String, String> env = marked(server.environment());
            env.put("TERM", "xterm");
            String command = aii.command(env, List.of("-x", "Create x.txt")).stream().map(TarballSmokeTest::quoted)
                    .collect(Collectors.joining(" ", "cd " + quoted(work.toString()) + " && exec ", ""));
            try (PtyDriver pty = PtyDriver.start(command, Map.of(), work)) {
                pty.awaitOutput("aii: run this command?\r\n  touch x.txt\r\n"
                        + "  [y] yes once   [a] always allow exactly \"touch x.txt\"   [N] no\r\n> ", Duration.ofMinutes(1));
                pty.type("y\n");
                assertEquals(0, pty.awaitExit(Duration.ofMinutes(1)), pty.output());
                assertTrue(pty.output().endsWith("y\r\naii: $ touch x.txt\r\nCreated.\r\n"), pty.output());
            }
            assertEquals(List.of("exit 0\n"), server.lastChatRequest().toolResults());
            assertTrue(Files.exists(work.resolve("x.txt")));
        }
    }

    @Test
    void theManPageCompletionAndNoticesAreThere() throws IOException {
        String page = Files.readString(aii.root().resolve("share/man/man1/aii.1"));
        assertTrue(page.contains("\n.TH AII 1 "), page);
        Path bash = aii.root().resolve("share/bash-completion/completions/aii");
        assertEquals("complete -o default -F _complete_aii aii\n",
                Run.of(Map.of(), "bash", "-c", "source '" + bash + "' && complete -p aii").ok().out());
        assertTrue(Files.readString(aii.root().resolve("share/zsh/site-functions/_aii")).startsWith("#compdef aii"));
        Path doc = aii.root().resolve("share/doc/aii");
        assertEquals(Files.readString(Run.ROOT.resolve("LICENSE")), Files.readString(doc.resolve("LICENSE")));
        String index = Files.readString(doc.resolve("licenses/README"));
        for (String component : List.of("openjdk", "jackson-core", "jackson-databind", "jackson-annotations",
                "jline-terminal", "jline-reader", "jline-native", "picocli")) {
            assertTrue(index.contains("\n" + component + "/ "), component + " in\n" + index);
            try (var notices = Files.list(doc.resolve("licenses").resolve(component))) {
                assertFalse(notices.toList().isEmpty(), component);
            }
        }
        assertTrue(Files.readString(doc.resolve("licenses/openjdk/java.base/LICENSE"))
                .contains("GNU General Public License"));
    }

    @Test
    void unpackedIntoAPrefixAiiIsOnThePathAndManFindsItsPage() throws IOException {
        Path prefix = Files.createDirectories(tmp.resolve("prefix/.local"));
        Run.of(Map.of(), "tar", "-xzf", Packages.tarball().toString(), "-C", prefix.toString(), "--strip-components=1")
                .ok();
        try (var top = Files.list(prefix)) {
            assertEquals(List.of("bin", "lib", "share"), top.map(p -> p.getFileName().toString()).sorted().toList());
        }
        String path = prefix.resolve("bin") + ":" + Unpacked.PATH;
        Path home = Files.createDirectories(tmp.resolve("prefix/home"));
        assertEquals(new Run(0, "aii " + VERSION + "\n", ""),
                Run.of(Map.of(), "/usr/bin/env", "-i", "PATH=" + path, "HOME=" + home, "aii", "--version"));
        if (Run.onPath("man")) {
            assertEquals(prefix.resolve("share/man/man1/aii.1") + "\n",
                    Run.of(Map.of(), "/usr/bin/env", "-i", "PATH=" + path, "HOME=" + home, "man", "-w", "aii").ok().out());
        }
    }

    static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
