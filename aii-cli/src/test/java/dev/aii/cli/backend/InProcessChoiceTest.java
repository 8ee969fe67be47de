package dev.aii.cli.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.llamacpp.LlamaCppModel;
import dev.aii.model.ErrorCode;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.openai.OpenAiBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * When aii runs a GGUF file in the process (cli.md §10.11): a model file is
 * the most specific choice; without one, an Ollama model by name when no
 * server was found; without that either, on Linux, the §10.8 advice. The
 * search for a server is played by a function here, so no port of this
 * machine is asked.
 */
@EnabledOnOs(OS.LINUX)
class InProcessChoiceTest {

    private static final String DIGEST = "ab".repeat(32);

    @TempDir
    Path root;

    /** A server some search found: only its identity matters here. */
    private static final LanguageModel FOUND = new LanguageModel() {
        @Override
        public dev.aii.model.Availability availability() {
            return dev.aii.model.Availability.available();
        }

        @Override
        public int contextSize() {
            return 4096;
        }

        @Override
        public OptionalInt countTokens(String text) {
            return OptionalInt.empty();
        }

        @Override
        public String variant() {
            return "found";
        }

        @Override
        public Optional<List<String>> supportedLanguages() {
            return Optional.empty();
        }

        @Override
        public Session openSession(SessionOptions options) {
            throw new UnsupportedOperationException();
        }
    };

    private Path pull(String name) throws Exception {
        Path manifest = root.resolve("ollama/manifests/registry.ollama.ai/library").resolve(name).resolve("latest");
        Files.createDirectories(manifest.getParent());
        Files.writeString(manifest, "{\"layers\":[{\"mediaType\":\"application/vnd.ollama.image.model\","
                + "\"digest\":\"sha256:" + DIGEST + "\"}]}");
        Path blob = Files.createDirectories(root.resolve("ollama/blobs")).resolve("sha256-" + DIGEST);
        Files.writeString(blob, "GGUF");
        return blob;
    }

    @Test
    void aModelFileIsRunInTheProcessEvenWhenAServerIsNamed() throws Exception {
        LanguageModel model = Backends.open(Map.of("AII_MODEL_FILE", "/models/qwen.gguf",
                "AII_BASE_URL", "http://127.0.0.1:9/v1"), env -> Optional.of(FOUND));
        LlamaCppModel local = assertInstanceOf(LlamaCppModel.class, model);
        assertEquals(Path.of("/models/qwen.gguf"), local.file().path());
        assertEquals(new ModelName("qwen.gguf", Optional.empty(), true), ModelName.of(model));
        assertEquals("aii \u2014 qwen.gguf (in process)", ModelName.of(model).banner());
    }

    @Test
    void aNamedServerIsUsedWithoutAModelFile() throws Exception {
        LanguageModel model = Backends.open(Map.of("AII_BASE_URL", "http://127.0.0.1:9/v1", "AII_MODEL", "tiny"),
                env -> Optional.of(FOUND));
        assertInstanceOf(OpenAiBackend.class, model);
    }

    @Test
    void aServerFoundOnItsPortComesBeforeOllamasStore() throws Exception {
        pull("tiny");
        assertSame(FOUND, Backends.open(Map.of("OLLAMA_MODELS", root.resolve("ollama").toString(), "AII_MODEL", "tiny"),
                env -> Optional.of(FOUND)));
    }

    @Test
    void withNoServerFoundAModelOllamaPulledRunsInTheProcess() throws Exception {
        Path blob = pull("tiny");
        LanguageModel model = Backends.open(Map.of("OLLAMA_MODELS", root.resolve("ollama").toString(),
                "AII_MODEL", "tiny"), env -> Optional.empty());
        LlamaCppModel local = assertInstanceOf(LlamaCppModel.class, model);
        assertEquals(blob, local.file().path());
        assertEquals("aii \u2014 tiny (in process)", ModelName.of(model).banner());
    }

    @Test
    void withNoServerAndNoFileLinuxSaysWhereItLookedAndWhatToDo() throws Exception {
        pull("tiny");
        for (Map<String, String> env : List.of(Map.<String, String>of(),
                Map.of("OLLAMA_MODELS", root.resolve("ollama").toString(), "AII_MODEL", "not-pulled"))) {
            ModelException e = assertThrows(ModelException.class, () -> Backends.open(env, found -> Optional.empty()));
            assertEquals(ErrorCode.UNAVAILABLE_NOT_SUPPORTED, e.code());
            assertEquals(3, e.code().exitCode());
            assertEquals("No model server found (tried http://127.0.0.1:11434/v1, http://127.0.0.1:8080/v1)\n"
                    + "start Ollama or llama-server, set AII_BASE_URL, or pass --model-file PATH.gguf", e.getMessage());
            assertEquals(Optional.of("AII_BASE_URL is not set and no server answered GET /models at "
                    + "http://127.0.0.1:11434/v1 or http://127.0.0.1:8080/v1"), e.detail());
        }
    }

    @Test
    void theServerWarningsLeaveAModelFileAlone() {
        Map<String, String> env = Map.of("AII_MODEL_FILE", "/m.gguf", "AII_BASE_URL", "http://example.com/v1",
                "AII_TIMEOUT", "soon");
        assertEquals(Optional.empty(), Backends.remoteWarning(env));
        assertEquals(Optional.empty(), Backends.timeoutWarning(env));
    }
}
