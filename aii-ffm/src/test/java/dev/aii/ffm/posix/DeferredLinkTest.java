package dev.aii.ffm.posix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The C library functions that a command's run calls only when something
 * unusual happens are linked when first called, not with the rest: a plain
 * command links none of them, and each works once it is linked (splice past
 * the kept bytes, here). Linux: splice and the pidfd signal are Linux's, and
 * so are the system calls by number that replace the C library's open, read,
 * poll, kill and the rest there: none of those functions is linked at all.
 */
class DeferredLinkTest {

    @Test
    void aPlainCommandLinksNoneOfThemAndSpliceLinksWhenOutputPassesTheCap() {
        OsConstants os = OsConstants.forCurrentSystem(System.getProperty("os.name"), System.getProperty("os.arch"))
                .constants().orElseThrow();
        assumeTrue(!os.isMacos(), "splice and pidfd_send_signal are Linux's");
        LibC libc = new LibC(os);
        Lifetimes lifetimes = new Lifetimes(libc);
        assertFalse(libc.splice.orElseThrow().linked());

        RunResult plain = CommandRun.run(libc, lifetimes, "/bin/sh", List.of("-c", "echo hello"), Limits.DEFAULT,
                new Cancellation());
        RunResult.Exited exited = assertInstanceOf(RunResult.Exited.class, plain);
        assertEquals("hello\n", new String(exited.output().head(), StandardCharsets.UTF_8));
        assertFalse(libc.splice.orElseThrow().linked(), "splice");
        assertFalse(libc.syscall4.orElseThrow().linked(), "pidfd_send_signal");
        assertFalse(libc.tcflush.linked(), "tcflush");
        assertFalse(libc.pipe.linked(), "pipe (pipe2 is used)");
        assertFalse(libc.gnuGetLibcVersion.orElseThrow().linked(), "gnu_get_libc_version");
        assertFalse(libc.raise.linked(), "raise (only Ctrl-Z)");
        // on Linux these go through syscall(2), one signature, so their own C functions are never linked
        assertTrue(libc.rawSyscalls());
        java.util.Map<String, LibC.Downcall> byNumber = new java.util.LinkedHashMap<>();
        byNumber.put("open", libc.open);
        byNumber.put("close", libc.close);
        byNumber.put("read", libc.read);
        byNumber.put("write", libc.write);
        byNumber.put("poll", libc.poll);
        byNumber.put("fcntl", libc.fcntl);
        byNumber.put("pipe2", libc.pipe2.orElseThrow());
        byNumber.put("killpg", libc.killpg);
        byNumber.put("kill", libc.kill);
        byNumber.put("prctl", libc.prctl.orElseThrow());
        byNumber.put("syscall (pidfd_open)", libc.syscall2.orElseThrow());
        byNumber.put("waitid", libc.waitid);
        byNumber.put("waitpid", libc.waitpid);
        byNumber.forEach((name, handle) -> assertFalse(handle.linked(), name));

        RunResult large = CommandRun.run(libc, lifetimes, "/bin/sh", List.of("-c", "head -c 1000000 /dev/zero"),
                Limits.DEFAULT, new Cancellation());
        assertEquals(1_000_000, assertInstanceOf(RunResult.Exited.class, large).output().totalBytes());
        assertTrue(libc.splice.orElseThrow().linked(), "splice, past the kept bytes");
    }
}
