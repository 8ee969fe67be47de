package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fixed words for error numbers are what the C library's strerror says in the C locale. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ErrnoWordsTest {

    @Test
    void errnoWordsAreTheCLibrarysWordsInTheCLocale() throws Exception {
        // strerror follows the locale (and the JVM sets it from the environment), so ask in the C locale.
        ProcessBuilder pb = new ProcessBuilder(ChildJvm.withNativeAccess("strerror")).redirectErrorStream(true);
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        String shown = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), shown);
        long lines = 0;
        for (String line : shown.split("\n")) {
            assertTrue(line.startsWith("ERRNO "), shown);
            String ours = line.substring(line.indexOf('[') + 1, line.indexOf(']'));
            String theirs = line.substring(line.lastIndexOf('[') + 1, line.lastIndexOf(']'));
            assertEquals(theirs, ours, line);
            lines++;
        }
        assertEquals(Scenarios.currentSystem().errnos().size(), lines, shown);
    }
}
