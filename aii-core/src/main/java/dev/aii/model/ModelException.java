package dev.aii.model;

import dev.aii.policy.Render;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A failure with its {@link ErrorCode}, the user-facing message (lines joined
 * by LF) and an optional detail (the backend's own words). The factories hold
 * the exact texts of the command line contract.
 */
public final class ModelException extends Exception {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String detail;
    private final String serverMessage;

    public ModelException(ErrorCode code, String message, String detail) {
        this(code, message, detail, null);
    }

    public ModelException(ErrorCode code, String message, String detail, Throwable cause) {
        this(code, message, detail, cause, null);
    }

    private ModelException(ErrorCode code, String message, String detail, Throwable cause, String serverMessage) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.code = Objects.requireNonNull(code, "code");
        this.detail = detail;
        this.serverMessage = serverMessage == null || serverMessage.isBlank() ? null : serverMessage;
    }

    /**
     * The same error, carrying what the server said about it (its JSON
     * {@code error.message}, {@code error} as a string, or the start of its
     * body), which the command line shows as a last line of its own.
     */
    public ModelException withServerMessage(String message) {
        ModelException copy = new ModelException(code, getMessage(), detail, getCause(), message);
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    /** What the server said, when the error comes from a server that said something. */
    public Optional<String> serverMessage() {
        return Optional.ofNullable(serverMessage);
    }

    public ErrorCode code() {
        return code;
    }

    /** The backend's own words (case name, HTTP status and body excerpt), when there are any. */
    public Optional<String> detail() {
        return Optional.ofNullable(detail);
    }

    /** The message's lines. */
    public List<String> lines() {
        return List.of(getMessage().split("\n", -1));
    }

    // --- availability -------------------------------------------------------------------------

    /** {@code unavailable_not_supported} on macOS. */
    public static ModelException notSupportedOnThisDevice(String detail) {
        return new ModelException(ErrorCode.UNAVAILABLE_NOT_SUPPORTED,
                "This device does not support Apple Intelligence", detail);
    }

    /** {@code unavailable_not_supported} on systems other than macOS, with the guidance line. */
    public static ModelException notSupportedOnThisSystem() {
        return new ModelException(ErrorCode.UNAVAILABLE_NOT_SUPPORTED,
                "Apple Intelligence is not available on this system\n"
                        + "set AII_BASE_URL to an OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama)",
                null);
    }

    /**
     * {@code unavailable_not_supported} where Foundation Models cannot exist and
     * no server answered at {@code tried} (cli.md §10.8).
     */
    public static ModelException noServerFound(List<String> tried, String detail) {
        return new ModelException(ErrorCode.UNAVAILABLE_NOT_SUPPORTED,
                "No model server found (tried " + String.join(", ", tried) + ")\n"
                        + "start Ollama or llama-server, set AII_BASE_URL, or pass --model-file PATH.gguf", detail);
    }

    public static ModelException notEnabled(String detail) {
        return new ModelException(ErrorCode.UNAVAILABLE_NOT_ENABLED,
                "Apple Intelligence is not enabled\n"
                        + "enable it in System Settings \u2192 Apple Intelligence & Siri", detail);
    }

    public static ModelException downloading(String detail) {
        return new ModelException(ErrorCode.UNAVAILABLE_DOWNLOADING,
                "Apple Intelligence model assets are still downloading\ntry again shortly", detail);
    }

    /** {@code internal_error} for an availability reason the backend does not know. */
    public static ModelException unknownUnavailability(String detail) {
        return new ModelException(ErrorCode.INTERNAL_ERROR,
                "Apple Intelligence is unavailable for an unknown reason", detail);
    }

    public static ModelException serverUnreachable(String baseUrl, String detail) {
        return new ModelException(ErrorCode.UNAVAILABLE_SERVER,
                "Cannot reach the model server at " + baseUrl + "\n"
                        + "start it, or point AII_BASE_URL at a running OpenAI-compatible server", detail);
    }

    /** {@code unavailable_model}: the model asked for is not among {@code names}, the server's. */
    public static ModelException modelNotAvailable(String model, String baseUrl, List<String> names, String detail) {
        return new ModelException(ErrorCode.UNAVAILABLE_MODEL,
                "Model " + Render.escape(model) + " is not available at " + Render.escape(baseUrl) + "\n"
                        + "set AII_MODEL to one of: " + shown(names), detail);
    }

    /**
     * {@code unavailable_model}: no model was asked for and the server does
     * not have exactly one; the second line names both ways of choosing.
     */
    public static ModelException noModelChosen(String baseUrl, List<String> names, String detail) {
        return new ModelException(ErrorCode.UNAVAILABLE_MODEL,
                "No model chosen at " + Render.escape(baseUrl) + "\n"
                        + "choose one with --model NAME or set AII_MODEL to one of: " + shown(names), detail);
    }

    /** The names as a list to read; a server's names are its own text, so what a terminal acts on is escaped. */
    private static String shown(List<String> names) {
        return Render.escape(String.join(", ", names));
    }

    // --- generation ---------------------------------------------------------------------------

    public static ModelException assetsUnavailable(String detail) {
        return new ModelException(ErrorCode.ASSETS_UNAVAILABLE, "Model assets became unavailable mid-session", detail);
    }

    public static ModelException guardrailViolation(String detail) {
        return new ModelException(ErrorCode.GUARDRAIL_VIOLATION, "Prompt blocked by safety filters", detail);
    }

    public static ModelException unsupportedLanguage(String detail) {
        return new ModelException(ErrorCode.UNSUPPORTED_LANGUAGE, "Prompt language not supported", detail);
    }

    /** {@code context_exceeded} reported by the model during generation. */
    public static ModelException contextExceeded(int contextSize, String detail) {
        return new ModelException(ErrorCode.CONTEXT_EXCEEDED,
                "Exceeds " + contextSize + "-token context window\n"
                        + "try a shorter input or use /new to reset context in interactive mode", detail);
    }

    /** {@code context_exceeded} from the pre-flight token count, before the model is called. */
    public static ModelException preflightContextExceeded(int tokens, int contextSize) {
        return new ModelException(ErrorCode.CONTEXT_EXCEEDED,
                "Input is " + tokens + " tokens, exceeding the " + contextSize + "-token context window\n"
                        + "try a shorter input or trim --file/stdin content",
                "Pre-flight token count check failed before calling the model");
    }

    /** {@code context_exceeded} when the answer repeats itself. */
    public static ModelException repetition(int contextSize) {
        return new ModelException(ErrorCode.CONTEXT_EXCEEDED,
                "Response appears to be repeating \u2014 likely exceeded the " + contextSize + "-token context window\n"
                        + "try a shorter input, limit expected response length or use /new to reset in interactive mode",
                "Detected repeating lines in output");
    }

    public static ModelException rateLimited(String detail) {
        return new ModelException(ErrorCode.RATE_LIMITED, "Model busy, try again", detail);
    }

    /**
     * {@code server_error}: the server answered the request with an error no
     * other code covers, or with something that is not an answer:
     * {@code The model server failed: <what> (HTTP <status>)}.
     */
    public static ModelException serverFailed(String what, int status, String detail) {
        return new ModelException(ErrorCode.SERVER_ERROR,
                "The model server failed: " + Objects.requireNonNull(what, "what") + " (HTTP " + status + ")", detail);
    }

    /** {@code server_error}: no answer within the wait, {@code waited} as {@code 120 s}. */
    public static ModelException serverSilent(String waited, String detail) {
        return new ModelException(ErrorCode.SERVER_ERROR, "The model server did not answer within " + waited, detail);
    }

    /** {@code server_error}: the server stopped sending for the whole wait after some text. */
    public static ModelException serverStalled(String detail) {
        return new ModelException(ErrorCode.SERVER_ERROR,
                "The model server stopped responding in the middle of the answer", detail);
    }

    /** The same error with {@code line} added as the last line of its message (a hint of what to change). */
    public ModelException withHint(String line) {
        ModelException copy = new ModelException(code, getMessage() + "\n" + Objects.requireNonNull(line, "line"),
                detail, getCause(), serverMessage);
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    /** {@code internal_error}: {@code what} is a sentence naming what failed. */
    public static ModelException internal(String what, String detail, Throwable cause) {
        return new ModelException(ErrorCode.INTERNAL_ERROR, what, detail, cause);
    }
}
