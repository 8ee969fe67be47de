package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
        assertFalse(backend.variant().isBlank());
        List<String> languages = backend.supportedLanguages().orElseThrow();
        assertFalse(languages.isEmpty());
        assertTrue(languages.stream().noneMatch(tag -> tag.matches(".*-[A-Z][a-z]{3}(-.*)?")), languages.toString());
        backend.countTokens("Hello, world").ifPresent(count -> assertTrue(count > 0));
    }

    @Test
    void aLongAnswerStopsWhenCancelled() throws Exception {
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
        }
    }
}
