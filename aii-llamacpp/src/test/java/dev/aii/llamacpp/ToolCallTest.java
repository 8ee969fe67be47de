package dev.aii.llamacpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.gguf.Models;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The run_command tool loop in the process: llama.cpp's grammar, the shim's parser, the results fed back. */
class ToolCallTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"executable\":{\"type\":\"string\"},"
            + "\"arguments\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"executable\"]}";

    private static ToolSpec tool(List<String> calls, String result) {
        return new ToolSpec("run_command", "Runs a program.", SCHEMA, arguments -> {
            calls.add(arguments);
            return result;
        });
    }

    @Test
    void theModelCallsTheToolOnceAndAnswersWithTheResultInItsContext() throws Exception {
        List<String> calls = new ArrayList<>();
        List<String> pieces = new ArrayList<>();
        try (LlamaCppModel model = LlamaCppModel.open(ModelFile.of(TestModels.file(Models.switching())),
                TestModels.environment());
                Session session = model.openSession(new SessionOptions(Optional.of("You run commands."),
                        List.of(tool(calls, "exit 0\nLinux\n"))))) {
            session.respond("What OS is this?", pieces::add);
        }
        assertEquals(List.of("{\"executable\": \"uname\", \"arguments\": [\"-s\"]}"), calls);
        assertEquals(Models.CLOSING_ANSWER, String.join("", pieces));
    }

    @Test
    void aToolCallTheGrammarRejectsIsAServerErrorAfterTheTextBeforeIt() throws Exception {
        List<String> calls = new ArrayList<>();
        StringBuilder shown = new StringBuilder();
        try (LlamaCppModel model = LlamaCppModel.open(ModelFile.of(TestModels.file(Models.failsMidStream())),
                TestModels.environment());
                Session session = model.openSession(new SessionOptions(Optional.empty(),
                        List.of(tool(calls, "exit 0\n"))))) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("Go", shown::append));
            assertEquals(ErrorCode.SERVER_ERROR, e.code());
            assertEquals(4, e.code().exitCode());
            assertTrue(e.getMessage().startsWith("llama.cpp failed while answering"), e.getMessage());
            assertEquals(Models.FAILING_TEXT, shown.toString());
            // The session survives its failure: the next prompt is answered.
            StringBuilder again = new StringBuilder();
            assertThrows(ModelException.class, () -> session.respond("Go", again::append));
        }
        assertEquals(List.of(), calls);
    }
}
