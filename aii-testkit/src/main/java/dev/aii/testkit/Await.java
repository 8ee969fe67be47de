package dev.aii.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Waits for what a real process does at its own pace: a marker file it writes, its own end. */
public final class Await {

    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    /**
     * Waits until {@code marker} exists, as a command writes it to say it has started.
     *
     * @throws AssertionError naming the file when it does not appear within {@code limit}
     */
    public static void file(Path marker, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!Files.exists(marker)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + marker + " within " + limit + ": the command never got there");
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * Waits until the process {@code pid} is gone (see {@link Programs#isRunning}).
     *
     * @throws AssertionError naming the process when it still runs after {@code limit}
     */
    public static void gone(long pid, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (Programs.isRunning(pid)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the process " + pid + " still runs after " + limit);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
