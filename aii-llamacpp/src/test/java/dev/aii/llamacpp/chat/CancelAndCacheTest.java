package dev.aii.llamacpp.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.llamacpp.engine.Chat;
import dev.aii.llamacpp.engine.Context;
import dev.aii.llamacpp.engine.Model;
import dev.aii.llamacpp.engine.Natives;
import dev.aii.model.SessionOptions;
import dev.aii.testkit.gguf.Models;
import dev.aii.testkit.gguf.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Cancelling from another thread, and the KV cache kept from one turn to the next. */
class CancelAndCacheTest {

    private static final Path BUILD = Path.of(System.getProperty("aii.test.llamacpp.build", "target/llamacpp"));

    @BeforeAll
    static void libraries() throws Exception {
        try (var dirs = Files.list(BUILD.resolveSibling("natives"))) {
            Path dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
            Natives.load(Map.of(Natives.ENVIRONMENT_VARIABLE, dir.toString()), false);
        }
    }

    private static Path write(TinyModel.Script script) throws IOException {
        Path dir = Files.createDirectories(BUILD.resolveSibling("test-models"));
        Path file = dir.resolve(script.name() + "-cache.gguf");
        new TinyModel(script).write(file, Files.readString(BUILD.resolve("templates/Qwen-Qwen2.5-7B-Instruct.jinja")));
        return file;
    }

    @Test
    void aCancelFromAnotherThreadEndsALongAnswerAndTheSessionAnswersAgain() throws Exception {
        try (Model model = Model.load(write(Models.lines(1500)));
                Chat chat = Chat.of(model);
                Context context = Context.create(model, 32768, 1)) {
            KvCache cache = new KvCache(context);
            InProcessSession session = new InProcessSession(cache, chat, SessionOptions.plain(), List.of());
            StringBuilder text = new StringBuilder();
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread answering = new Thread(() -> {
                try {
                    session.respond("Go on", piece -> {
                        text.append(piece);
                        started.countDown();
                    });
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            answering.start();
            assertTrue(started.await(60, java.util.concurrent.TimeUnit.SECONDS));
            session.cancel();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> answering.join());
            assertEquals(null, failed.get());
            assertTrue(text.toString().startsWith(Models.line(1)), text::toString);
            assertTrue(!text.toString().contains(Models.line(1500)), "the answer ran to its end");
            // The cancelled answer is not in the history; the session answers the next prompt from the start.
            StringBuilder again = new StringBuilder();
            Thread next = new Thread(() -> {
                try {
                    session.respond("Go on", piece -> {
                        again.append(piece);
                        if (again.toString().contains(Models.line(3))) {
                            session.cancel();
                        }
                    });
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            next.start();
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> next.join());
            assertEquals(null, failed.get());
            assertTrue(again.toString().startsWith(Models.line(1) + Models.line(2) + Models.line(3)), again::toString);
        }
    }

    @Test
    void theSecondTurnDecodesOnlyWhatFollowsTheFirst() throws Exception {
        try (Model model = Model.load(write(Models.switching()));
                Chat chat = Chat.of(model);
                Context context = Context.create(model, 4096, 1)) {
            KvCache cache = new KvCache(context);
            InProcessSession session = new InProcessSession(cache, chat,
                    new SessionOptions(java.util.Optional.of("Be brief."), List.of()), List.of());
            StringBuilder first = new StringBuilder();
            session.respond("Hello", first::append);
            int afterFirst = cache.size();
            StringBuilder second = new StringBuilder();
            session.respond("Hello again", second::append);
            assertEquals(Models.PLAIN_ANSWER, first.toString());
            assertEquals(Models.PLAIN_ANSWER, second.toString());
            // Everything of the first turn but its last tokens (the end of the answer, rendered anew) is reused.
            assertTrue(cache.reused() > afterFirst - 4, "reused " + cache.reused() + " of " + afterFirst);
            assertTrue(cache.reused() < cache.size());
        }
    }
}
