package dev.aii.testkit;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Terminal;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Terminal} that answers prompts from a script and records what was
 * written to it. Answers are taken in order; a {@code null} answer is end of
 * input. When the script runs out, a terminal made by {@link #answering}
 * reports end of input, and one made by {@link #interactive()} waits for
 * {@link #answer} (or a cancellation).
 *
 * {@snippet :
 * ScriptedTerminal terminal = ScriptedTerminal.answering("y");
 * // ... a prompt is shown and answered "y" ...
 * assertEquals(List.of("aii: run this command?\n..."), terminal.prompts());
 * }
 */
public final class ScriptedTerminal implements Terminal {

    /** Recorded in {@link #events()} for each call, in order. */
    public static final String OPEN = "open", DISCARD = "discard", CLOSE = "close";

    private static final Optional<String> EOF = Optional.empty();

    private final boolean present;
    private final boolean waits;
    private final LinkedBlockingQueue<Optional<String>> answers = new LinkedBlockingQueue<>();
    private final List<String> events = new ArrayList<>();
    private final List<String> prompts = new ArrayList<>();
    private final StringBuilder transcript = new StringBuilder();
    private int openNow;
    private int mostOpenAtOnce;

    private ScriptedTerminal(boolean present, boolean waits) {
        this.present = present;
        this.waits = waits;
    }

    /** A terminal whose prompts get these answers in order, then end of input. */
    public static ScriptedTerminal answering(String... lines) {
        ScriptedTerminal terminal = new ScriptedTerminal(true, false);
        for (String line : lines) {
            terminal.answer(line);
        }
        return terminal;
    }

    /** A terminal whose prompts wait for {@link #answer}. */
    public static ScriptedTerminal interactive() {
        return new ScriptedTerminal(true, true);
    }

    /** No terminal at all: {@link #open()} fails as it does without a controlling terminal. */
    public static ScriptedTerminal absent() {
        return new ScriptedTerminal(false, false);
    }

    /** Queues the answer to a prompt; {@code null} is end of input. */
    public void answer(String line) {
        answers.add(Optional.ofNullable(line));
    }

    @Override
    public synchronized Conversation open() throws IOException {
        events.add(OPEN);
        if (!present) {
            throw new IOException("No such device or address");
        }
        openNow++;
        mostOpenAtOnce = Math.max(mostOpenAtOnce, openNow);
        prompts.add("");
        notifyAll();
        return new ScriptedConversation(prompts.size() - 1);
    }

    /** Every open, discard, write ({@code write:<text>}), read ({@code read:<line>} or {@code read:EOF}) and close. */
    public synchronized List<String> events() {
        return List.copyOf(events);
    }

    /** What each conversation wrote, in order of opening. */
    public synchronized List<String> prompts() {
        return List.copyOf(prompts);
    }

    /** Everything written, with each answer read shown as a terminal echoes it (the line and LF). */
    public synchronized String transcript() {
        return transcript.toString();
    }

    /** How many times the terminal was opened (also when it is absent). */
    public synchronized int opened() {
        return (int) events.stream().filter(OPEN::equals).count();
    }

    /** The most conversations that were open at the same time. */
    public synchronized int mostOpenAtOnce() {
        return mostOpenAtOnce;
    }

    /**
     * Waits until {@code n} prompts have been written completely (through the
     * {@code > } that ends them; a prompt given up since is followed by a LF).
     *
     * @throws AssertionError when that does not happen within {@code limit}
     */
    public synchronized void awaitPrompts(int n, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (prompts.stream().filter(p -> p.endsWith("> ") || p.endsWith("> \n")).count() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected " + n + " prompts within " + limit + ", got: " + prompts);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private final class ScriptedConversation implements Conversation {
        private final int index;
        private boolean closed;

        ScriptedConversation(int index) {
            this.index = index;
        }

        @Override
        public void discardTypeAhead() {
            synchronized (ScriptedTerminal.this) {
                events.add(DISCARD);
            }
        }

        @Override
        public void write(String text) {
            synchronized (ScriptedTerminal.this) {
                events.add("write:" + text);
                prompts.set(index, prompts.get(index) + text);
                transcript.append(text);
                ScriptedTerminal.this.notifyAll();
            }
        }

        @Override
        public Optional<String> readLine(Cancellation cancellation) {
            Optional<String> line = next(cancellation);
            synchronized (ScriptedTerminal.this) {
                events.add("read:" + line.orElse("EOF"));
                line.ifPresent(l -> transcript.append(l).append('\n'));
            }
            return line;
        }

        private Optional<String> next(Cancellation cancellation) {
            if (!waits) {
                Optional<String> line = answers.poll();
                return line == null ? EOF : line;
            }
            try {
                while (!cancellation.isCancelled()) {
                    Optional<String> line = answers.poll(10, TimeUnit.MILLISECONDS);
                    if (line != null) {
                        return line;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return EOF;
        }

        @Override
        public void close() {
            synchronized (ScriptedTerminal.this) {
                if (!closed) {
                    closed = true;
                    openNow--;
                    events.add(CLOSE);
                }
            }
        }
    }
}
