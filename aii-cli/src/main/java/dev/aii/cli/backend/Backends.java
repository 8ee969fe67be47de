package dev.aii.cli.backend;

import dev.aii.exec.Platform;
import dev.aii.llamacpp.LlamaCppModel;
import dev.aii.llamacpp.ModelFile;
import dev.aii.llamacpp.OllamaStore;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.openai.LocalServers;
import dev.aii.openai.OpenAiConfig;
import dev.aii.policy.Render;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Chooses the backend: a model file ({@code --model-file}, {@code AII_MODEL_FILE})
 * → that file in the process; {@code AII_BASE_URL} → the OpenAI-compatible
 * server; {@code AII_SHIM_LIBRARY} or macOS → Foundation Models when it is
 * available; else a server found on this machine (Ollama's port, then
 * llama-server's); else a model Ollama has pulled, by the name asked for, in
 * the process; else Foundation Models' own reason, or off macOS that no server
 * was found and what to do. Loaded only when a model is needed, so help,
 * version and the allowlist flags never touch a backend.
 */
public final class Backends {

    /** The variable naming a GGUF file to run in the process; {@code --model-file} sets it. */
    public static final String MODEL_FILE = "AII_MODEL_FILE";

    private Backends() {
    }

    public static LanguageModel open(Map<String, String> env) throws ModelException {
        return open(env, OpenAiModels::discover);
    }

    /** As {@link #open(Map)}, with {@code discover} looking for a server on this machine. */
    static LanguageModel open(Map<String, String> env, Function<Map<String, String>, Optional<LanguageModel>> discover)
            throws ModelException {
        Optional<String> file = nonEmpty(env.get(MODEL_FILE));
        if (file.isPresent()) {
            return LlamaCppModel.open(ModelFile.of(Path.of(file.get())), env);
        }
        Optional<OpenAiConfig> openAi = OpenAiConfig.fromEnvironment(env);
        if (openAi.isPresent()) {
            return OpenAiModels.open(openAi.get());
        }
        String shim = env.get("AII_SHIM_LIBRARY");
        if ((shim != null && !shim.isEmpty()) || Platform.current() == Platform.MACOS) {
            LanguageModel apple = FoundationModels.open(env);
            if (apple.availability().isAvailable()) {
                return apple;
            }
            Optional<LanguageModel> found = discover.apply(env).or(() -> pulled(env));
            if (found.isEmpty()) {
                return apple;   // its availability says why
            }
            apple.close();
            return found.get();
        }
        return discover.apply(env).or(() -> pulled(env)).orElseThrow(
                () -> ModelException.noServerFound(LocalServers.CANDIDATES, NOTHING_FOUND));
    }

    /** The model Ollama has pulled under the name asked for ({@code --model}, {@code AII_MODEL}), in the process. */
    private static Optional<LanguageModel> pulled(Map<String, String> env) {
        return nonEmpty(env.get("AII_MODEL")).flatMap(name -> OllamaStore.of(env).find(name))
                .map(found -> LlamaCppModel.open(found, env));
    }

    private static Optional<String> nonEmpty(String value) {
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** The server {@code AII_BASE_URL} names, unless a model file is run instead. */
    private static Optional<OpenAiConfig> server(Map<String, String> env) {
        return nonEmpty(env.get(MODEL_FILE)).isPresent() ? Optional.empty() : OpenAiConfig.fromEnvironment(env);
    }

    /** The detail of {@code unavailable_not_supported} off macOS: where aii looked for a server. */
    static final String NOTHING_FOUND = "AII_BASE_URL is not set and no server answered GET /models at "
            + String.join(" or ", LocalServers.CANDIDATES);

    /**
     * The warning for an {@code AII_CONTEXT_SIZE} that the OpenAI-compatible
     * backend cannot use (not a positive whole number), which it would
     * otherwise pass over in silence: when {@code AII_BASE_URL} names a server
     * or {@code server} says one was found.
     */
    public static Optional<String> contextSizeWarning(Map<String, String> env, boolean server) {
        String value = env.get("AII_CONTEXT_SIZE");
        if (value == null || value.isBlank() || (!server && OpenAiConfig.fromEnvironment(env).isEmpty())) {
            return Optional.empty();
        }
        try {
            if (Integer.parseInt(value.strip()) > 0) {
                return Optional.empty();
            }
        } catch (NumberFormatException e) {
            // warned about below
        }
        return Optional.of("AII_CONTEXT_SIZE=" + value + " is not a positive whole number; "
                + "the context size is discovered instead");
    }

    /**
     * The warning for an {@code AII_TIMEOUT} that is not a positive whole
     * number of seconds; the default is used instead.
     */
    public static Optional<String> timeoutWarning(Map<String, String> env) {
        String value = env.get("AII_TIMEOUT");
        return server(env)
                .filter(config -> value != null && !value.isBlank() && OpenAiConfig.timeoutSeconds(value).isEmpty())
                .map(config -> "AII_TIMEOUT=" + Render.escape(value) + " is not a positive whole number of seconds; using "
                        + OpenAiConfig.DEFAULT_TIMEOUT_SECONDS);
    }

    /**
     * The one-time warning for {@code -x} when the server is not on this machine:
     * {@code command output will be sent to <host>}. The host is judged as the
     * backend judges it, from the URL as written, without a name lookup.
     */
    public static Optional<String> remoteWarning(Map<String, String> env) {
        return server(env)
                .filter(config -> !config.isLoopback())
                .map(config -> "command output will be sent to " + config.host());
    }
}
