package dev.aii.exec;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A terminal for this module's tests (aii-core cannot use the testkit's
 * ScriptedTerminal): answers come from a queue, and everything is recorded.
 * A {@code null} answer is end of input; an exhausted queue is end of input
 * too unless the terminal {@link #waits}.
 */
final class FakeTerminal implements Terminal {

    private final boolean present;
    private final boolean waits;
    private final LinkedBlockingQueue<Optional<String>> answers = new LinkedBlockingQueue<>();
    private final List<String> events = new ArrayList<>();
    private final List<String> prompts = new ArrayList<>();
    private int openNow;
    private int mostOpenAtOnce;

    private FakeTerminal(boolean present, boolean waits) {
        this.present = present;
        this.waits = waits;
    }

    static FakeTerminal answering(String... lines) {
        FakeTerminal terminal = new FakeTerminal(true, false);
        for (String line : lines) {
            terminal.answer(line);
        }
        return terminal;
    }

    static FakeTerminal waiting() {
        return new FakeTerminal(true, true);
    }

    static FakeTerminal absent() {
        return new FakeTerminal(false, false);
    }

    void answer(String line) {
        answers.add(Optional.ofNullable(line));
    }

    @Override
    public synchronized Conversation open() throws IOException {
        events.add("open");
        if (!present) {
            throw new IOException("No such device or address");
        }
        openNow++;
        mostOpenAtOnce = Math.max(mostOpenAtOnce, openNow);
        prompts.add("");
        return new FakeConversation(prompts.size() - 1);
    }

    synchronized List<String> events() {
        return List.copyOf(events);
    }

    /** The text each conversation wrote, followed by the answer it read and LF, as a terminal shows it. */
    synchronized List<String> prompts() {
        return List.copyOf(prompts);
    }

    synchronized int opened() {
        return (int) events.stream().filter("open"::equals).count();
    }

    synchronized int mostOpenAtOnce() {
        return mostOpenAtOnce;
    }

    /** Waits until {@code n} prompts have been written through their final {@code > }. */
    synchronized void awaitPrompts(int n, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (prompts.stream().filter(p -> p.contains("> ")).count() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected " + n + " prompts, got " + prompts);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private final class FakeConversation implements Conversation {
        private final int index;

        FakeConversation(int index) {
            this.index = index;
        }

        @Override
        public void discardTypeAhead() {
            synchronized (FakeTerminal.this) {
                events.add("discard");
            }
        }

        @Override
        public void write(String text) {
            synchronized (FakeTerminal.this) {
                events.add("write");
                prompts.set(index, prompts.get(index) + text);
                FakeTerminal.this.notifyAll();
            }
        }

        @Override
        public Optional<String> readLine(Cancellation cancellation) {
            Optional<String> line = next(cancellation);
            synchronized (FakeTerminal.this) {
                events.add("read");
                line.ifPresent(l -> prompts.set(index, prompts.get(index) + l + "\n"));
            }
            return line;
        }

        private Optional<String> next(Cancellation cancellation) {
            try {
                do {
                    Optional<String> line = answers.poll(waits ? 10 : 0, TimeUnit.MILLISECONDS);
                    if (line != null) {
                        return line;
                    }
                } while (waits && !cancellation.isCancelled());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        }

        @Override
        public void close() {
            synchronized (FakeTerminal.this) {
                openNow--;
                events.add("close");
            }
        }
    }
}
