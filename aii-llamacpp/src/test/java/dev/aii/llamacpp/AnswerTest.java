package dev.aii.llamacpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.testkit.gguf.Models;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plain answers of the constructed models, run by llama.cpp in this JVM. */
class AnswerTest {

    @Test
    void aPlainPromptGetsThePlainAnswerByteForByteInSeveralPieces() throws Exception {
        try (LlamaCppModel model = LlamaCppModel.open(ModelFile.of(TestModels.file(Models.switching())),
                TestModels.environment())) {
            assertTrue(model.availability().isAvailable(), () -> model.availability().problem().get().getMessage());
            List<String> pieces = new ArrayList<>();
            try (Session session = model.openSession(SessionOptions.plain())) {
                session.respond("Hello", pieces::add);
            }
            assertEquals(Models.PLAIN_ANSWER, String.join("", pieces));
            assertTrue(pieces.size() > 1, pieces::toString);
        }
    }

    @Test
    void aStopStringOfTheModelsSourceEndsTheAnswerBeforeIt() throws Exception {
        ModelFile file = new ModelFile(TestModels.file(Models.switching()), "tiny", "Ollama",
                java.util.OptionalInt.empty(), List.of("tiny model", "never there"));
        try (LlamaCppModel model = LlamaCppModel.open(file, TestModels.environment())) {
            StringBuilder answer = new StringBuilder();
            try (Session session = model.openSession(SessionOptions.plain())) {
                session.respond("Hello", answer::append);
            }
            assertEquals("Plain answer from the ", answer.toString());
        }
    }
}
