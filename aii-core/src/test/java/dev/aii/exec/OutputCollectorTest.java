package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutputCollectorTest {

    @Test
    void bytesPastTheCapAreCountedWhetherSeenOrNot() {
        OutputCollector collector = new OutputCollector(4);
        collector.accept("abcdef".getBytes(StandardCharsets.US_ASCII), 1, 3);
        assertFalse(collector.full());
        collector.accept("xyz".getBytes(StandardCharsets.US_ASCII), 0, 3);
        assertTrue(collector.full());
        collector.count(1_000_000_000_000L);
        assertEquals(new CapturedOutput("bcdx".getBytes(StandardCharsets.US_ASCII), 1_000_000_000_006L),
                collector.snapshot());
    }

    @Test
    void bytesCannotBeCountedUnseenWhileTheCapHasRoom() {
        OutputCollector collector = new OutputCollector(4);
        collector.accept(new byte[] {1, 2, 3}, 0, 3);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> collector.count(10));
        assertEquals("bytes can be counted unseen only once the 4 bytes of the cap are kept; 3 are", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new OutputCollector(0).count(-1));
        OutputCollector none = new OutputCollector(0);
        none.count(5);
        assertEquals(new CapturedOutput(new byte[0], 5), none.snapshot());
    }
}
