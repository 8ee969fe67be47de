package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.ffm.posix.Calls;
import dev.aii.ffm.posix.LibC;
import dev.aii.ffm.posix.OsConstants;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a command started by the POSIX runner can reach of aii's process: no terminal, no descriptors, no signal state (Linux /proc). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PosixIsolationTest {

    private final PosixCommandRunner runner = new PosixCommandRunner();

    @TempDir
    Path dir;

    private String output(String path, String... arguments) {
        RunResult.Exited exited = assertInstanceOf(RunResult.Exited.class,
                runner.run(path, List.of(arguments), Limits.DEFAULT.withOutputCap(65536), new Cancellation()));
        return exited.output().text();
    }

    @Test
    void theCommandHasNoControllingTerminal() {
        assertEquals("exited 1 [/bin/cat: /dev/tty: No such device or address\n]", Scenarios.describe(
                runner.run("/bin/cat", List.of("/dev/tty"), Limits.DEFAULT, new Cancellation())));
    }

    @Test
    void theCommandLeadsItsOwnSessionAndProcessGroup() {
        String stat = output("/bin/cat", "/proc/self/stat");
        String pid = stat.substring(0, stat.indexOf(' '));
        // after "(comm)": state ppid pgrp session tty_nr
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        assertEquals(List.of(pid, pid, "0"), List.of(fields[2], fields[3], fields[4]), "pgrp, session, tty of " + stat);
    }

    @Test
    void theCommandInheritsNoDescriptorButStdinStdoutAndStderr() {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(new LibC(OsConstants.LINUX), arena);
            // A descriptor that any plain fork and exec would pass on: opened here without O_CLOEXEC.
            int leaky = calls.open(dir.toString(), OsConstants.O_RDONLY);
            assertTrue(leaky > 2, "open failed: " + calls.errnoText());
            try {
                assertEquals(0, calls.fcntl(leaky, OsConstants.F_GETFD, 0) & OsConstants.FD_CLOEXEC);
                Map<Integer, String> fds = descriptors(output("/bin/ls", "-l", "/proc/self/fd"));
                // 3 is ls's own handle on the directory it lists, opened after the exec.
                assertEquals(List.of(0, 1, 2, 3), List.copyOf(fds.keySet()), fds.toString());
                assertEquals("/dev/null", fds.get(0));
                assertTrue(fds.get(1).startsWith("pipe:["), fds.toString());
                assertEquals(fds.get(1), fds.get(2));
                assertTrue(fds.get(3).matches("/proc/[0-9]+/fd"), fds.toString());
            } finally {
                calls.close(leaky);
            }
        }
    }

    /**
     * aii opens /dev/null for a command's stdin itself. Where its own
     * descriptor 0 is free that would be descriptor 0, which the duplication
     * onto the command's 0 must not confuse (the output pipe may land on 0
     * as well): the command still gets /dev/null on 0 and the pipe on 1 and
     * 2, and nothing else.
     */
    @Test
    void withTheJvmsOwnStdinClosedTheCommandStillReadsDevNullAndInheritsNothingElse() throws Exception {
        Process p = new ProcessBuilder(ChildJvm.withNativeAccess("fd0-closed")).redirectErrorStream(true).start();
        String shown = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        int start = shown.indexOf("RESULT exited 0 [");
        assertTrue(start >= 0, shown);
        Map<Integer, String> fds = descriptors(shown.substring(start + "RESULT exited 0 [".length(), shown.lastIndexOf(']')));
        assertEquals(List.of(0, 1, 2, 3), List.copyOf(fds.keySet()), fds.toString());
        assertEquals("/dev/null", fds.get(0));
        assertTrue(fds.get(1).startsWith("pipe:["), fds.toString());
        assertEquals(fds.get(1), fds.get(2));
        // opened on the free 0, then moved to 3 or above, close-on-exec, and 0 freed again
        assertTrue(shown.contains("DEVNULL true /dev/null cloexec=1 fd0=free"), shown);
    }

    @Test
    void theCommandStartsWithAnEmptySignalMaskAndDefaultDispositions() {
        assertSignalsAtDefault(output("/bin/cat", "/proc/self/status"));
    }

    @Test
    void signalsTheJvmInheritedAsIgnoredAreAtDefaultInTheCommand() throws Exception {
        // As under "trap '' USR1 TSTP TTOU; nohup aii": standard signals, job control, real-time ones (34-64).
        List<String> java = ChildJvm.withNativeAccess("status");
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c",
                "trap '' HUP INT QUIT PIPE TERM USR1 USR2 TSTP TTIN TTOU ALRM CHLD 34 40 50 64; exec nohup "
                        + ChildJvm.shellLine(java)).redirectErrorStream(true);
        Process p = pb.start();
        String shown = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertTrue(shown.contains("RESULT exited 0 ["), shown);
        assertSignalsAtDefault(shown);
    }

    /**
     * No signal blocked and none ignored: not even 32 and 33, which glibc's posix_spawn leaves ignored unless
     * asked to reset them (bit n-1 of the hex masks is signal n).
     */
    static void assertSignalsAtDefault(String status) {
        assertEquals("0000000000000000", field(status, "SigBlk"), "blocked signals");
        assertEquals("0000000000000000", field(status, "SigIgn"), "ignored signals");
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + status);
    }

    /** Descriptor number to target, from {@code ls -l /proc/self/fd}. */
    private static Map<Integer, String> descriptors(String listing) {
        Map<Integer, String> fds = new TreeMap<>();
        for (String line : listing.split("\n")) {
            int arrow = line.indexOf(" -> ");
            if (arrow > 0) {
                String before = line.substring(0, arrow);
                fds.put(Integer.parseInt(before.substring(before.lastIndexOf(' ') + 1)), line.substring(arrow + 4));
            }
        }
        return fds;
    }
}
