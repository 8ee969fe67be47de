package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The approval prompt's terminal, on a real pseudo-terminal: a second JVM
 * runs under util-linux {@code script}, and the test types on its keyboard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PosixTerminalTest {

    private static final Duration MAX = Duration.ofSeconds(60);

    /** Prompts with the given mode of {@link Scenarios}, answering with {@code typed}; returns the ANSWER line. */
    private static String prompt(String mode, String typeAhead, String typed) throws Exception {
        try (Pty pty = Pty.start(ChildJvm.withNativeAccess("prompt", mode))) {
            if (typeAhead != null) {
                pty.await("READY", MAX);
                pty.type(typeAhead);
            }
            pty.await("PROMPT> ", MAX);
            pty.type(typed);
            String answer = pty.lineStartingWith("ANSWER ", MAX);
            assertEquals("DESCRIPTORS 0", pty.lineStartingWith("DESCRIPTORS ", MAX), "the conversation left a descriptor open");
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
