package dev.aii.cli;

import dev.aii.model.Availability;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.TextSink;
import dev.aii.model.ToolSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** An in-memory model that plays scripted answers and records what it was asked. */
final class ScriptedModel implements LanguageModel {

    /** One step of a scripted answer. */
    sealed interface Step {
        /** Streams {@code piece}. */
        record Text(String piece) implements Step {
        }

        /** Calls the session's tool with {@code argumentsJson}; the result is recorded. */
        record CallTool(String argumentsJson) implements Step {
        }

        /** Fails the answer. */
        record Fail(ModelException error) implements Step {
        }

        /** Waits until the answer is cancelled (or 20 s pass, which fails the test that relied on it). */
        record AwaitCancel() implements Step {
        }

        /** Runs {@code action} in the middle of the answer, e.g. to let a test's clock move on. */
        record Run(Runnable action) implements Step {
        }

        /** Tells the sink the server cut the answer off at its output limit. */
        record CutOff() implements Step {
        }

        /** Tells the sink the backend waits for a busy server. */
        record Waiting(String reason) implements Step {
        }
    }

    private Availability availability = Availability.available();
    private int contextSize = 4096;
    private OptionalInt tokensPerPrompt = OptionalInt.empty();
    private String variant = "scripted";
    private Optional<List<String>> languages = Optional.of(List.of("en-US", "fr-FR"));
    private final Deque<List<Step>> answers = new ArrayDeque<>();

    final List<String> prompts = new ArrayList<>();
    final List<Optional<String>> instructions = new ArrayList<>();
    final List<List<ToolSpec>> tools = new ArrayList<>();
    final List<String> toolResults = new ArrayList<>();
    final List<String> counted = new ArrayList<>();
    int sessionsOpened;
    int sessionsClosed;
    final CountDownLatch waitingForCancel = new CountDownLatch(1);

    ScriptedModel unavailable(ModelException why) {
        this.availability = Availability.unavailable(why);
        return this;
    }

    ScriptedModel contextSize(int n) {
        this.contextSize = n;
        return this;
    }

    /** Makes countTokens report {@code n} for any text. */
    ScriptedModel tokens(int n) {
        this.tokensPerPrompt = OptionalInt.of(n);
        return this;
    }

    ScriptedModel variant(String v) {
        this.variant = v;
        return this;
    }

    ScriptedModel languages(Optional<List<String>> l) {
        this.languages = l;
        return this;
    }

    /** Queues the next answer. */
    ScriptedModel answer(Step... steps) {
        answers.add(List.of(steps));
        return this;
    }

    /** Queues an answer made of text pieces. */
    ScriptedModel answerText(String... pieces) {
        answers.add(java.util.Arrays.stream(pieces).<Step>map(Step.Text::new).toList());
        return this;
    }

    @Override
    public Availability availability() {
        return availability;
    }

    @Override
    public int contextSize() {
        return contextSize;
    }

    @Override
    public OptionalInt countTokens(String text) {
        counted.add(text);
        return tokensPerPrompt;
    }

    @Override
    public String variant() {
        return variant;
    }

    @Override
    public Optional<List<String>> supportedLanguages() {
        return languages;
    }

    @Override
    public synchronized Session openSession(SessionOptions options) {
        sessionsOpened++;
        instructions.add(options.instructions());
        tools.add(options.tools());
        return new ScriptedSession(options);
    }

    private final class ScriptedSession implements Session {
        private final SessionOptions options;
        private volatile CountDownLatch cancelled = new CountDownLatch(1);

        ScriptedSession(SessionOptions options) {
            this.options = options;
        }

        @Override
        public void respond(String prompt, TextSink sink) throws ModelException {
            cancelled = new CountDownLatch(1);
            List<Step> steps;
            synchronized (ScriptedModel.this) {
                prompts.add(prompt);
                steps = answers.isEmpty() ? List.of() : answers.removeFirst();
            }
            for (Step step : steps) {
                if (cancelled.getCount() == 0) {
                    return;
                }
                switch (step) {
                    case Step.Text t -> sink.accept(t.piece());
                    case Step.CallTool c -> {
                        String result = options.tools().getFirst().handler().call(c.argumentsJson());
                        synchronized (ScriptedModel.this) {
                            toolResults.add(result);
                        }
                    }
                    case Step.Fail f -> throw f.error();
                    case Step.Run r -> r.action().run();
                    case Step.CutOff c -> sink.cutOff();
                    case Step.Waiting w -> sink.waiting(w.reason(), java.time.Duration.ofSeconds(1));
                    case Step.AwaitCancel a -> {
                        waitingForCancel.countDown();
                        try {
                            if (!cancelled.await(20, TimeUnit.SECONDS)) {
                                throw new ModelException(dev.aii.model.ErrorCode.INTERNAL_ERROR, "never cancelled", null);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
            }
        }

        @Override
        public void cancel() {
            cancelled.countDown();
        }

        @Override
        public void close() {
            cancel();
            synchronized (ScriptedModel.this) {
                sessionsClosed++;
            }
        }
    }
}
