package dev.aii.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Waits for the allow file's locks, but not for ever: another process that
 * holds the lock file (a hung aii, an editor, {@code kill -STOP}) must not
 * hang an answer. The wait ends at the deadline or as soon as the caller says
 * stop (Ctrl-C), with {@link AllowFile.LockedException}; polling every
 * {@link #POLL_MILLIS} keeps both prompt. An interrupt of the thread ends it
 * the same way, and stays set.
 */
final class LockWait {

    static final long POLL_MILLIS = 20;

    private final Path file;
    private final BooleanSupplier stop;
    private final long deadline;

    LockWait(Path file, BooleanSupplier stop, Duration wait) {
        this.file = file;
        this.stop = stop;
        this.deadline = System.nanoTime() + Math.min(wait.toNanos(), Long.MAX_VALUE / 4);
    }

    /** Takes {@code lock} (another thread of this JVM may hold it), or throws. */
    void inProcess(ReentrantLock lock) throws AllowFile.LockedException {
        try {
            while (!lock.tryLock(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                giveUpIfDue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AllowFile.LockedException(file);
        }
    }

    /**
     * Takes the exclusive lock of {@code channel}, which another process may
     * hold, then waits while another process holds a {@code flock(2)} lock on
     * {@code lockFile} (which Java's locks do not see); or throws.
     */
    FileLock fileLock(FileChannel channel, Path lockFile) throws IOException {
        while (true) {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                if (!FlockHolders.held(lockFile)) {
                    return lock;
                }
                lock.release();
            }
            giveUpIfDue();
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AllowFile.LockedException(file);
            }
        }
    }

    private void giveUpIfDue() throws AllowFile.LockedException {
        if (stop.getAsBoolean() || System.nanoTime() - deadline >= 0) {
            throw new AllowFile.LockedException(file);
        }
    }
}
