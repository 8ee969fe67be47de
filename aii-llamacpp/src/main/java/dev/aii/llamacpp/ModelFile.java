package dev.aii.llamacpp;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A GGUF file to run, and where it came from.
 *
 * @param path the file
 * @param name how aii names it: the file name, or the Ollama model's name
 * @param source where it was found, for {@code -m}: {@code --model-file}, or {@code Ollama}
 * @param contextSize a context the source asks for (Ollama's {@code num_ctx}), when it does
 * @param stops strings that end an answer besides the model's own end tokens (Ollama's {@code stop})
 */
public record ModelFile(Path path, String name, String source, OptionalInt contextSize, List<String> stops) {

    public ModelFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        contextSize = contextSize == null ? OptionalInt.empty() : contextSize;
        stops = List.copyOf(stops);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a model file needs a name: " + path);
        }
    }

    /** A file given by path ({@code --model-file}, {@code AII_MODEL_FILE}): named after itself. */
    public static ModelFile of(Path path) {
        Path name = path.getFileName();
        return new ModelFile(path, name == null ? path.toString() : name.toString(), "file", OptionalInt.empty(),
                List.of());
    }

    /** The name shown when it differs from the file name: an Ollama model's. */
    Optional<String> alias() {
        Path file = path.getFileName();
        return file != null && file.toString().equals(name) ? Optional.empty() : Optional.of(name);
    }
}
