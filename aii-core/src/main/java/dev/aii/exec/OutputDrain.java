package dev.aii.exec;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Reads a child's output pipe to its end on a thread of its own, keeping the
 * first bytes and counting the rest, so the child never blocks on a full pipe
 * and memory stays constant whatever it writes.
 */
final class OutputDrain {

    /** One pipe's worth: large reads keep the drain close to the speed of {@code cat}. */
    private static final int CHUNK = 64 * 1024;

    private final InputStream in;
    private final OutputCollector collector;
    private final CountDownLatch ended = new CountDownLatch(1);
    private boolean finished;

    private OutputDrain(InputStream in, int cap) {
        this.in = in;
        this.collector = new OutputCollector(cap);
    }

    /** Starts draining {@code in}, keeping the first {@code cap} bytes. */
    static OutputDrain start(InputStream in, int cap) {
        OutputDrain drain = new OutputDrain(in, cap);
        Thread thread = new Thread(drain::pump, "aii-command-output");
        thread.setDaemon(true);
        thread.start();
        return drain;
    }

    private void pump() {
        byte[] buffer = new byte[CHUNK];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (this) {
                    if (finished) {
                        return;
                    }
                    collector.accept(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            // The pipe was closed by finish(): a descendant kept it open past the grace.
        } finally {
            ended.countDown();
        }
    }

    /**
     * Waits at most {@code grace} for the end of the output, then stops
     * reading (a descendant may hold the pipe open for as long as it lives)
     * and returns what was collected.
     */
    CapturedOutput finish(Duration grace) {
        boolean atEnd;
        try {
            atEnd = ended.await(grace.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            atEnd = false;
        }
        CapturedOutput output;
        synchronized (this) {
            finished = true;
            output = collector.snapshot();
        }
        if (!atEnd) {
            closeQuietly();
        }
        return output;
    }

    private void closeQuietly() {
        try {
            in.close();
        } catch (IOException e) {
            // Nothing more is read from it either way.
        }
    }
}
