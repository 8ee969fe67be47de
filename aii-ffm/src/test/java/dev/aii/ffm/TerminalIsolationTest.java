package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.testkit.PtyDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command cannot reach the terminal aii runs in, and Ctrl-C on it reaches
 * the command only through aii: real pseudo-terminals, as in an interactive
 * session.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TerminalIsolationTest {

    private static final Duration MAX = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void catDevTtyFailsAtOnceEvenWhenAiiHasATerminal() throws Exception {
        try (PtyDriver pty = ChildJvm.onPty(dir, "cat-tty-posix")) {
            assertEquals("JVM-HAS-TTY yes", pty.awaitLine("JVM-HAS-TTY ", MAX));
            assertEquals("RESULT exited 1 [/bin/cat: /dev/tty: No such device or address",
                    pty.awaitLine("RESULT ", MAX));
        }
    }

    /**
     * The limitation of the portable runner, shown with ProcessBuilder itself:
     * its child shares aii's controlling terminal, so {@code cat /dev/tty}
     * reads what the user types.
     */
    @Test
    void aProcessBuilderChildReadsTheUsersKeys() throws Exception {
        try (PtyDriver pty = ChildJvm.onPty(dir, "cat-tty-processbuilder")) {
            pty.awaitOutput("READY", MAX);
            pty.type("typed by the user\n");
            assertEquals("PB-READ [typed by the user]", pty.awaitLine("PB-READ ", MAX));
        }
    }

    @Test
    void ctrlCDuringACommandSendsSigintToItsGroupThroughAii() throws Exception {
        Path marker = dir.resolve("started");
        try (PtyDriver pty = ChildJvm.onPty(dir, "run-ctrl-c", marker.toString())) {
            pty.awaitOutput("RUNNING", MAX);
            // The command is in its own session: the terminal's SIGINT reaches aii alone, which passes it on.
            pty.type("\u0003");
            assertEquals("RESULT interrupted [got INT", pty.awaitLine("RESULT ", MAX));
        }
        assertEquals(true, Files.exists(marker));
    }
}
