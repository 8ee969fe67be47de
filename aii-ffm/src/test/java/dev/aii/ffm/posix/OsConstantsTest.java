package dev.aii.ffm.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-system constants agree with the C headers of the machine the test
 * runs on: a C program compiled here prints them, and every one must match.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OsConstantsTest {

    @TempDir
    Path dir;

    @Test
    void constantsMatchTheSystemHeaders() throws Exception {
        OsConstants os = OsConstants.forCurrentSystem(System.getProperty("os.name"), System.getProperty("os.arch"))
                .constants().orElseThrow();
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("POSIX_SPAWN_SETSID", (long) os.spawnSetsid());
        expected.put("POSIX_SPAWN_CLOEXEC_DEFAULT", (long) os.spawnCloexecDefault());
        expected.put("POSIX_SPAWN_SETSIGDEF", (long) OsConstants.SPAWN_SETSIGDEF);
        expected.put("POSIX_SPAWN_SETSIGMASK", (long) OsConstants.SPAWN_SETSIGMASK);
        expected.put("O_RDONLY", (long) OsConstants.O_RDONLY);
        expected.put("O_RDWR", (long) OsConstants.O_RDWR);
        expected.put("O_WRONLY", (long) OsConstants.O_WRONLY);
        expected.put("O_NONBLOCK", (long) os.oNonblock());
        expected.put("F_GETFL", (long) OsConstants.F_GETFL);
        expected.put("F_SETFL", (long) OsConstants.F_SETFL);
        expected.put("O_NOCTTY", (long) os.oNoctty());
        expected.put("O_CLOEXEC", (long) os.oCloexec());
        expected.put("F_GETFD", (long) OsConstants.F_GETFD);
        expected.put("F_SETFD", (long) OsConstants.F_SETFD);
        expected.put("FD_CLOEXEC", (long) OsConstants.FD_CLOEXEC);
        expected.put("F_DUPFD_CLOEXEC", (long) os.fDupfdCloexec());
        expected.put("POLLIN", (long) OsConstants.POLLIN);
        expected.put("POLLERR", (long) OsConstants.POLLERR);
        expected.put("POLLHUP", (long) OsConstants.POLLHUP);
        expected.put("POLLNVAL", (long) OsConstants.POLLNVAL);
        expected.put("sizeof(struct pollfd)", OsConstants.POLLFD_SIZE);
        expected.put("offsetof(struct pollfd, revents)", OsConstants.POLLFD_REVENTS_OFFSET);
        expected.put("sizeof(nfds_t)", os.nfdsLayout().byteSize());
        expected.put("P_PID", (long) OsConstants.P_PID);
        expected.put("WNOHANG", (long) OsConstants.WNOHANG);
        expected.put("WEXITED", (long) OsConstants.WEXITED);
        expected.put("WNOWAIT", (long) os.wNowait());
        expected.put("CLD_EXITED", (long) OsConstants.CLD_EXITED);
        expected.put("CLD_KILLED", (long) OsConstants.CLD_KILLED);
        expected.put("CLD_DUMPED", (long) OsConstants.CLD_DUMPED);
        expected.put("sizeof(siginfo_t)", os.siginfoSize());
        expected.put("offsetof(siginfo_t, si_pid)", os.siginfoPidOffset());
        expected.put("offsetof(siginfo_t, si_code)", OsConstants.SIGINFO_CODE_OFFSET);
        expected.put("TCIFLUSH", (long) os.tciflush());
        expected.put("SIGHUP", (long) OsConstants.SIGHUP);
        expected.put("SIGINT", (long) OsConstants.SIGINT);
        expected.put("SIGQUIT", (long) OsConstants.SIGQUIT);
        expected.put("SIGKILL", (long) OsConstants.SIGKILL);
        expected.put("SIGPIPE", (long) OsConstants.SIGPIPE);
        expected.put("SIGTERM", (long) OsConstants.SIGTERM);
        expected.put("SIGSTOP", (long) os.sigStop());
        expected.put("SIGCONT", (long) os.sigCont());
        expected.put("NSIG - 1", (long) os.lastSignal());
        if (!os.isMacos()) {
            expected.put("PR_SET_CHILD_SUBREAPER", (long) OsConstants.PR_SET_CHILD_SUBREAPER);
            expected.put("SPLICE_F_MOVE", (long) OsConstants.SPLICE_F_MOVE);
            expected.put("SPLICE_F_NONBLOCK", (long) OsConstants.SPLICE_F_NONBLOCK);
            expected.put("SYS_pidfd_send_signal", OsConstants.SYS_PIDFD_SEND_SIGNAL);
            expected.put("SYS_pidfd_open", OsConstants.SYS_PIDFD_OPEN);
        }
        expected.put("fits(posix_spawnattr_t)", 1L);
        expected.put("fits(posix_spawn_file_actions_t)", 1L);
        expected.put("fits(sigset_t)", 1L);
        for (Map.Entry<Errno, Integer> e : new TreeMap<>(os.errnos()).entrySet()) {
            expected.put(e.getKey().name(), (long) e.getValue());
        }
        assertEquals(expected, headerValues());
    }

    @Test
    void supportedSystemsAreLinuxAndMacosOn64BitArmAndX86() {
        assertEquals(Optional.of(OsConstants.LINUX), OsConstants.forCurrentSystem("Linux", "amd64").constants());
        assertEquals(Optional.of(OsConstants.LINUX), OsConstants.forCurrentSystem("Linux", "aarch64").constants());
        assertEquals(Optional.of(OsConstants.MACOS), OsConstants.forCurrentSystem("Mac OS X", "aarch64").constants());
        assertEquals(Optional.of(OsConstants.MACOS), OsConstants.forCurrentSystem("Mac OS X", "x86_64").constants());
        assertEquals("unsupported system: Windows 11 amd64", OsConstants.forCurrentSystem("Windows 11", "amd64").reason());
        assertEquals("unsupported system: Linux riscv64", OsConstants.forCurrentSystem("Linux", "riscv64").reason());
        assertEquals("unsupported system: Linux x86", OsConstants.forCurrentSystem("Linux", "x86").reason());
    }

    @Test
    void layoutsAreTheCTypesWidths() {
        assertEquals(ValueLayout.JAVA_LONG, OsConstants.LINUX.nfdsLayout());
        assertEquals(ValueLayout.JAVA_INT, OsConstants.MACOS.nfdsLayout());
    }

    /** Compiles and runs constants.c with the system's C compiler. */
    private Map<String, Long> headerValues() throws IOException, InterruptedException {
        Path source = dir.resolve("constants.c");
        try (InputStream in = OsConstantsTest.class.getResourceAsStream("constants.c")) {
            Files.copy(in, source);
        }
        Path program = dir.resolve("constants");
        run(List.of("cc", "-o", program.toString(), source.toString()));
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : run(List.of(program.toString())).split("\n")) {
            int space = line.lastIndexOf(' ');
            values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1)));
        }
        return values;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), command + " did not end");
        assertEquals(0, p.exitValue(), command + " failed:\n" + out);
        return out;
    }
}
