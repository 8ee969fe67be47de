package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.ffm.posix.Calls;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link PipeReaderWatch} on real pipes of this process: the reader leaving
 * ends the wait with true; close() ends it with false and leaves the thread
 * out of the native call, so that it no longer holds back the JVM's exit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)   // only to catch a hang
class PipeReaderWatchTest {

    private static CompletableFuture<Boolean> awaitOnAThread(PipeReaderWatch watch) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> result.complete(watch.await()));
        return result;
    }

    @Test
    void theReaderClosingItsEndEndsTheWaitWithTrue() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(Posix.libc(), arena);
            int[] pipe = calls.pipeCloexec();
            try (PipeReaderWatch watch = Posix.watchPipeReader(pipe[1])) {
                CompletableFuture<Boolean> gone = awaitOnAThread(watch);
                Thread.sleep(200);
                assertFalse(gone.isDone(), "the reader is still there");
                calls.close(pipe[0]);
                assertTrue(gone.get());
            } finally {
                calls.close(pipe[1]);
            }
        }
    }

    @Test
    void closeEndsTheWaitWithFalseWhileTheReaderStays() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(Posix.libc(), arena);
            int[] pipe = calls.pipeCloexec();
            try {
                PipeReaderWatch watch = Posix.watchPipeReader(pipe[1]);
                CompletableFuture<Boolean> gone = awaitOnAThread(watch);
                Thread.sleep(200);
                watch.close();
                assertFalse(gone.get());
                watch.close();   // idempotent
            } finally {
                calls.close(pipe[0]);
                calls.close(pipe[1]);
            }
        }
    }

    @Test
    void aWatchClosedBeforeItsWaitDoesNotWait() {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(Posix.libc(), arena);
            int[] pipe = calls.pipeCloexec();
            try {
                PipeReaderWatch watch = Posix.watchPipeReader(pipe[1]);
                watch.close();
                assertFalse(watch.await());
            } finally {
                calls.close(pipe[0]);
                calls.close(pipe[1]);
            }
        }
    }

    @Test
    void aDescriptorThatIsNotOpenIsNotWatched() {
        // Far above any descriptor this process has (a just-closed number would be reused by the watch's own pipe).
        assertFalse(Posix.watchPipeReader(999_999).await());
    }

    @Test
    void aShutdownHookThatClosesTheWatchEndsTheWaitOfAnExitingJvm() throws Exception {
        // A child JVM whose stdout is a pipe this test reads to its end: the hook closes the watch, the
        // waiting thread reports false and the JVM exits.
        Process child = new ProcessBuilder(ChildJvm.withNativeAccess("watch-stdout-then-exit"))
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), out);
        assertEquals("watching\nwatch ended: false\n", out);
    }
}
