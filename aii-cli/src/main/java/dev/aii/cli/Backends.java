package dev.aii.cli;

import dev.aii.exec.Platform;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.openai.OpenAiConfig;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
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
     * The one-time warning for {@code -x} when the server is not on this machine:
     * {@code command output will be sent to <host>}.
     */
    static Optional<String> remoteWarning(Map<String, String> env) {
        return OpenAiConfig.fromEnvironment(env)
                .map(OpenAiConfig::baseUrl)
                .flatMap(Backends::hostOf)
                .filter(host -> !isLoopback(host))
                .map(host -> "command output will be sent to " + host);
    }

    private static Optional<String> hostOf(String url) {
        try {
            return Optional.ofNullable(URI.create(url).getHost());
        } catch (IllegalArgumentException e) {
            return Optional.of(url);
        }
    }

    /** Whether {@code host} is this machine: {@code localhost}, or literal and resolved addresses that are all loopback. */
    static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost") || h.toLowerCase(java.util.Locale.ROOT).endsWith(".localhost")) {
            return true;
        }
        try {
            InetAddress[] addresses = InetAddress.getAllByName(h);
            for (InetAddress address : addresses) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }
}
