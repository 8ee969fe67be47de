package dev.aii.model;

/** Every error aii reports, with its wire name (the {@code error} of JSON output) and exit code. */
public enum ErrorCode {
    INTERNAL_ERROR(1),
    USAGE_ERROR(2),
    FILE_NOT_FOUND(2),
    CONFLICTING_INPUT(2),
    UNAVAILABLE_NOT_SUPPORTED(3),
    UNAVAILABLE_NOT_ENABLED(3),
    UNAVAILABLE_DOWNLOADING(3),
    UNAVAILABLE_SERVER(3),
    UNAVAILABLE_MODEL(3),
    ASSETS_UNAVAILABLE(4),
    GUARDRAIL_VIOLATION(4),
    UNSUPPORTED_LANGUAGE(4),
    CONTEXT_EXCEEDED(4),
    RATE_LIMITED(4),
    /** The model server failed or stopped answering: its fault, not aii's (cli.md §10.9); also a model in the process that fails while answering. */
    SERVER_ERROR(4);

    private final int exitCode;

    ErrorCode(int exitCode) {
        this.exitCode = exitCode;
    }

    /** The process exit code for this error. */
    public int exitCode() {
        return exitCode;
    }

    /** The lower-case name used in JSON output, e.g. {@code context_exceeded}. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
