package dev.aii.llamacpp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ollama's store as Ollama lays it out: manifests name the layers, blobs hold them. */
class OllamaStoreTest {

    private static final String MODEL = "sha256:" + "a".repeat(64);
    private static final String PARAMS = "sha256:" + "b".repeat(64);

    @TempDir
    Path root;

    private Path pull(String registry, String namespace, String model, String tag, boolean params) throws Exception {
        Path manifest = root.resolve("manifests").resolve(registry).resolve(namespace).resolve(model).resolve(tag);
        Files.createDirectories(manifest.getParent());
        String layers = "{\"mediaType\":\"application/vnd.ollama.image.model\",\"digest\":\"" + MODEL + "\",\"size\":4}"
                + ",{\"mediaType\":\"application/vnd.ollama.image.template\",\"digest\":\"sha256:" + "c".repeat(64)
                + "\"}" + (params ? ",{\"mediaType\":\"application/vnd.ollama.image.params\",\"digest\":\"" + PARAMS
                        + "\"}" : "");
        Files.writeString(manifest, "{\"schemaVersion\":2,\"config\":{\"digest\":\"sha256:" + "d".repeat(64)
                + "\"},\"layers\":[" + layers + "]}");
        Files.createDirectories(root.resolve("blobs"));
        Files.writeString(root.resolve("blobs").resolve(MODEL.replace(':', '-')), "GGUF");
        Files.writeString(root.resolve("blobs").resolve(PARAMS.replace(':', '-')),
                "{\"num_ctx\":2048,\"stop\":[\"<|im_end|>\",\"<|endoftext|>\"],\"temperature\":0.7}");
        return root.resolve("blobs").resolve(MODEL.replace(':', '-'));
    }

    @Test
    void aShortNameIsTheLibraryModelAtItsLatestTag() throws Exception {
        Path blob = pull("registry.ollama.ai", "library", "qwen2.5", "latest", false);
        OllamaStore store = OllamaStore.of(Map.of("OLLAMA_MODELS", root.toString()));
        ModelFile file = store.find("qwen2.5").orElseThrow();
        assertEquals(blob, file.path());
        assertEquals("qwen2.5", file.name());
        assertEquals("Ollama", file.source());
        assertEquals(OptionalInt.empty(), file.contextSize());
    }

    @Test
    void theParamsLayerGivesTheContextAndTheStops() throws Exception {
        pull("registry.ollama.ai", "library", "qwen2.5", "0.5b", true);
        ModelFile file = OllamaStore.of(Map.of("OLLAMA_MODELS", root.toString())).find("qwen2.5:0.5b").orElseThrow();
        assertEquals(OptionalInt.of(2048), file.contextSize());
        assertEquals(List.of("<|im_end|>", "<|endoftext|>"), file.stops());
    }

    @Test
    void namespacesAndRegistriesAreSpelledOut() throws Exception {
        pull("registry.ollama.ai", "someone", "tiny", "q4", false);
        pull("hf.co", "org", "model", "latest", false);
        OllamaStore store = OllamaStore.of(Map.of("OLLAMA_MODELS", root.toString()));
        assertEquals(true, store.find("someone/tiny:q4").isPresent());
        assertEquals(true, store.find("hf.co/org/model").isPresent());
    }

    @Test
    void theStoreIsUnderHomeWithoutOllamaModels() throws Exception {
        Path home = root.resolve("home");
        root = home.resolve(".ollama/models");
        pull("registry.ollama.ai", "library", "m", "latest", false);
        assertEquals(true, OllamaStore.of(Map.of("HOME", home.toString())).find("m").isPresent());
    }

    @Test
    void namesTheStoreDoesNotHaveAreNotFound() throws Exception {
        pull("registry.ollama.ai", "library", "qwen2.5", "latest", false);
        OllamaStore store = OllamaStore.of(Map.of("OLLAMA_MODELS", root.toString()));
        for (String name : new String[] {"qwen3", "qwen2.5:7b", "", "../x", "/etc/passwd", "a/../../b"}) {
            assertEquals(Optional.empty(), store.find(name), name);
        }
    }
}
