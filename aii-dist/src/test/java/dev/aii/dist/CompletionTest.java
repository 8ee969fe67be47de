package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aii.testkit.PtyDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated completion, typed into a real interactive bash and zsh on a
 * pseudo-terminal: Tab after {@code -f} completes file names, after
 * {@code --check} program names and then file names for the program's
 * arguments. {@code aii} is a shell function there that prints the words it
 * got, so the test reads back the command line the completion made.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CompletionTest {

    static final Duration LIMIT = Duration.ofSeconds(30);
    static final Path BASH = Run.ROOT.resolve("aii-cli/target/completion/aii.bash");
    static final Path ZSH_FUNCTIONS = Run.ROOT.resolve("aii-cli/target/completion");

    @TempDir
    Path dir;

    @BeforeEach
    void filesAndAProgramToComplete() throws IOException {
        assumeTrue(Run.packaged(), "aii-cli is not packaged: run ./mvnw verify");
        Files.writeString(dir.resolve("notes.md"), "notes");
        Files.writeString(dir.resolve("other.txt"), "other");
        Files.writeString(dir.resolve("my file.txt"), "spaced");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path program = Files.writeString(bin.resolve("zzaiiprog"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Map<String, String> environment() {
        return Map.of("HOME", dir.toString(), "TERM", "xterm", "PATH", dir.resolve("bin") + ":/usr/bin:/bin",
                "INPUTRC", "/dev/null");
    }

    /** Types {@code line} with its Tabs and Enter, and returns what aii got: {@code -f|notes.md|}. */
    private static String complete(PtyDriver pty, String line) throws Exception {
        pty.type(line + "\n");
        return pty.awaitLine("ARGS:", LIMIT).substring("ARGS:".length());
    }

    private static final List<String[]> CASES = List.of(
            new String[] {"aii -f no\t", "-f|notes.md|"},
            new String[] {"aii --file no\t", "--file|notes.md|"},
            new String[] {"aii -f my\t", "-f|my file.txt|"},
            new String[] {"aii -jf ot\t", "-jf|other.txt|"},
            new String[] {"aii --check zzaii\t", "--check|zzaiiprog|"},
            new String[] {"aii --check -j zzaii\t", "--check|-j|zzaiiprog|"},
            new String[] {"aii --check zzaiiprog no\t", "--check|zzaiiprog|notes.md|"},
            new String[] {"aii --check zzaiiprog -l ot\t", "--check|zzaiiprog|-l|other.txt|"},
            new String[] {"aii --li\t", "--list-allowed|"},
            new String[] {"aii --mod\t", "--model|"});

    @Test
    void inBash() throws Exception {
        assumeTrue(Run.onPath("bash"), "bash is not installed");
        try (PtyDriver pty = PtyDriver.start("exec bash --norc --noprofile -i", environment(), dir)) {
            pty.type("PS1='$ '; source '" + BASH + "'; aii() { printf 'AR''GS:'; printf '%s|' \"$@\"; echo; };"
                    + " printf 'RE''ADY\\n'\n");
            pty.awaitOutput("READY\r\n", LIMIT);
            for (String[] c : CASES) {
                assertEquals(c[1], complete(pty, c[0]), c[0]);
            }
            assertEquals("--file=notes.md|", complete(pty, "aii --file=no\t"));
            pty.type("exit\n");
            assertEquals(0, pty.awaitExit(LIMIT), pty.output());
        }
    }

    @Test
    void inBashCheckCompletesTheProgramsOnPath() throws Exception {
        assumeTrue(Run.onPath("bash") && Run.onPath("git"), "bash or git is not installed");
        Run run = Run.of(Map.of(), "bash", "-c", "source '" + BASH + "'"
                + " && COMP_WORDS=(aii --check gi) COMP_CWORD=2 && _complete_aii && printf '%s\\n' \"${COMPREPLY[@]}\"")
                .ok();
        assertTrue(run.out().lines().anyMatch("git"::equals), run.out());
        assertTrue(run.out().lines().allMatch(l -> l.startsWith("gi")), run.out());
    }

    @Test
    void inZsh() throws Exception {
        assumeTrue(Run.onPath("zsh"), "zsh is not installed");
        try (PtyDriver pty = PtyDriver.start("exec zsh -f -i", environment(), dir)) {
            pty.type("PS1='$ '; fpath=('" + ZSH_FUNCTIONS + "' $fpath); autoload -U compinit; compinit -u -D;"
                    + " aii() { printf 'AR''GS:'; printf '%s|' \"$@\"; echo }; printf 'RE''ADY\\n'\n");
            pty.awaitOutput("READY\r\n", LIMIT);
            for (String[] c : CASES) {
                if (c[0].equals("aii --mod\t")) {
                    continue;   // zsh offers --model= and --model-info: a menu, not a completion
                }
                assertEquals(c[1], complete(pty, c[0]), c[0]);
            }
            pty.type("exit\n");
            assertEquals(0, pty.awaitExit(LIMIT), pty.output());
        }
    }
}
