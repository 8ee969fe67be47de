package dev.aii.ffm.posix;

import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The numbers and layouts that differ between glibc (x86_64, aarch64) and
 * macOS, in one place. Values come from the systems' headers ({@code spawn.h},
 * {@code fcntl.h}, {@code sys/wait.h}, {@code termios.h}, {@code errno.h});
 * {@link Probe} checks at startup the ones a wrong value would silently break.
 *
 * @param name                 the platform, for messages
 * @param spawnSetsid          {@code POSIX_SPAWN_SETSID}
 * @param spawnCloexecDefault  {@code POSIX_SPAWN_CLOEXEC_DEFAULT}, 0 where the file action {@code addclosefrom_np} is used instead
 * @param oNoctty              {@code O_NOCTTY}
 * @param oCloexec             {@code O_CLOEXEC}
 * @param fDupfdCloexec        {@code F_DUPFD_CLOEXEC}
 * @param wNowait              {@code WNOWAIT}
 * @param tciflush             {@code TCIFLUSH}
 * @param siginfoSize          {@code sizeof(siginfo_t)}
 * @param siginfoPidOffset     {@code offsetof(siginfo_t, si_pid)}
 * @param nfdsLayout           the layout of {@code nfds_t}
 * @param errnos               errno values by symbolic name
 */
