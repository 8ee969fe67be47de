package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.model.ModelException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Turns what a server answered, or how talking to it failed, into the errors of the command line contract. */
final class ServerErrors {

    /** What the TLS socket says when an http:// server answers its greeting in plain text. */
    private static final String PLAIN_ANSWER_TO_TLS = "Unsupported or unrecognized SSL message";

    /** How much of a response body a detail quotes. */
    static final int EXCERPT_LENGTH = 200;

    /** Words by which servers say a prompt does not fit (OpenAI, vLLM, llama.cpp, apfel, LM Studio). */
    private static final List<String> CONTEXT_WORDS = List.of(
            "context length", "context window", "context size", "maximum context", "too many tokens",
            "exceeds the context", "context_length_exceeded", "exceed_context_size", "context overflow",
            "context shift");

    private ServerErrors() {
    }

    /**
     * The error for a chat request the server refused with {@code status}:
     * 429 and 503 (llama.cpp loading its model, Ollama busy) are
     * {@code rate_limited}; a 400, 413 or 500 speaking of the context, or a
     * 500 after an answer that filled the context ({@code contextFull}), is
     * {@code context_exceeded}; anything else is {@code server_error}. What
     * the server said goes along for the command line to show.
     */
    static ModelException forChatStatus(int status, String body, int contextSize, boolean contextFull) {
        String detail = "HTTP " + status + ": " + excerpt(body);
        return forStatus(status, speaksOfContext(body), contextFull, detail, contextSize)
                .withServerMessage(serverMessage(body).orElse(null));
    }

    /** The error for a refusal whose body did not arrive in time: judged by the status alone. */
    static ModelException forChatStatusWithoutBody(int status, Duration waited, int contextSize, boolean contextFull) {
        String detail = "HTTP " + status + " (the body did not arrive within " + Timeouts.describe(waited) + ")";
        return forStatus(status, false, contextFull, detail, contextSize);
    }

    private static ModelException forStatus(int status, boolean aboutContext, boolean contextFull, String detail,
            int contextSize) {
        if (status == 429 || status == 503) {
            return ModelException.rateLimited(detail);
        }
        if (((status == 400 || status == 413) && aboutContext) || (status == 500 && (aboutContext || contextFull))) {
            return ModelException.contextExceeded(contextSize, detail);
        }
        return ModelException.serverFailed(statusWords(status), status, detail);
    }

    /** What a status means, in words of its own (RFC 9110's reason phrases): never the server's. */
    static String statusWords(int status) {
        return switch (status) {
            case 400 -> "bad request";
            case 401 -> "unauthorized";
            case 402 -> "payment required";
            case 403 -> "forbidden";
            case 404 -> "not found";
            case 405 -> "method not allowed";
            case 406 -> "not acceptable";
            case 408 -> "request timeout";
            case 409 -> "conflict";
            case 410 -> "gone";
            case 413 -> "content too large";
            case 415 -> "unsupported media type";
            case 422 -> "unprocessable content";
            case 500 -> "internal server error";
            case 501 -> "not implemented";
            case 502 -> "bad gateway";
            case 504 -> "gateway timeout";
            default -> status >= 500 ? "server error" : status >= 400 ? "client error" : "unexpected status";
        };
    }

    /** The error for an {@code error} object the server put into the stream instead of a chunk. */
    static ModelException forStreamError(JsonNode error, int contextSize) {
        String text = error.isTextual() ? error.asText() : Json.write(error);
        String detail = "stream error: " + excerpt(text);
        JsonNode code = error.path("code");
        String type = error.path("type").asText("");
        ModelException e;
        if (code.asInt() == 429 || code.asText().contains("rate_limit") || type.contains("rate_limit")) {
            e = ModelException.rateLimited(detail);
        } else if (speaksOfContext(text)) {
            e = ModelException.contextExceeded(contextSize, detail);
        } else {
            e = ModelException.internal("The model server reported an error in the middle of the answer", detail, null);
        }
        return e.withServerMessage(messageOf(error).orElse(null));
    }

    /**
     * What a server said in an error body: the JSON {@code error.message},
     * {@code error} when it is a string, a top-level {@code message}, else the
     * first {@value #EXCERPT_LENGTH} characters of the body; empty for an empty body.
     */
    static Optional<String> serverMessage(String body) {
        Optional<JsonNode> json = Json.parse(body).filter(JsonNode::isObject);
        if (json.isPresent()) {
            Optional<String> said = messageOf(json.get().path("error"));
            if (said.isPresent()) {
                return said;
            }
            Optional<String> top = Json.text(json.get().get("message"));
            if (top.isPresent()) {
                return top;
            }
        }
        String flat = body.strip();
        if (flat.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(flat.codePointCount(0, flat.length()) <= EXCERPT_LENGTH
                ? flat : flat.substring(0, flat.offsetByCodePoints(0, EXCERPT_LENGTH)));
    }

    private static Optional<String> messageOf(JsonNode error) {
        if (error == null) {
            return Optional.empty();
        }
        if (error.isTextual()) {
            return Json.text(error);
        }
        return Json.text(error.get("message"));
    }

    static boolean speaksOfContext(String body) {
        String lower = body.toLowerCase(Locale.ROOT);
        return CONTEXT_WORDS.stream().anyMatch(lower::contains);
    }

    /**
     * At most {@value #EXCERPT_LENGTH} characters of {@code body} on one
     * line, {@code ...} marking a cut; control characters become spaces, so
     * that a server cannot drive the terminal through an error message.
     */
    static String excerpt(String body) {
        String flat = body.replaceAll("[\\s\\p{Cntrl}]+", " ").strip();
        if (flat.isEmpty()) {
            return "(empty body)";
        }
        if (flat.codePointCount(0, flat.length()) <= EXCERPT_LENGTH) {
            return flat;
        }
        return flat.substring(0, flat.offsetByCodePoints(0, EXCERPT_LENGTH)) + "...";
    }

    /** A short account of a transport failure, for a detail: the JDK's own messages are often empty. */
    static String describe(Throwable e) {
        if (e instanceof ServerHttp.Timeout timeout) {
            return timeout.connecting() ? "connection timed out" : "no answer in time";
        }
        String message = null;
        Throwable kind = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                message = t.getMessage();
                kind = t;
            }
        }
        if (isUnreachable(e)) {
            boolean unknownHost = kind instanceof UnknownHostException || kind instanceof UnresolvedAddressException;
            String what = unknownHost ? "unknown host" : "connection refused";
            return message == null || message.equalsIgnoreCase(what) ? what : what + ": " + message;
        }
        if (kind instanceof javax.net.ssl.SSLException && PLAIN_ANSWER_TO_TLS.equals(message)) {
            return "Unrecognized SSL message, plaintext connection?";
        }
        return message == null ? e.getClass().getSimpleName() : message;
    }

    /** Like {@link #describe(Throwable)}, naming the time waited when it ran out. */
    static String describe(Throwable e, Duration waited) {
        if (e instanceof ServerHttp.Timeout timeout && !timeout.connecting()) {
            return "no answer within " + Timeouts.describe(waited);
        }
        return describe(e);
    }

    /** Whether {@code e} means nothing listens at the address (or it cannot be found). */
    static boolean isUnreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException
                    || t instanceof UnresolvedAddressException) {
                return true;
            }
        }
        return false;
    }
}
