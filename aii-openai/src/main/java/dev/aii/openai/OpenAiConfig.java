package dev.aii.openai;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The backend's settings, from the environment.
 *
 * @param baseUrl {@code AII_BASE_URL} without a trailing slash, e.g. {@code http://localhost:11434/v1}
 * @param model {@code AII_MODEL}, when set
 * @param apiKey {@code AII_API_KEY}, when set
 * @param contextSize {@code AII_CONTEXT_SIZE}, when set to a positive integer
 * @param timeout {@code AII_TIMEOUT}: how long the server may take to start an answer, and may pause in one
 */
public record OpenAiConfig(String baseUrl, Optional<String> model, Optional<String> apiKey, OptionalInt contextSize,
        Duration timeout) {

    /** The timeout when {@code AII_TIMEOUT} is unset or not a positive whole number of seconds. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 120;

    public OpenAiConfig {
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("AII_BASE_URL must not be empty");
        }
        while (baseUrl.endsWith("/")) {
            baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive: " + timeout);
        }
    }

    /** The settings with the default timeout. */
    public OpenAiConfig(String baseUrl, Optional<String> model, Optional<String> apiKey, OptionalInt contextSize) {
        this(baseUrl, model, apiKey, contextSize, Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS));
    }

    /** The settings in {@code env}, or empty when {@code AII_BASE_URL} is not set. */
    public static Optional<OpenAiConfig> fromEnvironment(Map<String, String> env) {
        String base = env.get("AII_BASE_URL");
        if (base == null || base.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new OpenAiConfig(base.strip(),
                nonEmpty(env.get("AII_MODEL")),
                nonEmpty(env.get("AII_API_KEY")),
                positive(env.get("AII_CONTEXT_SIZE")),
                Duration.ofSeconds(timeoutSeconds(env.get("AII_TIMEOUT")).orElse(DEFAULT_TIMEOUT_SECONDS))));
    }

    /** The host of the base URL, or the whole URL when it has none. */
    public String host() {
        try {
            String host = URI.create(baseUrl).getHost();
            return host == null ? baseUrl : host;
        } catch (IllegalArgumentException e) {
            return baseUrl;
        }
    }

    /**
     * Whether the base URL names this machine: {@code localhost}, a name
     * under {@code .localhost}, 127.0.0.0/8 or {@code ::1}. Decided from the
     * URL as written; no name is looked up.
     */
    public boolean isLoopback() {
        return Hosts.isLoopback(host());
    }

    /**
     * {@code AII_TIMEOUT} as a number of seconds: a positive whole number
     * (surrounding blanks allowed); empty for anything else, which the
     * command line warns about and replaces by the default.
     */
    public static OptionalInt timeoutSeconds(String value) {
        if (value == null) {
            return OptionalInt.empty();
        }
        String v = value.strip();
        if (v.isEmpty() || v.length() > 9 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalInt.empty();
        }
        int n = Integer.parseInt(v);
        return n > 0 ? OptionalInt.of(n) : OptionalInt.empty();
    }

    private static Optional<String> nonEmpty(String s) {
        return s == null || s.isBlank() ? Optional.empty() : Optional.of(s.strip());
    }

    private static OptionalInt positive(String s) {
        if (s == null || s.isBlank()) {
            return OptionalInt.empty();
        }
        try {
            int n = Integer.parseInt(s.strip());
            return n > 0 ? OptionalInt.of(n) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
