package dev.aii.ffm.posix;

import java.util.Locale;
import java.util.Optional;

/**
 * Linux system call numbers for the calls that {@link Calls} makes through
 * the C library's {@code syscall(2)} on Linux, for the two 64-bit
 * architectures aii runs on. The values are those of the kernel's headers
 * ({@code asm/unistd_64.h} for x86_64, {@code asm-generic/unistd.h} for
 * aarch64); {@code LinuxSyscallsTest} reads them from the headers and
 * compares, and {@link Probe} checks {@code getpid} against the JVM's own id
 * before anything else is called.
 *
 * <p>One call signature ({@code long syscall(long, ...)} with five long
 * arguments) serves them all, so the JDK generates one call stub for them
 * instead of one per C prototype: each stub costs a fresh process 5 to 10 ms.
 *
 * @param arch       the architecture, for messages
 * @param read       {@code __NR_read}
 * @param write      {@code __NR_write}
 * @param close      {@code __NR_close}
 * @param openat     {@code __NR_openat}
 * @param ppoll      {@code __NR_ppoll}
 * @param fcntl      {@code __NR_fcntl}
 * @param kill       {@code __NR_kill}
 * @param prctl      {@code __NR_prctl}
 * @param wait4      {@code __NR_wait4}
 * @param waitid     {@code __NR_waitid}
 * @param pipe2      {@code __NR_pipe2}
 * @param getpid     {@code __NR_getpid}
 */
public record LinuxSyscalls(
        String arch,
        long read,
        long write,
        long close,
        long openat,
        long ppoll,
        long fcntl,
        long kill,
        long prctl,
        long wait4,
        long waitid,
        long pipe2,
        long getpid) {

    /** {@code AT_FDCWD}: openat's "relative to the working directory", -100 on every Linux architecture. */
    public static final long AT_FDCWD = -100;

    /** x86_64 ({@code arch/x86/entry/syscalls/syscall_64.tbl}). */
    public static final LinuxSyscalls X86_64 = new LinuxSyscalls("x86_64",
            0, 1, 3, 257, 271, 72, 62, 157, 61, 247, 293, 39);

    /** aarch64, which uses the kernel's generic table. */
    public static final LinuxSyscalls AARCH64 = new LinuxSyscalls("aarch64",
            63, 64, 57, 56, 73, 25, 129, 167, 260, 95, 59, 172);

    /** The numbers for a JVM's {@code os.arch}, or none for an architecture aii does not know. */
    public static Optional<LinuxSyscalls> forArch(String osArch) {
        return switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> Optional.of(X86_64);
            case "aarch64", "arm64" -> Optional.of(AARCH64);
            default -> Optional.empty();
        };
    }
}
