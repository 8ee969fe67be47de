package dev.aii.cli;

import dev.aii.exec.Platform;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.policy.Render;
import dev.aii.openai.OpenAiConfig;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the backend: {@code AII_BASE_URL} → the OpenAI-compatible server;
 * {@code AII_SHIM_LIBRARY} or macOS → Foundation Models; else none. Loaded
 * only when a model is needed, so help, version and the allowlist flags never
 * touch a backend.
 */
final class Backends {

    private Backends() {
    }

    static LanguageModel open(Map<String, String> env) throws ModelException {
        Optional<OpenAiConfig> openAi = OpenAiConfig.fromEnvironment(env);
        if (openAi.isPresent()) {
            return OpenAiModels.open(openAi.get());
        }
        String shim = env.get("AII_SHIM_LIBRARY");
        if ((shim != null && !shim.isEmpty()) || Platform.current() == Platform.MACOS) {
            return FoundationModels.open(env);
        }
        throw ModelException.notSupportedOnThisSystem();
    }

    /**
     * The warning for an {@code AII_CONTEXT_SIZE} that the OpenAI-compatible
     * backend cannot use (not a positive whole number), which it would
     * otherwise pass over in silence.
     */
    static Optional<String> contextSizeWarning(Map<String, String> env) {
        String value = env.get("AII_CONTEXT_SIZE");
        return OpenAiConfig.fromEnvironment(env)
                .filter(config -> config.contextSize().isEmpty() && value != null && !value.isBlank())
                .map(config -> "AII_CONTEXT_SIZE=" + value + " is not a positive whole number; "
                        + "the context size is discovered instead");
    }

    /**
     * The warning for an {@code AII_TIMEOUT} that is not a positive whole
     * number of seconds; the default is used instead.
     */
    static Optional<String> timeoutWarning(Map<String, String> env) {
        String value = env.get("AII_TIMEOUT");
        return OpenAiConfig.fromEnvironment(env)
                .filter(config -> value != null && !value.isBlank() && OpenAiConfig.timeoutSeconds(value).isEmpty())
                .map(config -> "AII_TIMEOUT=" + Render.escape(value) + " is not a positive whole number of seconds; using "
                        + OpenAiConfig.DEFAULT_TIMEOUT_SECONDS);
    }

    /**
     * The one-time warning for {@code -x} when the server is not on this machine:
     * {@code command output will be sent to <host>}. The host is judged as the
     * backend judges it, from the URL as written, without a name lookup.
     */
    static Optional<String> remoteWarning(Map<String, String> env) {
        return OpenAiConfig.fromEnvironment(env)
                .filter(config -> !config.isLoopback())
                .map(config -> "command output will be sent to " + config.host());
    }
}
