package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The real on-device model through the real shim: only on macOS with the
 * model available (the shim found as a user's installation would find it);
 * everywhere else these tests are reported as skipped. They run in a JVM of
 * their own (see the pom), because a JVM keeps the first shim it loaded.
 */
@EnabledOnOs(OS.MAC)
class RealFoundationModelsTest {

    private FoundationModelsBackend backend;

    @BeforeEach
    void requireTheModel() {
        backend = FoundationModelsBackend.fromEnvironment(System.getenv());
        Optional<ModelException> problem = backend.availability().problem();
        assumeTrue(problem.isEmpty(), () -> "Foundation Models is not available here: "
                + problem.map(p -> p.getMessage() + " (" + p.detail().orElse("") + ")").orElse(""));
    }

    @Test
    void theModelAnswersAShortPromptInPieces() throws ModelException {
        StringBuilder answer = new StringBuilder();
        try (Session session = backend.openSession(new SessionOptions(Optional.of("Answer in one short sentence."), List.of()))) {
            assertTimeoutPreemptively(Duration.ofSeconds(120), () -> session.respond("What colour is the sky on a clear day?", answer::append));
        }
        assertFalse(answer.toString().isBlank());
    }

    @Test
    void theModelReportsItsLabels() throws ModelException {
        assertTrue(backend.contextSize() > 0);
        // The count is the one a session sees for the prompt; it exists when the context size is known.
        backend.countTokens("x".repeat(100)).ifPresent(count -> assertTrue(count < backend.contextSize()));
        assertFalse(backend.variant().isBlank());
        List<String> languages = backend.supportedLanguages().orElseThrow();
        assertFalse(languages.isEmpty());
        assertTrue(languages.stream().noneMatch(tag -> tag.matches(".*-[A-Z][a-z]{3}(-.*)?")), languages.toString());
        backend.countTokens("Hello, world").ifPresent(count -> assertTrue(count > 0));
    }

    @Test
    void aLongAnswerStopsWhenCancelledAndTheNextPromptIsAnswered() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        try (Session session = backend.openSession(SessionOptions.plain())) {
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> {
                try {
                    session.respond("Write a long story about a lighthouse keeper, at least 800 words.", piece -> first.countDown());
                } catch (ModelException e) {
                    throw new AssertionError(e);
                }
            });
            assertTrue(first.await(120, TimeUnit.SECONDS));
            session.cancel();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> answer.get());
            // Right after the user's own Ctrl-C: never "Model busy".
            StringBuilder next = new StringBuilder();
            assertTimeoutPreemptively(Duration.ofSeconds(120), () -> session.respond("Say hello.", next::append));
            assertFalse(next.toString().isBlank());
        }
    }

    @Test
    void aToolCallRunsOnTheAnsweringThreadAndItsResultReachesTheAnswer() throws Exception {
        List<String> calls = new CopyOnWriteArrayList<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        ToolSpec tool = new ToolSpec("get_secret_number", "Gives the secret number for a topic.",
                "{\"type\":\"object\",\"properties\":{\"topic\":{\"type\":\"string\","
                        + "\"description\":\"What the secret is about\"}},\"required\":[\"topic\"]}",
                json -> {
                    calls.add(json);
                    threads.add(Thread.currentThread());
                    return "The secret number is 7341.";
                });
        String instructions = "You can look up secret numbers with the get_secret_number tool. Always call it before "
                + "you answer a question about a secret number, then answer with the number it gave.";
        StringBuilder answer = new StringBuilder();
        Thread[] responder = new Thread[1];
        try (Session session = backend.openSession(new SessionOptions(Optional.of(instructions), List.of(tool)))) {
            assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
                responder[0] = Thread.currentThread();
                session.respond("What is the secret number for the topic lighthouse?", answer::append);
            });
        }
        assertFalse(calls.isEmpty(), "the model did not call the tool; it answered: " + answer);
        assertTrue(threads.stream().allMatch(t -> t == responder[0]), "the tool ran on another thread");
        assertTrue(calls.stream().allMatch(json -> json.contains("\"topic\"")), calls.toString());
        assertTrue(answer.toString().contains("7341"), "the tool's result did not reach the answer: " + answer);
    }
}
