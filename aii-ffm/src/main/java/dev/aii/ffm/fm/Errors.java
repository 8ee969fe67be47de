package dev.aii.ffm.fm;

import dev.aii.model.ModelException;

/** Turns the shim's failure statuses into the typed errors of the command line contract. */
public final class Errors {

    private Errors() {
    }

    /**
     * The error for a failure status.
     *
     * @param detail the shim's own words, or empty
     * @param contextSize the context window, for {@code context_exceeded}
     */
    public static ModelException of(Status status, String detail, int contextSize) {
        String d = detail == null || detail.isEmpty() ? null : detail;
        return switch (status) {
            case CONTEXT_EXCEEDED -> ModelException.contextExceeded(contextSize, d);
            case ASSETS_UNAVAILABLE -> ModelException.assetsUnavailable(d);
            // A refusal is the model declining on content grounds: the closest contract error.
            case GUARDRAIL_VIOLATION, REFUSAL -> ModelException.guardrailViolation(d);
            case UNSUPPORTED_LANGUAGE -> ModelException.unsupportedLanguage(d);
            case RATE_LIMITED, CONCURRENT_REQUESTS -> ModelException.rateLimited(d);
            case UNSUPPORTED_GUIDE -> internal("Foundation Models does not support a guide of the tool's schema", d);
            case DECODING_FAILURE -> internal("Foundation Models could not decode the model's output", d);
            case TRANSCRIPT_MUTATION -> internal("The session's transcript changed while it was answering", d);
            case GENERATION_OTHER -> internal("Foundation Models failed to generate an answer", d);
            case SCHEMA -> internal("Foundation Models rejected the tool's parameter schema", d);
            case INVALID_ARGUMENT -> internal("The Foundation Models shim rejected an argument", d);
            case UNSUPPORTED -> internal("This system's Foundation Models does not offer this function", d);
            case BUSY -> internal("The session is already answering a prompt", d);
            case TOOL_FAILED -> internal("The tool call failed", d);
            case STOPPED -> internal("The answer stopped without a reason", d);
            case INTERNAL -> internal("Foundation Models failed", d);
            case UNRECOGNIZED -> internal("The Foundation Models shim returned a status this aii does not know", d);
            case OK, CANCELLED -> throw new IllegalArgumentException(status + " is not a failure");
        };
    }

    private static ModelException internal(String what, String detail) {
        return ModelException.internal(what, detail, null);
    }
}
