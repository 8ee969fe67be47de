package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FileProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The operand guard on the real file system: FIFOs, devices and links to them, process files, /dev/null. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class OperandGuardOnDiskTest {

    @TempDir
    Path dir;
    ExecPolicy policy;

    @BeforeEach
    void files() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "x\n");
        Files.createDirectory(dir.resolve("sub"));
        Process p = new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start();
        assertEquals(0, p.waitFor());
        Files.createSymbolicLink(dir.resolve("tty"), Path.of("/dev/tty"));
        Files.createSymbolicLink(dir.resolve("zero"), Path.of("/dev/zero"));
        Files.createSymbolicLink(dir.resolve("null"), Path.of("/dev/null"));
        Files.createSymbolicLink(dir.resolve("me"), Path.of("/proc/self"));
        Files.createSymbolicLink(dir.resolve("up"), Path.of("/"));
        policy = ExecPolicy.of(Builtins.defaults(), SystemEnvironment.of(Map.of("PATH", "/usr/bin:/bin"), dir));
    }

    private String decide(String... argv) {
        Decision d = policy.evaluate(argv[0], List.of(argv).subList(1, argv.length));
        return d instanceof Decision.Allow ? "run" : d instanceof Decision.Ask ask ? "ask " + ask.guardReasons() : d.toString();
    }

    @Test
    void regularFilesDirectoriesAndDevNullRun() {
        assertEquals("run", decide("cat", "notes.txt"));
        assertEquals("run", decide("ls", "-la", "sub"));
        assertEquals("run", decide("cat", "null"));
        assertEquals("run", decide("cat", "/dev/null"));
        assertEquals("run", decide("head", "-n1", "missing.txt"));
    }

    @Test
    void fifosDevicesAndLinksToThemAsk() {
        assertEquals("ask [fifo is not a regular file or directory]", decide("cat", "fifo"));
        assertEquals("ask [tty is not a regular file or directory (it leads to /dev/tty)]", decide("head", "-n1", "tty"));
        assertEquals("ask [zero is not a regular file or directory (it leads to /dev/zero)]", decide("tail", "zero"));
        assertEquals("ask [/dev/zero is not a regular file or directory]", decide("head", "-n", "-1", "/dev/zero"));
        assertEquals("ask [sub/../zero is not a regular file or directory (it leads to /dev/zero)]",
                decide("cat", "sub/../zero"));
        assertEquals("ask [up/dev/zero is not a regular file or directory (it leads to /dev/zero)]",
                decide("cat", "up/dev/zero"));
        assertEquals("ask [this form of wc opens files named in another file, fifo is not a regular file or directory]",
                decide("wc", "--files0-from=fifo"));
    }

    @Test
    void processFilesAskWhateverTheyAreCalled() {
        FileProbe.Target self = SystemEnvironment.fileProbe().target(dir.resolve("me").toString());
        assertEquals(FileProbe.Kind.DIRECTORY, self.kind());
        assertEquals("ask [me/environ is under /proc/<pid>/ (it leads to " + self.realPath() + "/environ)]",
                decide("cat", "me/environ"));
        assertEquals("ask [/proc/self/environ is under /proc/self/]", decide("cat", "/proc/self/environ"));
        assertEquals("ask [/dev/stdin is under /dev/stdin]", decide("cat", "/dev/stdin"));
    }

    @Test
    void theProbeNeverOpensWhatItLooksAt() {
        // A FIFO with no writer would block an open; stat and realpath do not.
        assertEquals(FileProbe.Kind.OTHER, SystemEnvironment.fileProbe().target(dir.resolve("fifo").toString()).kind());
        assertEquals(FileProbe.Target.MISSING, SystemEnvironment.fileProbe().target(dir.resolve("nope").toString()));
    }
}
