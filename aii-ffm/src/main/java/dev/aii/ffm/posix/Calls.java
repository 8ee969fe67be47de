package dev.aii.ffm.posix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * The C calls of one thread, with their own {@code errno} capture: each
 * method returns what the C function returned, and {@link #errno()} tells why
 * the last call failed. Retries {@code EINTR} where a retry is always right.
 * Memory comes from the arena given, which must outlive this object; so must
 * every segment passed in, which must be native (on Linux most calls go
 * through {@code syscall(2)}, see {@link LibC#raw}, and pass its address).
 *
 * <p>Never signalled, whatever a caller passes: process group 0 or 1
 * ({@code killpg}) and process 0, 1 or a negative id ({@code kill}), which
 * would mean this process's own group, every process, or init.
 */
public final class Calls {

    private final LibC c;
    private final OsConstants os;
    private final Arena arena;
    private final MemorySegment state;
    private final MemorySegment intPair;
    private final MemorySegment pollfd;
    /** With raw system calls: ppoll's {@code struct timespec}. */
    private final MemorySegment timespec;
    private final LinuxSyscalls sys;

    public Calls(LibC libc, Arena arena) {
        this.c = libc;
        this.os = libc.os;
        this.arena = arena;
        this.state = arena.allocate(LibC.CAPTURE_LAYOUT);
        this.intPair = arena.allocate(JAVA_INT, 2);
        this.pollfd = arena.allocate(OsConstants.POLLFD_SIZE, 8);
        this.sys = libc.raw;
        this.timespec = sys == null ? null : arena.allocate(16, 8);
    }

    public OsConstants os() {
        return os;
    }

    public LibC libc() {
        return c;
    }

    /** The {@code errno} the last failing call left. */
    public int errno() {
        return (int) LibC.ERRNO.get(state, 0L);
    }

    /** The words for the last {@code errno}. */
    public String errnoText() {
        return Errno.describe(os, errno());
    }

    private boolean interrupted() {
        return errno() == os.errno(Errno.EINTR);
    }

    /** {@code syscall(number, a, b, c, d, e)}: the kernel's return, or -1 with {@link #errno()}. */
    private long sys(long number, long a, long b, long c3, long d, long e) throws Throwable {
        return (long) c.syscall.invokeExact(state, number, a, b, c3, d, e);
    }

    /** The address of a segment the kernel reads or writes: native, and alive while the call runs. */
    private static long address(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("not native memory: " + segment);
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("memory already freed: " + segment);
        }
        return segment.address();
    }

    private static void checkRoom(MemorySegment buffer, long count) {
        if (count < 0 || count > buffer.byteSize()) {
            throw new IndexOutOfBoundsException(count + " bytes for a buffer of " + buffer.byteSize());
        }
    }

    /** Sets {@link #errno()} back to what a failed call left before a clean-up call changed it. */
    void restoreErrno(int saved) {
        LibC.ERRNO.set(state, 0L, saved);
    }

    /** Fails without a call, as the call itself would with {@code e}. */
    private int refuse(Errno e) {
        LibC.ERRNO.set(state, 0L, os.errno(e));
        return -1;
    }

    /** Linux, raw system calls only: {@code getpid()}, which {@link Probe} checks the numbers with. */
    long getpid() {
        try {
            return sys(sys.getpid(), 0, 0, 0, 0, 0);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    public int open(String path, int flags) {
        MemorySegment p = arena.allocateFrom(path, StandardCharsets.UTF_8);
        try {
            int fd;
            do {
                fd = sys != null
                        ? (int) sys(sys.openat(), LinuxSyscalls.AT_FDCWD, address(p), flags, 0, 0)
                        : (int) c.open.handle().invokeExact(state, p, flags, 0);
            } while (fd < 0 && interrupted());
            return fd;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** Closes {@code fd}; never retried, since after EINTR the descriptor is gone on Linux and macOS alike. */
    public int close(int fd) {
        try {
            return sys != null
                    ? (int) sys(sys.close(), fd, 0, 0, 0, 0)
                    : (int) c.close.handle().invokeExact(state, fd);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    public long read(int fd, MemorySegment buffer, long count) {
        checkRoom(buffer, count);
        try {
            long n;
            do {
                n = sys != null
                        ? sys(sys.read(), fd, address(buffer), count, 0, 0)
                        : (long) c.read.handle().invokeExact(state, fd, buffer, count);
            } while (n < 0 && interrupted());
            return n;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    public long write(int fd, MemorySegment buffer, long count) {
        checkRoom(buffer, count);
        try {
            long n;
            do {
                n = sys != null
                        ? sys(sys.write(), fd, address(buffer), count, 0, 0)
                        : (long) c.write.handle().invokeExact(state, fd, buffer, count);
            } while (n < 0 && interrupted());
            return n;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** Whether {@link #splice} can be called: Linux, with a C library that has it. */
    public boolean hasSplice() {
        return c.splice.isPresent();
    }

    /**
     * Linux {@code splice(in, NULL, out, NULL, count, flags)}: moves up to
     * {@code count} bytes from the pipe {@code in} to {@code out} inside the
     * kernel, retried on EINTR.
     *
     * @return the bytes moved, 0 at the end of the pipe, or -1 with {@link #errno()}
     */
    public long splice(int in, int out, long count, int flags) {
        try {
            MethodHandle splice = c.splice.orElseThrow().handle();
            long n;
            do {
                n = (long) splice.invokeExact(state, in, MemorySegment.NULL, out, MemorySegment.NULL, count, flags);
            } while (n < 0 && interrupted());
            return n;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /**
     * Waits up to {@code timeoutMillis} for {@code events} on {@code fd}, or
     * just sleeps when {@code fd} is negative (poll ignores such entries).
     *
     * @return the revents, 0 on timeout or interruption, -1 on error
     */
    public short poll(int fd, short events, int timeoutMillis) {
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(JAVA_SHORT, 4, events);
        pollfd.set(JAVA_SHORT, OsConstants.POLLFD_REVENTS_OFFSET, (short) 0);
        try {
            int n = poll(pollfd, 1, timeoutMillis);
            if (n < 0) {
                return interrupted() ? 0 : (short) -1;
            }
            return n == 0 ? 0 : pollfd.get(JAVA_SHORT, OsConstants.POLLFD_REVENTS_OFFSET);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /**
     * Waits up to {@code timeoutMillis} (-1: for ever) until {@code first}
     * or {@code second} has one of its events (POLLERR, POLLHUP and POLLNVAL
     * are always reported).
     *
     * @return the revents of {@code first} in the low 16 bits and of
     *         {@code second} in the next 16; 0 on timeout or interruption; -1 on error
     */
    public int poll(int first, short firstEvents, int second, short secondEvents, int timeoutMillis) {
        MemorySegment fds = arena.allocate(OsConstants.POLLFD_SIZE * 2L, 8);
        fds.set(JAVA_INT, 0, first);
        fds.set(JAVA_SHORT, 4, firstEvents);
        fds.set(JAVA_INT, OsConstants.POLLFD_SIZE, second);
        fds.set(JAVA_SHORT, OsConstants.POLLFD_SIZE + 4L, secondEvents);
        try {
            int n = poll(fds, 2, timeoutMillis);
            if (n < 0) {
                return interrupted() ? 0 : -1;
            }
            if (n == 0) {
                return 0;
            }
            int a = fds.get(JAVA_SHORT, OsConstants.POLLFD_REVENTS_OFFSET) & 0xffff;
            int b = fds.get(JAVA_SHORT, OsConstants.POLLFD_SIZE + OsConstants.POLLFD_REVENTS_OFFSET) & 0xffff;
            return a | b << 16;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** poll(2); with raw system calls ppoll(2) without a signal mask, which is poll on every architecture. */
    private int poll(MemorySegment fds, long count, int timeoutMillis) throws Throwable {
        if (sys == null) {
            return (int) c.poll.handle().invokeExact(state, fds, count, timeoutMillis);
        }
        long timeout = 0;
        if (timeoutMillis >= 0) {
            timespec.set(JAVA_LONG, 0, timeoutMillis / 1000);
            timespec.set(JAVA_LONG, 8, (timeoutMillis % 1000) * 1_000_000L);
            timeout = address(timespec);
        }
        return (int) sys(sys.ppoll(), address(fds), count, timeout, 0, 0);
    }

    public int fcntl(int fd, int cmd, int arg) {
        try {
            return sys != null
                    ? (int) sys(sys.fcntl(), fd, cmd, arg, 0, 0)
                    : (int) c.fcntl.handle().invokeExact(state, fd, cmd, arg);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /**
     * Makes a pipe whose two ends are close-on-exec from the start (glibc
     * {@code pipe2}; macOS has no pipe2, so {@code pipe} then {@code fcntl}).
     *
     * @return {read end, write end}, or null when it failed (see {@link #errno()})
     */
    public int[] pipeCloexec() {
        try {
            int rc = sys != null ? (int) sys(sys.pipe2(), address(intPair), os.oCloexec(), 0, 0, 0)
                    : c.pipe2.isPresent() ? (int) c.pipe2.get().handle().invokeExact(state, intPair, os.oCloexec())
                    : (int) c.pipe.handle().invokeExact(state, intPair);
            if (rc != 0) {
                return null;
            }
            int[] fds = {intPair.getAtIndex(JAVA_INT, 0), intPair.getAtIndex(JAVA_INT, 1)};
            if (c.pipe2.isEmpty()) {
                for (int fd : fds) {
                    if (fcntl(fd, OsConstants.F_SETFD, OsConstants.FD_CLOEXEC) != 0) {
                        int saved = errno();
                        close(fds[0]);
                        close(fds[1]);
                        restoreErrno(saved);
                        return null;
                    }
                }
            }
            return fds;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** {@code killpg(pgid, signal)}; refused (EINVAL) for a group below 2. */
    public int killpg(int pgid, int signal) {
        if (pgid <= 1) {
            return refuse(Errno.EINVAL);
        }
        try {
            return sys != null
                    ? (int) sys(sys.kill(), -(long) pgid, signal, 0, 0, 0)
                    : (int) c.killpg.handle().invokeExact(state, pgid, signal);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** {@code kill(pid, signal)} of one process; refused (EINVAL) for an id below 2, which names a group or init. */
    public int kill(int pid, int signal) {
        if (pid <= 1) {
            return refuse(Errno.EINVAL);
        }
        try {
            return sys != null
                    ? (int) sys(sys.kill(), pid, signal, 0, 0, 0)
                    : (int) c.kill.handle().invokeExact(state, pid, signal);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /**
     * Sends {@code signal} to the calling thread. For SIGSTOP that stops the
     * whole process before the call returns, where {@code kill} on the
     * process could let this thread run on a moment (another thread may take
     * the signal).
     */
    public int raise(int signal) {
        try {
            return (int) c.raise.handle().invokeExact(state, signal);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** Linux {@code prctl(option, arg2)}; -1 with {@link #errno()} on failure. */
    public int prctl(int option, long arg2) {
        try {
            return sys != null
                    ? (int) sys(sys.prctl(), option, arg2, 0, 0, 0)
                    : (int) c.prctl.orElseThrow().handle().invokeExact(state, option, arg2);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /**
     * Linux {@code pidfd_open(pid, 0)}: a descriptor that names this process
     * and no later one with the same id.
     *
     * @return the descriptor (close-on-exec), or -1 with {@link #errno()}
     */
    public int pidfdOpen(int pid) {
        try {
            return sys != null
                    ? (int) sys(OsConstants.SYS_PIDFD_OPEN, pid, 0, 0, 0, 0)
                    : (int) (long) c.syscall2.orElseThrow().handle().invokeExact(state, OsConstants.SYS_PIDFD_OPEN,
                            (long) pid, 0L);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** Linux {@code pidfd_send_signal(pidfd, signal, NULL, 0)}; 0, or -1 with {@link #errno()}. */
    public int pidfdSendSignal(int pidfd, int signal) {
        try {
            return sys != null
                    ? (int) sys(OsConstants.SYS_PIDFD_SEND_SIGNAL, pidfd, signal, 0, 0, 0)
                    : (int) (long) c.syscall4.orElseThrow().handle().invokeExact(state,
                            OsConstants.SYS_PIDFD_SEND_SIGNAL, (long) pidfd, (long) signal, 0L, 0L);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** {@code waitid(P_PID, pid, info, options)}, retried on EINTR. */
    public int waitid(int pid, MemorySegment info, int options) {
        try {
            int rc;
            do {
                rc = sys != null
                        ? (int) sys(sys.waitid(), OsConstants.P_PID, pid, address(info), options, 0)
                        : (int) c.waitid.handle().invokeExact(state, OsConstants.P_PID, pid, info, options);
            } while (rc < 0 && interrupted());
            return rc;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** {@code waitpid(pid, &status, options)}, retried on EINTR. */
    public int waitpid(int pid, MemorySegment status, int options) {
        try {
            int rc;
            do {
                rc = sys != null
                        ? (int) sys(sys.wait4(), pid, address(status), options, 0, 0)
                        : (int) c.waitpid.handle().invokeExact(state, pid, status, options);
            } while (rc < 0 && interrupted());
            return rc;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    public int tcflush(int fd, int queue) {
        try {
            return (int) c.tcflush.handle().invokeExact(state, fd, queue);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** The current {@code char **environ} (read at each call: setenv may move it). */
    @SuppressWarnings("restricted")
    public MemorySegment environ() {
        try {
            if (c.environ.isPresent()) {
                return c.environ.get().get(ADDRESS, 0);
            }
            MemorySegment pointerToEnviron = (MemorySegment) c.nsGetEnviron.orElseThrow().invokeExact();
            return pointerToEnviron.reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }
}
