package dev.aii.openai;

import java.net.URI;

/**
 * The server's addresses: the OpenAI-compatible ones under the base URL, and
 * the native ones of llama.cpp and Ollama under the server root (the base URL
 * without its trailing {@code /v1}).
 *
 * @param base the base URL without a trailing slash, e.g. {@code http://localhost:8080/v1}
 */
record Endpoints(String base) {

    Endpoints {
        if (base == null || base.isEmpty() || base.endsWith("/")) {
            throw new IllegalArgumentException("base URL must be non-empty without a trailing slash: " + base);
        }
    }

    /** The base URL without its trailing {@code /v1}, or the base URL itself when it has none. */
    String root() {
        return base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base;
    }

    URI models() {
        return URI.create(base + "/models");
    }

    URI chatCompletions() {
        return URI.create(base + "/chat/completions");
    }

    /** llama.cpp's server properties, with the context size. */
    URI props() {
        return URI.create(root() + "/props");
    }

    /** llama.cpp's tokenizer. */
    URI tokenize() {
        return URI.create(root() + "/tokenize");
    }

    /** Ollama's model details. */
    URI ollamaShow() {
        return URI.create(root() + "/api/show");
    }
}
