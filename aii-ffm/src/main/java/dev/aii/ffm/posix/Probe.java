package dev.aii.ffm.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * Checks at startup that the constants of {@link OsConstants} (and on Linux
 * the system call numbers of {@link LinuxSyscalls}) fit the running system,
 * by calls whose outcome they decide: a wrong value fails here, with a
 * reason, instead of misbehaving later with a user's command.
 */
public final class Probe {

    private Probe() {
    }

    /** @return why the C library does not behave as the constants say, or empty when it does */
    public static Optional<String> check(LibC libc) {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            OsConstants os = calls.os();
            // First, since a table for another architecture would make every later call another one.
            if (libc.rawSyscalls() && calls.getpid() != ProcessHandle.current().pid()) {
                return Optional.of("the system call numbers are not this architecture's (" + libc.raw.arch() + ")");
            }
            int fd = calls.open("/dev/null", OsConstants.O_RDONLY | os.oCloexec() | os.oNoctty());
            if (fd < 0) {
                return Optional.of("cannot open /dev/null: " + calls.errnoText());
            }
            try {
                int flags = calls.fcntl(fd, OsConstants.F_GETFD, 0);
                if (flags < 0 || (flags & OsConstants.FD_CLOEXEC) == 0) {
                    return Optional.of("O_CLOEXEC does not set close-on-exec");
                }
                short revents = calls.poll(fd, OsConstants.POLLIN, 0);
                if ((revents & OsConstants.POLLIN) == 0) {
                    return Optional.of("poll does not report /dev/null readable");
                }
                if (calls.read(fd, arena.allocate(1), 1) != 0) {
                    return Optional.of("reading /dev/null does not give end of file");
                }
            } finally {
                calls.close(fd);
            }
            if (calls.open("/nonexistent-aii-probe/x", OsConstants.O_RDONLY) >= 0
                    || calls.errno() != os.errno(Errno.ENOENT)) {
                return Optional.of("errno is not captured as expected");
            }
            MemorySegment info = arena.allocate(os.siginfoSize(), 8);
            // Process 1 is never this JVM's child: a known answer, and a wrong WNOWAIT would be EINVAL instead.
            if (calls.waitid(1, info, OsConstants.WEXITED | OsConstants.WNOHANG | os.wNowait()) == 0
                    || calls.errno() != os.errno(Errno.ECHILD)) {
                return Optional.of("waitid does not accept the wait options (" + calls.errnoText() + ")");
            }
            int setup = Spawner.rehearse(calls, arena);
            if (setup != 0) {
                return Optional.of("cannot set up posix_spawn (" + Errno.describe(os, setup) + ")");
            }
            return Optional.empty();
        }
    }
}
