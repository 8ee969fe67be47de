package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.testkit.PtyDriver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The approval prompt's terminal, on a real pseudo-terminal: a second JVM
 * runs under util-linux {@code script}, and the test types on its keyboard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PosixTerminalTest {

    private static final Duration MAX = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** Prompts with the given mode of {@link Scenarios}, answering with {@code typed}; returns the ANSWER line. */
    private String prompt(String mode, String typeAhead, String typed) throws Exception {
        try (PtyDriver pty = ChildJvm.onPty(dir, "prompt", mode)) {
            if (typeAhead != null) {
                pty.awaitOutput("READY", MAX);
                pty.type(typeAhead);
            }
            pty.awaitOutput("PROMPT> ", MAX);
            pty.type(typed);
            String answer = pty.awaitLine("ANSWER ", MAX);
            assertEquals("DESCRIPTORS 0", pty.awaitLine("DESCRIPTORS ", MAX), "the conversation left a descriptor open");
            return answer;
        }
    }

    @Test
    void keysTypedBeforeThePromptDoNotAnswerIt() throws Exception {
        assertEquals("ANSWER [second]", prompt("flush", "y\n", "second\n"));
    }

    @Test
    void withoutDiscardingTypeAheadItWouldHaveAnsweredThePrompt() throws Exception {
        // The same keys with the discard left out: what the discard is for.
        assertEquals("ANSWER [y]", prompt("no-flush", "y\n", "second\n"));
    }

    @Test
    void theLineTypedAfterThePromptIsTheAnswer() throws Exception {
        assertEquals("ANSWER [a]", prompt("plain", null, "a\n"));
    }

    @Test
    void ctrlCAtThePromptGivesNoAnswer() throws Exception {
        // ^C makes the terminal send SIGINT to aii; its handler cancels, and the read gives up.
        assertEquals("ANSWER none", prompt("plain", null, "\u0003"));
    }

    @Test
    void endOfInputAtThePromptGivesNoAnswer() throws Exception {
        assertEquals("ANSWER none", prompt("plain", null, "\u0004"));
    }

    @Test
    void withoutAControllingTerminalOpeningFails() throws Exception {
        // setsid: a new session, so no controlling terminal whatever the test runs under.
        ProcessBuilder pb = new ProcessBuilder();
        pb.command().add("setsid");
        pb.command().add("-w");
        pb.command().addAll(ChildJvm.withNativeAccess("open-tty"));
        Process p = pb.redirectErrorStream(true).start();
        String shown = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("OPEN-FAILED cannot open /dev/tty: No such device or address\n", shown);
    }
}
