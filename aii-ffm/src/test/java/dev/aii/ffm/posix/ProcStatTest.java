package dev.aii.ffm.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading {@code /proc/<pid>/stat}, whose second field is a command name that may hold anything. */
class ProcStatTest {

    private static final String TAIL = " 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 123456 2990080 390 18446744073709551615 0 0";

    @Test
    void theFieldsAfterTheCommandNameAreRead() {
        assertEquals(Optional.of(new ProcStat(42, 'S', 1, 40, 39, 123456)),
                ProcStat.parse("42 (sleep) S 1 40 39" + TAIL));
    }

    @Test
    void aCommandNameWithSpacesAndParenthesesDoesNotShiftTheFields() {
        assertEquals(Optional.of(new ProcStat(42, 'Z', 7, 8, 9, 123456)),
                ProcStat.parse("42 (a) b (c) d) Z 7 8 9" + TAIL));
    }

    @Test
    void somethingElseIsNoProcess() {
        assertEquals(Optional.empty(), ProcStat.parse(""));
        assertEquals(Optional.empty(), ProcStat.parse("42 (x) S 1 2"));
        assertEquals(Optional.empty(), ProcStat.parse("42 (x) S one 2 3" + TAIL));
    }

    @Test
    void thisProcessIsFoundAliveAndAZombieIsNot() {
        int self = (int) ProcessHandle.current().pid();
        assertEquals(true, ProcStat.of(self).orElseThrow().alive());
        assertEquals(false, new ProcStat(1, 'Z', 0, 0, 0, 0).alive());
        assertEquals(Optional.empty(), ProcStat.of(-5));
    }
}
