package dev.aii.cli.process;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When aii ends by System.exit (a library's hooks to run, JVM options given) and when by Runtime.halt; ProcessEndE2E runs both. */
class ProcessEndTest {

    @Test
    void aLibrarysHooksOrJavaOptionsMeanSystemExit() {
        assertFalse(ProcessEnd.byExit(false, Map.of()));
        assertFalse(ProcessEnd.byExit(false, Map.of("AII_JAVA_OPTS", "")));
        assertFalse(ProcessEnd.byExit(false, Map.of("AII_JAVA_OPTS", "  ")));
        assertFalse(ProcessEnd.byExit(false, Map.of("AII_DEBUG", "1")));
        assertTrue(ProcessEnd.byExit(false, Map.of("AII_JAVA_OPTS", "-XX:StartFlightRecording")));
        assertTrue(ProcessEnd.byExit(true, Map.of()));
    }
}
