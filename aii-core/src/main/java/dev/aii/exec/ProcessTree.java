package dev.aii.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Ends a child process and its descendants: SIGTERM to all, then SIGKILL to
 * whichever is still running after a grace period.
 */
final class ProcessTree {

    private static final long POLL_MILLIS = 20;

    private ProcessTree() {
    }

    /**
     * Terminates {@code process} and its descendants. The descendants are
     * listed before the first signal: once the child dies they are
     * reparented and no longer reachable from it.
     */
    static void terminate(Process process, Duration killGrace) {
        List<ProcessHandle> family = new ArrayList<>();
        family.add(process.toHandle());
        family.addAll(process.descendants().toList());
        family.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + killGrace.toNanos();
        while (family.stream().anyMatch(ProcessTree::running)) {
            if (System.nanoTime() - deadline >= 0 || !pause()) {
                family.stream().filter(ProcessTree::running).forEach(ProcessHandle::destroyForcibly);
                break;
            }
        }
        try {
            // SIGKILL cannot be caught; the bound only guards against a process stuck in the kernel.
            process.waitFor(killGrace.toNanos() + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether a process still runs. A dead descendant stays a zombie until its
     * new parent reaps it, which some init processes do slowly; on Linux its
     * state tells, elsewhere {@link ProcessHandle#isAlive()} has to do.
     */
    private static boolean running(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(handle.pid()), "stat");
        try {
            String text = Files.readString(stat);
            // The state follows the command name, which is in parentheses and may hold anything.
            int close = text.lastIndexOf(')');
            return close < 0 || close + 2 >= text.length() || text.charAt(close + 2) != 'Z';
        } catch (IOException | SecurityException e) {
            return handle.isAlive();
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(POLL_MILLIS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
