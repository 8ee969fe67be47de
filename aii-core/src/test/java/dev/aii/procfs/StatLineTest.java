package dev.aii.procfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code /proc/<pid>/stat} lines, command names that look like fields included. */
class StatLineTest {

    private static final String TAIL = " 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 123456 2990080 390 18446744073709551615 0 0";

    @Test
    void theFieldsAfterTheCommandName() {
        assertEquals(Optional.of(new StatLine(42, 'S', 1, 40, 39, 123456)),
                StatLine.parse("42 (sleep) S 1 40 39" + TAIL));
    }

    @Test
    void aCommandNameWithSpacesAndParenthesesEndsAtTheLastOne() {
        assertEquals(Optional.of(new StatLine(42, 'Z', 7, 8, 9, 123456)),
                StatLine.parse("42 (a) b (c) d) Z 7 8 9" + TAIL));
    }

    @Test
    void whatIsNotSuchALineIsNothing() {
        assertEquals(Optional.empty(), StatLine.parse(""));
        assertEquals(Optional.empty(), StatLine.parse("42 (x) S 1 2"));
        assertEquals(Optional.empty(), StatLine.parse("42 (x) S one 2 3" + TAIL));
        assertEquals(Optional.empty(), StatLine.parse("42 (x) SS 1 2 3" + TAIL));
        assertEquals(Optional.empty(), StatLine.read(Path.of("/nonexistent/stat")));
    }

    @Test
    void thisProcessOnLinux() {
        Path self = Path.of("/proc/self/stat");
        assumeTrue(java.nio.file.Files.isRegularFile(self), "no /proc (not Linux)");
        StatLine line = StatLine.read(self).orElseThrow();
        assertEquals(ProcessHandle.current().pid(), line.pid());
        assertTrue(line.startTicks() > 0);
    }
}
