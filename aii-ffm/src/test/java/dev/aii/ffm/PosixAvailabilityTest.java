package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Whether the POSIX side works, and the words for when it does not. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PosixAvailabilityTest {

    @Test
    void withNativeAccessOnLinuxTheRunnerAndTerminalAreAvailable() {
        Posix.Available available = assertInstanceOf(Posix.Available.class, Posix.availability());
        assertTrue(Posix.available());
        assertTrue(available.runner() != null && available.terminal() != null);
    }

    @Test
    void withoutNativeAccessTheReasonAndTheFallbackWarningSayWhatIsLost() throws Exception {
        Process p = new ProcessBuilder(ChildJvm.command(List.of(), "availability")).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String reason = "the JVM was started without --enable-native-access=ALL-UNNAMED";
        assertEquals("AVAILABILITY Unavailable[reason=" + reason + "]\n"
                + "WARNING native access unavailable (" + reason + "); "
                + "commands can read this terminal and their background processes may outlive them\n"
                + "REFUSED native access unavailable: " + reason + "\n", out);
        // Nothing restricted was touched, so the JVM had nothing to warn about.
        assertEquals("", err);
    }
}
