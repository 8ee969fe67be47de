package dev.aii.cli.backend;

import dev.aii.model.LanguageModel;
import dev.aii.policy.Render;
import java.util.Objects;
import java.util.Optional;

/**
 * How the command line names the model it talks to: in the waiting line
 * ({@code waiting for <model>}) and the first line of the interactive header.
 *
 * @param model the model's name, e.g. {@code llama3.2}
 * @param baseUrl the server's base URL, for a server's model; empty for Foundation Models
 */
public record ModelName(String model, Optional<String> baseUrl) {

    /** What Foundation Models is called. */
    static final String APPLE = "Apple Intelligence";

    /** The header's first line for Foundation Models. */
    public static final String APPLE_BANNER = "aii \u2014 Apple Intelligence Interface";

    public ModelName {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(baseUrl, "baseUrl");
    }

    /** The name of {@code model}: a server's model by its name, anything else as Foundation Models. */
    public static ModelName of(LanguageModel model) {
        return OpenAiModels.name(model).orElse(new ModelName(APPLE, Optional.empty()));
    }

    /**
     * {@code aii — <model> at <base URL>} on a server,
     * {@code aii — Apple Intelligence Interface} otherwise; the server's
     * words escaped, as it chose them.
     */
    public String banner() {
        return baseUrl.map(base -> "aii \u2014 " + Render.escape(model) + " at " + Render.escape(base))
                .orElse(APPLE_BANNER);
    }
}
