package dev.aii.ffm.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The startup rehearsal of a spawn ({@link Spawner#rehearse}) sets up and
 * destroys what a command's spawn would, and nothing else happens: no
 * process is started and no descriptor is left open, however often it runs.
 */
class SpawnerRehearsalTest {

    @Test
    void aRehearsalStartsNothingAndLeavesNoDescriptorOpen() throws IOException {
        OsConstants os = OsConstants.forCurrentSystem(System.getProperty("os.name"), System.getProperty("os.arch"))
                .constants().orElseThrow();
        LibC libc = new LibC(os);
        Set<Long> childrenBefore = children();
        Set<String> fdsBefore = descriptors();
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            for (int i = 0; i < 50; i++) {
                assertEquals(0, Spawner.rehearse(calls, arena), "the C library takes the attributes and file actions");
            }
        }
        assertEquals(childrenBefore, children(), "no process was started");
        assertEquals(fdsBefore, descriptors(), "no descriptor was left open");
    }

    private static Set<Long> children() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    private static Set<String> descriptors() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return Set.of();   // macOS: no /proc; the process check above still holds
        }
        try (Stream<Path> list = Files.list(fds)) {
            List<String> names = list.map(p -> p.getFileName().toString()).toList();
            // the listing's own directory descriptor differs from call to call
            return names.stream().filter(n -> Files.exists(fds.resolve(n))).collect(Collectors.toSet());
        }
    }
}
