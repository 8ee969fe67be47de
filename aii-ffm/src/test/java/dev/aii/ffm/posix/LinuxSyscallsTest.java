package dev.aii.ffm.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The system call numbers aii calls on Linux are the kernel's: each one of
 * {@link LinuxSyscalls} is read from the Linux headers that the C compiler of
 * this build uses (Debian's linux-libc-dev, there whenever gcc can build the
 * test library): {@code asm-generic/unistd.h} for aarch64, and
 * {@code asm/unistd_64.h} for x86_64. A wrong number would make another call
 * with the same arguments, so every component is compared, by its name.
 */
class LinuxSyscallsTest {

    private static final Path GENERIC = Path.of("/usr/include/asm-generic/unistd.h");
    private static final Path X86_64 = Path.of("/usr/include/x86_64-linux-gnu/asm/unistd_64.h");
    private static final Pattern DEFINE = Pattern.compile("^#define __NR(?:3264)?_(\\w+)\\s+(\\d+)\\s*$");

    @Test
    void aarch64sNumbersAreTheGenericTableOfTheKernelHeaders() throws IOException {
        linuxOnly();
        assertTrue(Files.isRegularFile(GENERIC), GENERIC + " is missing: apt-get install linux-libc-dev");
        assertSame(LinuxSyscalls.AARCH64, numbers(GENERIC));
    }

    @Test
    void x86_64sNumbersAreTheKernelHeaders() throws IOException {
        linuxOnly();
        // an x86_64 system must have it; elsewhere it is there only with cross headers
        assumeTrue(Files.isRegularFile(X86_64) || isX86_64(), X86_64 + " is the header of an x86_64 system");
        assertTrue(Files.isRegularFile(X86_64), X86_64 + " is missing: apt-get install linux-libc-dev");
        assertSame(LinuxSyscalls.X86_64, numbers(X86_64));
    }

    @Test
    void atFdcwdIsTheHeadersValue() throws IOException {
        linuxOnly();
        Path fcntl = Path.of("/usr/include/linux/fcntl.h");
        Matcher m = Pattern.compile("#define AT_FDCWD\\s+(-?\\d+)").matcher(Files.readString(fcntl));
        assertTrue(m.find(), "AT_FDCWD in " + fcntl);
        assertEquals(Long.parseLong(m.group(1)), LinuxSyscalls.AT_FDCWD);
    }

    @Test
    void pidfdNumbersAreTheSameInBothTables() throws IOException {
        linuxOnly();
        Map<String, Long> generic = numbers(GENERIC);
        assertEquals(generic.get("pidfd_open"), OsConstants.SYS_PIDFD_OPEN);
        assertEquals(generic.get("pidfd_send_signal"), OsConstants.SYS_PIDFD_SEND_SIGNAL);
        if (Files.isRegularFile(X86_64)) {
            Map<String, Long> x86 = numbers(X86_64);
            assertEquals(x86.get("pidfd_open"), OsConstants.SYS_PIDFD_OPEN);
            assertEquals(x86.get("pidfd_send_signal"), OsConstants.SYS_PIDFD_SEND_SIGNAL);
        }
    }

    @Test
    void theArchitectureNamesTheJvmGivesPickTheirTable() {
        assertEquals(Optional.of(LinuxSyscalls.X86_64), LinuxSyscalls.forArch("amd64"));
        assertEquals(Optional.of(LinuxSyscalls.X86_64), LinuxSyscalls.forArch("x86_64"));
        assertEquals(Optional.of(LinuxSyscalls.AARCH64), LinuxSyscalls.forArch("aarch64"));
        assertEquals(Optional.of(LinuxSyscalls.AARCH64), LinuxSyscalls.forArch("ARM64"));
        assertEquals(Optional.empty(), LinuxSyscalls.forArch("riscv64"));
        assertEquals(Optional.empty(), LinuxSyscalls.forArch("x86"));
        assertEquals(Optional.empty(), LinuxSyscalls.forArch(""));
    }

    @Test
    void thisJvmCallsThroughTheNumbersOfItsArchitectureAndGetpidSaysSo() {
        OsConstants os = linuxOnly();
        LibC libc = new LibC(os);
        assertTrue(libc.rawSyscalls(), "Linux " + System.getProperty("os.arch") + " calls by number");
        assertEquals(LinuxSyscalls.forArch(System.getProperty("os.arch")).orElseThrow(), libc.raw);
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(ProcessHandle.current().pid(), new Calls(libc, arena).getpid());
        }
        assertEquals(Optional.empty(), Probe.check(libc));
    }

    @Test
    void theOtherArchitecturesNumbersFailTheProbeBeforeAnyOtherCall() {
        OsConstants os = linuxOnly();
        LinuxSyscalls other = isX86_64() ? LinuxSyscalls.AARCH64 : LinuxSyscalls.X86_64;
        // Only getpid of the other table is called: x86_64's 39 is aarch64's umount2, aarch64's 172 is x86_64's iopl.
        // Both fail harmlessly without privileges, and as root umount2(NULL) and iopl(0) change nothing.
        Optional<String> failure = Probe.check(new LibC(os, Optional.of(other)));
        assertEquals(Optional.of("the system call numbers are not this architecture's (" + other.arch() + ")"), failure);
    }

    private static OsConstants linuxOnly() {
        OsConstants os = OsConstants.forCurrentSystem(System.getProperty("os.name"), System.getProperty("os.arch"))
                .constants().orElseThrow();
        assumeTrue(!os.isMacos(), "system call numbers are Linux's");
        return os;
    }

    private static boolean isX86_64() {
        return LinuxSyscalls.forArch(System.getProperty("os.arch")).orElseThrow() == LinuxSyscalls.X86_64;
    }

    private static Map<String, Long> numbers(Path header) throws IOException {
        Map<String, Long> numbers = new HashMap<>();
        for (String line : Files.readAllLines(header)) {
            Matcher m = DEFINE.matcher(line);
            if (m.matches()) {
                numbers.putIfAbsent(m.group(1), Long.parseLong(m.group(2)));
            }
        }
        return numbers;
    }

    private static void assertSame(LinuxSyscalls table, Map<String, Long> header) throws IOException {
        assertTrue(header.size() > 200, "a whole table: " + header.size());
        for (RecordComponent component : LinuxSyscalls.class.getRecordComponents()) {
            if (component.getType() != long.class) {
                continue;
            }
            long ours;
            try {
                ours = (long) component.getAccessor().invoke(table);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            Long theirs = header.get(component.getName());
            assertTrue(theirs != null, component.getName() + " in the header");
            assertEquals(theirs, ours, table.arch() + " " + component.getName());
        }
    }
}
