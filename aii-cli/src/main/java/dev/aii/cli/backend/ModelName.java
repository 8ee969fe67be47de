package dev.aii.cli.backend;

import dev.aii.llamacpp.LlamaCppModel;
import dev.aii.model.LanguageModel;
import dev.aii.policy.Render;
import java.util.Objects;
import java.util.Optional;

/**
 * How the command line names the model it talks to: in the waiting line
 * ({@code waiting for <model>}) and the first line of the interactive header.
 *
 * @param model the model's name, e.g. {@code llama3.2}, or a model file's name
 * @param baseUrl the server's base URL, for a server's model; empty otherwise
 * @param inProcess whether the model runs in this process (a GGUF file through llama.cpp)
 */
public record ModelName(String model, Optional<String> baseUrl, boolean inProcess) {

    /** What Foundation Models is called. */
    static final String APPLE = "Apple Intelligence";

    /** The header's first line for Foundation Models. */
    public static final String APPLE_BANNER = "aii \u2014 Apple Intelligence Interface";

    public ModelName {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(baseUrl, "baseUrl");
        if (inProcess && baseUrl.isPresent()) {
            throw new IllegalArgumentException("a model in the process has no base URL: " + baseUrl.get());
        }
    }

    /** A server's model, or Foundation Models (no base URL). */
    public ModelName(String model, Optional<String> baseUrl) {
        this(model, baseUrl, false);
    }

    /** The name of {@code model}: a server's model by its name, anything else as Foundation Models. */
    public static ModelName of(LanguageModel model) {
        if (model instanceof LlamaCppModel local) {
            return new ModelName(local.file().name(), Optional.empty(), true);
        }
        return OpenAiModels.name(model).orElse(new ModelName(APPLE, Optional.empty()));
    }

    /**
     * {@code aii — <model> at <base URL>} on a server, {@code aii — <file name> (in process)}
     * for a model file, {@code aii — Apple Intelligence Interface} otherwise; the
     * server's words and the file's name escaped, as others chose them.
     */
    public String banner() {
        if (inProcess) {
            return "aii \u2014 " + Render.escape(model) + " (in process)";
        }
        return baseUrl.map(base -> "aii \u2014 " + Render.escape(model) + " at " + Render.escape(base))
                .orElse(APPLE_BANNER);
    }
}
