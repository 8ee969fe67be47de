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
 * the kept bytes, here). Linux: splice and the pidfd signal are Linux's.
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

        RunResult large = CommandRun.run(libc, lifetimes, "/bin/sh", List.of("-c", "head -c 1000000 /dev/zero"),
                Limits.DEFAULT, new Cancellation());
        assertEquals(1_000_000, assertInstanceOf(RunResult.Exited.class, large).output().totalBytes());
        assertTrue(libc.splice.orElseThrow().linked(), "splice, past the kept bytes");
    }
}
