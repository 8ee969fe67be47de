package dev.aii.llamacpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.gguf.GgufWriter;
import dev.aii.testkit.gguf.Models;
import dev.aii.testkit.gguf.TinyModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files llama.cpp cannot run: each is unavailable_model with a reason a user can act on, and the JVM lives on. */
class BadModelTest {

    @TempDir
    Path dir;

    private static ModelException problem(Path file, Map<String, String> env) {
        try (LlamaCppModel model = LlamaCppModel.open(ModelFile.of(file), env)) {
            return model.availability().problem().orElseThrow(() -> new AssertionError(file + " loaded"));
        }
    }

    private static ModelException problem(Path file) throws Exception {
        return problem(file, TestModels.environment());
    }

    private static void assertUnavailable(ModelException e, Path file, String reason) {
        assertEquals(ErrorCode.UNAVAILABLE_MODEL, e.code());
        assertEquals(3, e.code().exitCode());
        assertEquals("Cannot load the model " + file + "\n" + reason, e.getMessage());
    }

    @Test
    void aFileThatIsNotGgufSaysSoAndShowsItsFirstBytes() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.gguf"), "hello, world\n");
        ModelException e = problem(file);
        assertUnavailable(e, file, "it is not a GGUF file (the format llama.cpp reads)");
        assertEquals(Optional.of("the file starts with 68656c6c, not \"GGUF\""), e.detail());
    }

    @Test
    void aMissingFileAndADirectoryAreNamed() throws Exception {
        assertUnavailable(problem(dir.resolve("none.gguf")), dir.resolve("none.gguf"), "there is no such file");
        assertUnavailable(problem(dir), dir, "it is a directory, not a file");
    }

    @Test
    void aTruncatedFileIsTruncatedOrDamagedWithLlamaCppsReasonAsDetail() throws Exception {
        byte[] whole = Files.readAllBytes(TestModels.file(Models.switching()));
        Path file = Files.write(dir.resolve("half.gguf"), Arrays.copyOf(whole, whole.length / 2));
        ModelException e = problem(file);
        assertUnavailable(e, file, "the file is truncated or damaged");
        assertTrue(e.detail().orElseThrow().contains("llama_model_load"), e.detail()::toString);
    }

    @Test
    void anArchitectureLlamaCppDoesNotKnowIsNamed() throws Exception {
        Path file = dir.resolve("arch.gguf");
        new GgufWriter().put("general.architecture", "nosucharch").put("general.name", "x").write(file);
        ModelException e = problem(file);
        assertUnavailable(e, file, "this llama.cpp does not know its architecture, nosucharch");
        assertTrue(e.detail().orElseThrow().contains("unknown model architecture: 'nosucharch'"), e.detail()::toString);
    }

    @Test
    void aWeightTypeLlamaCppDoesNotKnowIsAQuantisationItCannotRead() throws Exception {
        Path file = dir.resolve("type.gguf");
        new GgufWriter().put("general.architecture", "llama").rawTensor("token_embd.weight", 99, new byte[64], 16)
                .write(file);
        ModelException e = problem(file);
        assertUnavailable(e, file, "this llama.cpp does not know the type (quantisation) of its weights");
        assertTrue(e.detail().orElseThrow().contains("invalid ggml type 99"), e.detail()::toString);
    }

    /**
     * A context whose KV cache (1,280 bytes a token for the test models: one layer, 320 dimensions of K and V
     * in F16) needs twice the machine's memory, so that llama.cpp's one allocation of it fails at once.
     */
    private static long tokensBeyondMemory() throws java.io.IOException {
        long kib = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(32L << 20);
        return Math.max(1L << 25, kib * 1024 * 2 / 1280);
    }

    @Test
    void aContextTooLargeForTheMemoryIsNotEnoughMemory() throws Exception {
        Path file = TestModels.file(Models.switching());
        ModelException e = problem(file, TestModels.environment("AII_CONTEXT_SIZE", Long.toString(tokensBeyondMemory())));
        assertUnavailable(e, file, "there is not enough memory for it and its context; set AII_CONTEXT_SIZE to fewer tokens");
    }

    @Test
    void aTemplateLlamaCppCannotParseIsNamedAsTheTemplate() throws Exception {
        Path file = dir.resolve("broken-template.gguf");
        new TinyModel(Models.switching()).write(file, "{% for message in messages %}{{ message.content ");
        ModelException e = problem(file);
        assertUnavailable(e, file, "llama.cpp cannot read its chat template");
    }

    @Test
    void aTemplateThatFailsToRenderIsFoundBeforeAnyPrompt() throws Exception {
        Path file = dir.resolve("raising-template.gguf");
        new TinyModel(Models.switching()).write(file, "{{ raise_exception('this template renders nothing') }}");
        ModelException e = problem(file);
        assertUnavailable(e, file, "llama.cpp cannot render its chat template");
        assertTrue(e.detail().orElseThrow().contains("this template renders nothing"), e.detail()::toString);
    }

    @Test
    void aTemplateWithoutToolsAnswersPlainlyButRefusesTools() throws Exception {
        Path file = dir.resolve("no-tools.gguf");
        new TinyModel(Models.switching()).write(file, "{% for message in messages %}<|im_start|>{{ message.role }}\n"
                + "{{ message.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n"
                + "{% endif %}");
        try (LlamaCppModel model = LlamaCppModel.open(ModelFile.of(file), TestModels.environment())) {
            StringBuilder answer = new StringBuilder();
            try (var session = model.openSession(SessionOptions.plain())) {
                session.respond("Hello", answer::append);
            }
            assertEquals(Models.PLAIN_ANSWER, answer.toString());
            ToolSpec tool = new ToolSpec("run_command", "Runs a program.", "{\"type\":\"object\"}", args -> "");
            ModelException e = assertThrows(ModelException.class,
                    () -> model.openSession(new SessionOptions(Optional.empty(), List.of(tool))));
            assertEquals(ErrorCode.UNAVAILABLE_MODEL, e.code());
            assertEquals("The model " + file + " cannot call tools: its chat template has no tool calls\n"
                    + "leave -x out for this model, or run one that calls tools", e.getMessage());
        }
    }
}
