package dev.aii.llamacpp.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The thread count: AII_THREADS, else the cores the load average leaves free, at least one. */
class ThreadsTest {

    @Test
    void theCoresThatAreNotBusyCompute() {
        assertEquals(8, Threads.choose(Map.of(), 8, Optional.of(0.2)));
        assertEquals(6, Threads.choose(Map.of(), 8, Optional.of(1.6)));
        assertEquals(1, Threads.choose(Map.of(), 2, Optional.of(1.0)));
    }

    @Test
    void busyCoresLeaveOneThreadNeverNone() {
        assertEquals(1, Threads.choose(Map.of(), 2, Optional.of(2.15)));
        assertEquals(1, Threads.choose(Map.of(), 4, Optional.of(37.0)));
    }

    @Test
    void withoutALoadAverageEveryUsableCoreComputes() {
        assertEquals(4, Threads.choose(Map.of(), 4, Optional.empty()));
    }

    @Test
    void aiiThreadsOverridesTheChoice() {
        assertEquals(3, Threads.choose(Map.of("AII_THREADS", "3"), 2, Optional.of(2.0)));
        assertEquals(1, Threads.choose(Map.of("AII_THREADS", " 1 "), 8, Optional.of(0.0)));
    }

    @Test
    void aBadAiiThreadsIsIgnored() {
        for (String bad : new String[] {"", "0", "-2", "many", "1.5"}) {
            assertEquals(2, Threads.choose(Map.of("AII_THREADS", bad), 2, Optional.of(0.0)), bad);
        }
    }
}
