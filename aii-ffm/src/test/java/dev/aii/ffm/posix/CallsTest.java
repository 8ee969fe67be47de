package dev.aii.ffm.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every call of {@link Calls}, made both ways aii can make it on Linux:
 * through {@code syscall(2)} with the kernel's numbers (what Linux uses) and
 * through the C library's function of the same name (what macOS uses). Each
 * case asserts the outcome and the errno the call gives, which must not
 * depend on the way. Linux only (the raw way is Linux's).
 */
class CallsTest {

    private static LibC libc(boolean raw) {
        OsConstants os = OsConstants.forCurrentSystem(System.getProperty("os.name"), System.getProperty("os.arch"))
                .constants().orElseThrow();
        assumeTrue(!os.isMacos(), "system calls by number are Linux's");
        Optional<LinuxSyscalls> numbers = raw ? LinuxSyscalls.forArch(System.getProperty("os.arch")) : Optional.empty();
        if (raw) {
            assertTrue(numbers.isPresent(), "numbers for " + System.getProperty("os.arch"));
        }
        LibC libc = new LibC(os, numbers);
        assertEquals(raw, libc.rawSyscalls());
        return libc;
    }

    @ParameterizedTest(name = "raw system calls: {0}")
    @ValueSource(booleans = {true, false})
    void openFcntlReadCloseAndTheirErrors(boolean raw) {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc(raw), arena);
            OsConstants os = calls.os();
            int fd = calls.open("/dev/null", OsConstants.O_RDONLY | os.oCloexec());
            assertTrue(fd >= 0, calls.errnoText());
            assertEquals(OsConstants.FD_CLOEXEC, calls.fcntl(fd, OsConstants.F_GETFD, 0) & OsConstants.FD_CLOEXEC);
            assertEquals(0, calls.read(fd, arena.allocate(16), 16), "end of file");
            assertEquals(0, calls.close(fd));
            assertEquals(-1, calls.close(fd));
            assertEquals(os.errno(Errno.EBADF), calls.errno());
            assertEquals(-1, calls.fcntl(fd, OsConstants.F_GETFD, 0));
            assertEquals(os.errno(Errno.EBADF), calls.errno());

            assertEquals(-1, calls.open("/nonexistent-aii-test/x", OsConstants.O_RDONLY));
            assertEquals(os.errno(Errno.ENOENT), calls.errno());
            assertEquals(-1, calls.open("/dev/null/x", OsConstants.O_RDONLY));
            assertEquals(os.errno(Errno.ENOTDIR), calls.errno());
            // relative to the working directory, as open(2) is (openat's AT_FDCWD)
            int here = calls.open(".", OsConstants.O_RDONLY | os.oCloexec());
            assertTrue(here >= 0, calls.errnoText());
            calls.close(here);
        }
    }

    @ParameterizedTest(name = "raw system calls: {0}")
    @ValueSource(booleans = {true, false})
    void aPipeCarriesBytesAndPollSeesThem(boolean raw) {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc(raw), arena);
            OsConstants os = calls.os();
            int[] pipe = calls.pipeCloexec();
            assertTrue(pipe != null, calls.errnoText());
            try {
                for (int end : pipe) {
                    assertEquals(OsConstants.FD_CLOEXEC, calls.fcntl(end, OsConstants.F_GETFD, 0) & OsConstants.FD_CLOEXEC);
                }
                assertEquals(0, calls.poll(pipe[0], OsConstants.POLLIN, 0), "nothing to read yet");
                assertEquals(0, calls.poll(pipe[0], OsConstants.POLLIN, 20), "a timeout below a second");
                MemorySegment data = arena.allocateFrom("abc", StandardCharsets.US_ASCII);
                assertEquals(3, calls.write(pipe[1], data, 3));
                // more than a second: ppoll's timespec must carry the seconds apart (an overflowed nanosecond field is EINVAL)
                assertEquals(OsConstants.POLLIN, calls.poll(pipe[0], OsConstants.POLLIN, 2_500) & OsConstants.POLLIN);
                assertEquals(OsConstants.POLLIN, calls.poll(pipe[0], OsConstants.POLLIN, -1) & OsConstants.POLLIN);
                int both = calls.poll(pipe[1], (short) 0, pipe[0], OsConstants.POLLIN, 1_001);
                assertEquals(OsConstants.POLLIN, (both >>> 16) & OsConstants.POLLIN, "the second descriptor's events");
                assertEquals(0, both & 0xffff, "the first asked for nothing");
                MemorySegment into = arena.allocate(8);
                assertEquals(3, calls.read(pipe[0], into, 8));
                assertEquals("abc", new String(into.asSlice(0, 3).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII));

                int flags = calls.fcntl(pipe[0], OsConstants.F_GETFL, 0);
                assertEquals(0, calls.fcntl(pipe[0], OsConstants.F_SETFL, flags | os.oNonblock()));
                assertEquals(-1, calls.read(pipe[0], into, 8));
                assertEquals(os.errno(Errno.EAGAIN), calls.errno());

                calls.close(pipe[1]);
                pipe[1] = -1;
                assertNotEquals(0, calls.poll(pipe[0], OsConstants.POLLIN, 1_000) & (OsConstants.POLLIN | OsConstants.POLLHUP),
                        "the writer left");
                assertEquals(0, calls.read(pipe[0], into, 8));
                assertEquals(OsConstants.POLLNVAL, calls.poll(999_999, OsConstants.POLLIN, 0) & OsConstants.POLLNVAL);
            } finally {
                calls.close(pipe[0]);
                if (pipe[1] >= 0) {
                    calls.close(pipe[1]);
                }
            }
        }
    }

    @ParameterizedTest(name = "raw system calls: {0}")
    @ValueSource(booleans = {true, false})
    void memoryThatIsNotThereIsRefusedBeforeTheCall(boolean raw) {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc(raw), arena);
            int fd = calls.open("/dev/zero", OsConstants.O_RDONLY | calls.os().oCloexec());
            try {
                MemorySegment four = arena.allocate(4);
                assertThrows(IndexOutOfBoundsException.class, () -> calls.read(fd, four, 5), "more than the buffer holds");
                assertThrows(IndexOutOfBoundsException.class, () -> calls.write(fd, four, -1));
                assertThrows(IllegalArgumentException.class, () -> calls.read(fd, MemorySegment.ofArray(new byte[8]), 8),
                        "heap memory has no address the kernel could use");
                MemorySegment freed;
                try (Arena gone = Arena.ofConfined()) {
                    freed = gone.allocate(8);
                }
                MemorySegment dangling = freed;
                assertThrows(IllegalStateException.class, () -> calls.read(fd, dangling, 8), "freed memory");
                assertEquals(4, calls.read(fd, four, 4));
            } finally {
                calls.close(fd);
            }
        }
    }

    @ParameterizedTest(name = "raw system calls: {0}")
    @ValueSource(booleans = {true, false})
    void signalsReachOneProcessOrOneGroupAndNeverAWiderSet(boolean raw) throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc(raw), arena);
            OsConstants os = calls.os();
            // 0, 1 and below: this process's own group, init, every process. Refused without a call.
            for (int pid : new int[] {0, 1, -1, -2, Integer.MIN_VALUE}) {
                assertEquals(-1, calls.kill(pid, 0), "kill " + pid);
                assertEquals(os.errno(Errno.EINVAL), calls.errno());
                assertEquals(-1, calls.killpg(pid, 0), "killpg " + pid);
                assertEquals(os.errno(Errno.EINVAL), calls.errno());
            }
            int self = (int) ProcessHandle.current().pid();
            assertEquals(0, calls.kill(self, 0), "signal 0 to this process: it exists");
            assertEquals(-1, calls.kill(Integer.MAX_VALUE, 0));
            assertEquals(os.errno(Errno.ESRCH), calls.errno());

            // setsid: a process that leads a group of its own, with the id of the process (not a group leader, so no fork)
            Process leader = new ProcessBuilder("setsid", "sleep", "60").start();
            Process other = new ProcessBuilder("sleep", "60").start();
            try {
                int pid = (int) leader.pid();
                awaitGroupLeader(pid);
                assertEquals(0, calls.killpg(pid, 9));
                assertTrue(leader.waitFor(10, TimeUnit.SECONDS), "the group was killed");
                assertEquals(0, calls.kill((int) other.pid(), 15));
                assertTrue(other.waitFor(10, TimeUnit.SECONDS), "the process was terminated");
                assertEquals(143, other.exitValue());
            } finally {
                leader.destroyForcibly();
                other.destroyForcibly();
            }
        }
    }

    @ParameterizedTest(name = "raw system calls: {0}")
    @ValueSource(booleans = {true, false})
    void waitsPrctlAndPidfds(boolean raw) {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc(raw), arena);
            OsConstants os = calls.os();
            MemorySegment info = arena.allocate(os.siginfoSize(), 8);
            assertEquals(-1, calls.waitid(1, info, OsConstants.WEXITED | OsConstants.WNOHANG | os.wNowait()));
            assertEquals(os.errno(Errno.ECHILD), calls.errno());
            assertEquals(-1, calls.waitpid(1, arena.allocate(ValueLayout.JAVA_INT), OsConstants.WNOHANG));
            assertEquals(os.errno(Errno.ECHILD), calls.errno());

            // PR_GET_DUMPABLE (3) answers in its return value: 1 for a process nobody changed
            assertEquals(1, calls.prctl(3, 0));
            assertEquals(-1, calls.prctl(-12345, 0));
            assertEquals(os.errno(Errno.EINVAL), calls.errno());

            int pidfd = calls.pidfdOpen((int) ProcessHandle.current().pid());
            assertTrue(pidfd >= 0, calls.errnoText());
            try {
                assertEquals(OsConstants.FD_CLOEXEC, calls.fcntl(pidfd, OsConstants.F_GETFD, 0) & OsConstants.FD_CLOEXEC);
                assertEquals(0, calls.pidfdSendSignal(pidfd, 0), "signal 0 through the descriptor");
            } finally {
                calls.close(pidfd);
            }
            assertEquals(-1, calls.pidfdOpen(Integer.MAX_VALUE));
            assertEquals(os.errno(Errno.ESRCH), calls.errno());
        }
    }

    @ParameterizedTest(name = "raw system calls: {0}")
    @ValueSource(booleans = {true, false})
    void aCommandRunsAndATimedOutOneIsStopped(boolean raw) {
        LibC libc = libc(raw);
        Lifetimes lifetimes = new Lifetimes(libc);
        RunResult done = CommandRun.run(libc, lifetimes, "/bin/sh", List.of("-c", "echo hello; exit 3"), Limits.DEFAULT,
                new Cancellation());
        RunResult.Exited exited = assertInstanceOf(RunResult.Exited.class, done);
        assertEquals(3, exited.status());
        assertEquals("hello\n", new String(exited.output().head(), StandardCharsets.UTF_8));

        RunResult slow = CommandRun.run(libc, lifetimes, "/bin/sh", List.of("-c", "echo started; exec sleep 60"),
                Limits.DEFAULT.withTimeout(Duration.ofMillis(300)).withKillGrace(Duration.ofMillis(200)), new Cancellation());
        RunResult.TimedOut timedOut = assertInstanceOf(RunResult.TimedOut.class, slow);
        assertEquals("started\n", new String(timedOut.output().head(), StandardCharsets.UTF_8));

        assertFalse(Probe.check(libc).isPresent(), () -> Probe.check(libc).orElseThrow());
    }

    private static void awaitGroupLeader(int pid) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            Optional<ProcStat> stat = ProcStat.of(pid);
            if (stat.isPresent() && stat.get().pgrp() == pid) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("process " + pid + " did not lead its own group");
    }
}
