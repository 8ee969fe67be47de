package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        try (Pty pty = Pty.start(ChildJvm.withNativeAccess("cat-tty-posix"))) {
            assertEquals("JVM-HAS-TTY yes", pty.lineStartingWith("JVM-HAS-TTY ", MAX));
            assertEquals("RESULT exited 1 [/bin/cat: /dev/tty: No such device or address",
                    pty.lineStartingWith("RESULT ", MAX));
        }
    }

    /**
     * The limitation of the portable runner, shown with ProcessBuilder itself:
     * its child shares aii's controlling terminal, so {@code cat /dev/tty}
     * reads what the user types.
     */
    @Test
    void aProcessBuilderChildReadsTheUsersKeys() throws Exception {
        try (Pty pty = Pty.start(ChildJvm.withNativeAccess("cat-tty-processbuilder"))) {
            pty.await("READY", MAX);
            pty.type("typed by the user\n");
            assertEquals("PB-READ [typed by the user]", pty.lineStartingWith("PB-READ ", MAX));
        }
    }

    @Test
    void ctrlCDuringACommandSendsSigintToItsGroupThroughAii() throws Exception {
        Path marker = dir.resolve("started");
        try (Pty pty = Pty.start(ChildJvm.withNativeAccess("run-ctrl-c", marker.toString()))) {
            pty.await("RUNNING", MAX);
            // The command is in its own session: the terminal's SIGINT reaches aii alone, which passes it on.
            pty.type("\u0003");
            assertEquals("RESULT interrupted [got INT", pty.lineStartingWith("RESULT ", MAX));
        }
        assertEquals(true, Files.exists(marker));
    }
}
