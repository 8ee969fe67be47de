package dev.aii.llamacpp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The models Ollama has pulled, read from its store without Ollama running:
 * {@code $OLLAMA_MODELS} or {@code ~/.ollama/models}, where
 * {@code manifests/<registry>/<namespace>/<model>/<tag>} names the layers of
 * a model by digest and {@code blobs/sha256-<hex>} holds them. The model
 * layer is the GGUF file; the params layer's {@code num_ctx} and {@code stop}
 * are kept. The template layer is a Go template, which llama.cpp cannot
 * render: the GGUF file's own chat template is used, as llama-server does.
 */
public final class OllamaStore {

    private static final String MODEL = "application/vnd.ollama.image.model";
    private static final String PARAMS = "application/vnd.ollama.image.params";
    private static final JsonFactory JSON = new JsonFactory();

    private final Path root;

    private OllamaStore(Path root) {
        this.root = root;
    }

    /** The store {@code environment} points at: {@code OLLAMA_MODELS}, else {@code $HOME/.ollama/models}. */
    public static OllamaStore of(Map<String, String> environment) {
        String models = environment.get("OLLAMA_MODELS");
        if (models != null && !models.isEmpty()) {
            return new OllamaStore(Path.of(models));
        }
        String home = environment.getOrDefault("HOME", System.getProperty("user.home", ""));
        return new OllamaStore(Path.of(home, ".ollama", "models"));
    }

    public Path root() {
        return root;
    }

    /**
     * The GGUF file of {@code name} ({@code model}, {@code model:tag},
     * {@code namespace/model:tag} or {@code registry/namespace/model:tag};
     * the tag defaults to {@code latest}, the namespace to {@code library},
     * the registry to {@code registry.ollama.ai}), when the store has it.
     */
    public Optional<ModelFile> find(String name) {
        Optional<Path> manifest = manifest(name);
        if (manifest.isEmpty()) {
            return Optional.empty();
        }
        try {
            Layers layers = layers(Files.readString(manifest.get()));
            if (layers.model().isEmpty()) {
                return Optional.empty();
            }
            Path gguf = blob(layers.model().get());
            OptionalInt context = OptionalInt.empty();
            List<String> stops = List.of();
            if (layers.params().isPresent()) {
                Params params = params(Files.readString(blob(layers.params().get())));
                context = params.context();
                stops = params.stops();
            }
            return Optional.of(new ModelFile(gguf, name, "Ollama", context, stops));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private Optional<Path> manifest(String name) {
        if (name.isBlank() || name.contains("..") || name.startsWith("/")) {
            return Optional.empty();
        }
        String tag = "latest";
        String path = name;
        int colon = name.lastIndexOf(':');
        if (colon > name.lastIndexOf('/')) {
            tag = name.substring(colon + 1);
            path = name.substring(0, colon);
        }
        String[] parts = path.split("/");
        List<String> full = new ArrayList<>();
        if (parts.length < 3) {
            full.add("registry.ollama.ai");
        }
        if (parts.length < 2) {
            full.add("library");
        }
        full.addAll(List.of(parts));
        Path file = root.resolve("manifests");
        for (String part : full) {
            file = file.resolve(part);
        }
        file = file.resolve(tag);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    private Path blob(String digest) {
        if (!digest.matches("sha256:[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a sha256 digest: " + digest);
        }
        return root.resolve("blobs").resolve(digest.replace(':', '-'));
    }

    private record Layers(Optional<String> model, Optional<String> params) {
    }

    private record Params(OptionalInt context, List<String> stops) {
    }

    private static Layers layers(String manifest) throws IOException {
        Optional<String> model = Optional.empty();
        Optional<String> params = Optional.empty();
        try (JsonParser p = JSON.createParser(manifest)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("a manifest is a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                if (p.nextToken() != JsonToken.START_ARRAY || !field.equals("layers")) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    String type = "";
                    String digest = "";
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        p.nextToken();
                        if (key.equals("mediaType")) {
                            type = p.getValueAsString("");
                        } else if (key.equals("digest")) {
                            digest = p.getValueAsString("");
                        } else {
                            p.skipChildren();
                        }
                    }
                    if (type.equals(MODEL) && model.isEmpty()) {
                        model = Optional.of(digest);
                    } else if (type.equals(PARAMS)) {
                        params = Optional.of(digest);
                    }
                }
            }
        }
        return new Layers(model, params);
    }

    private static Params params(String json) throws IOException {
        OptionalInt context = OptionalInt.empty();
        List<String> stops = new ArrayList<>();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Params(context, stops);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("num_ctx") && value == JsonToken.VALUE_NUMBER_INT && p.getIntValue() > 0) {
                    context = OptionalInt.of(p.getIntValue());
                } else if (field.equals("stop") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        stops.add(p.getText());
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return new Params(context, stops);
    }
}
