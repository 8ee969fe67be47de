package dev.aii.cli.backend;

import dev.aii.model.LanguageModel;
import dev.aii.openai.LocalServers;
import dev.aii.openai.OpenAiBackend;
import dev.aii.openai.OpenAiConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The OpenAI-compatible backend, as the command line uses it; a class of its own so it loads only when used. */
public final class OpenAiModels {

    private OpenAiModels() {
    }

    static LanguageModel open(OpenAiConfig config) {
        return OpenAiBackend.create(config);
    }

    /**
     * A server found on this machine's usual ports ({@link LocalServers#CANDIDATES}),
     * with the rest of {@code env}'s settings but not its {@code AII_API_KEY},
     * which is meant for the server {@code AII_BASE_URL} names.
     */
    static Optional<LanguageModel> discover(Map<String, String> env) {
        return LocalServers.find(LocalServers.CANDIDATES).map(base -> {
            Map<String, String> found = new HashMap<>(env);
            found.put("AII_BASE_URL", base);
            found.remove("AII_API_KEY");
            return open(OpenAiConfig.fromEnvironment(found).orElseThrow());
        });
    }

    /** The name of {@code model} and its server's base URL, when it is a server's model. */
    static Optional<ModelName> name(LanguageModel model) {
        if (model instanceof OpenAiBackend server) {
            return Optional.of(new ModelName(server.chosenModel().or(() -> server.config().model()).orElse("the model"),
                    Optional.of(server.config().baseUrl())));
        }
        return Optional.empty();
    }
}