public record OsConstants(
        String name,
        short spawnSetsid,
        short spawnCloexecDefault,
        int oNoctty,
        int oCloexec,
        int fDupfdCloexec,
        int wNowait,
        int tciflush,
        long siginfoSize,
        long siginfoPidOffset,
        ValueLayout nfdsLayout,
        Map<Errno, Integer> errnos) {

    // The same on every supported system.
    public static final short SPAWN_SETSIGDEF = 0x04;
    public static final short SPAWN_SETSIGMASK = 0x08;
    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 1;
    public static final int O_RDWR = 2;
    public static final int F_GETFD = 1;
    public static final int F_SETFD = 2;
    public static final int F_GETFL = 3;
    public static final int F_SETFL = 4;
    /** Linux {@code splice(2)}: move pages rather than copy them where the kernel can. */
    public static final int SPLICE_F_MOVE = 1;
    /** Linux {@code splice(2)}: do not block on the pipe. */
    public static final int SPLICE_F_NONBLOCK = 2;
    public static final int FD_CLOEXEC = 1;
    public static final short POLLIN = 0x001;
    public static final short POLLERR = 0x008;
    public static final short POLLHUP = 0x010;
    public static final short POLLNVAL = 0x020;
    public static final int P_PID = 1;
    public static final int WNOHANG = 1;
    public static final int WEXITED = 4;
    public static final int CLD_EXITED = 1;
    public static final int CLD_KILLED = 2;
    public static final int CLD_DUMPED = 3;
    public static final long SIGINFO_CODE_OFFSET = 8;
    public static final int SIGHUP = 1;
    public static final int SIGINT = 2;
    public static final int SIGQUIT = 3;
    public static final int SIGKILL = 9;
    public static final int SIGPIPE = 13;
    public static final int SIGTERM = 15;
    /** {@code PR_SET_CHILD_SUBREAPER} (Linux {@code prctl}). */
    public static final int PR_SET_CHILD_SUBREAPER = 36;
    /** {@code SYS_pidfd_send_signal}: the same number on every Linux architecture (since 5.1). */
    public static final long SYS_PIDFD_SEND_SIGNAL = 424;
    /** {@code SYS_pidfd_open}: the same number on every Linux architecture (since 5.3). */
    public static final long SYS_PIDFD_OPEN = 434;
    /** sizeof(struct pollfd), with {@code revents} at offset 6 after {@code int fd; short events;}. */
    public static final long POLLFD_SIZE = 8;
    public static final long POLLFD_REVENTS_OFFSET = 6;
    /**
     * Room for {@code posix_spawnattr_t} and {@code posix_spawn_file_actions_t}
     * (glibc 336 and 80 bytes, macOS one pointer) and for {@code sigset_t}
     * (glibc 128 bytes, macOS 4): generous so a libc update cannot overrun it.
     */
    public static final long OPAQUE_SIZE = 512;
    public static final long OPAQUE_ALIGN = 16;

    public OsConstants {
        errnos = Map.copyOf(errnos);
        for (Errno e : Errno.values()) {
            if (e.portable() && !errnos.containsKey(e)) {
                throw new IllegalArgumentException(name + " lacks errno " + e);
            }
        }
    }

    /** glibc on Linux (x86_64 and aarch64 share these values). */
    public static final OsConstants LINUX = new OsConstants(
            "Linux", (short) 0x80, (short) 0, 0x100, 0x80000, 1030, 0x01000000, 0, 128, 16,
            ValueLayout.JAVA_LONG,
            Map.ofEntries(
                    Map.entry(Errno.EPERM, 1), Map.entry(Errno.ENOENT, 2), Map.entry(Errno.ESRCH, 3),
                    Map.entry(Errno.EINTR, 4), Map.entry(Errno.EIO, 5), Map.entry(Errno.ENXIO, 6),
                    Map.entry(Errno.E2BIG, 7), Map.entry(Errno.ENOEXEC, 8), Map.entry(Errno.EBADF, 9),
                    Map.entry(Errno.ECHILD, 10), Map.entry(Errno.EAGAIN, 11), Map.entry(Errno.ENOMEM, 12),
                    Map.entry(Errno.EACCES, 13), Map.entry(Errno.EFAULT, 14), Map.entry(Errno.ENOTDIR, 20),
                    Map.entry(Errno.EISDIR, 21), Map.entry(Errno.EINVAL, 22), Map.entry(Errno.ENFILE, 23),
                    Map.entry(Errno.EMFILE, 24), Map.entry(Errno.ENOTTY, 25), Map.entry(Errno.ETXTBSY, 26),
                    Map.entry(Errno.ENAMETOOLONG, 36), Map.entry(Errno.ENOSYS, 38), Map.entry(Errno.ELOOP, 40)));

    /** macOS (x86_64 and arm64 share these values). */
    public static final OsConstants MACOS = new OsConstants(
            "macOS", (short) 0x0400, (short) 0x4000, 0x20000, 0x1000000, 67, 0x20, 1, 104, 12,
            ValueLayout.JAVA_INT,
            Map.ofEntries(
                    Map.entry(Errno.EPERM, 1), Map.entry(Errno.ENOENT, 2), Map.entry(Errno.ESRCH, 3),
                    Map.entry(Errno.EINTR, 4), Map.entry(Errno.EIO, 5), Map.entry(Errno.ENXIO, 6),
                    Map.entry(Errno.E2BIG, 7), Map.entry(Errno.ENOEXEC, 8), Map.entry(Errno.EBADF, 9),
                    Map.entry(Errno.ECHILD, 10), Map.entry(Errno.ENOMEM, 12), Map.entry(Errno.EACCES, 13),
                    Map.entry(Errno.EFAULT, 14), Map.entry(Errno.ENOTDIR, 20), Map.entry(Errno.EISDIR, 21),
                    Map.entry(Errno.EINVAL, 22), Map.entry(Errno.ENFILE, 23), Map.entry(Errno.EMFILE, 24),
                    Map.entry(Errno.ENOTTY, 25), Map.entry(Errno.ETXTBSY, 26), Map.entry(Errno.EAGAIN, 35),
                    Map.entry(Errno.ELOOP, 62), Map.entry(Errno.ENAMETOOLONG, 63), Map.entry(Errno.ENOSYS, 78),
                    Map.entry(Errno.EBADEXEC, 85), Map.entry(Errno.EBADARCH, 86), Map.entry(Errno.EBADMACHO, 88)));

    /** {@code SIGSTOP}: 19 on Linux, 17 on macOS. */
    public int sigStop() {
        return isMacos() ? 17 : 19;
    }

    /** {@code SIGCONT}: 18 on Linux, 19 on macOS. */
    public int sigCont() {
        return isMacos() ? 19 : 18;
    }

    /** The highest signal number, {@code NSIG - 1}: 64 on Linux (real-time signals included), 31 on macOS. */
    public int lastSignal() {
        return isMacos() ? 31 : 64;
    }

    /** {@code O_NONBLOCK}: 0x800 on Linux, 0x4 on macOS. */
    public int oNonblock() {
        return isMacos() ? 0x4 : 0x800;
    }

    /** Whether this is macOS (which spells a few things differently: pipe, environ, closing descriptors). */
    public boolean isMacos() {
        return this == MACOS;
    }

    /** The value of {@code e} on this system. */
    public int errno(Errno e) {
        Integer value = errnos.get(e);
        if (value == null) {
            throw new IllegalArgumentException(e + " does not exist on " + name);
        }
        return value;
    }

    /** The symbolic errno for a number, when known. */
    public Optional<Errno> errnoNamed(int value) {
        return errnos.entrySet().stream().filter(en -> en.getValue() == value).map(Map.Entry::getKey).findFirst();
    }

    /**
     * The constants for the running system.
     *
     * @return empty with the reason when the system or architecture is not supported
     */
    public static Support forCurrentSystem(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean arch64 = arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64") || arch.equals("arm64");
        if (!arch64) {
            return new Support(Optional.empty(), "unsupported system: " + osName + " " + osArch);
        }
        if (os.equals("linux")) {
            return new Support(Optional.of(LINUX), "");
        }
        if (os.startsWith("mac") || os.contains("darwin")) {
            return new Support(Optional.of(MACOS), "");
        }
        return new Support(Optional.empty(), "unsupported system: " + osName + " " + osArch);
    }

    /** The constants, or why there are none. */
    public record Support(Optional<OsConstants> constants, String reason) {
    }
}
