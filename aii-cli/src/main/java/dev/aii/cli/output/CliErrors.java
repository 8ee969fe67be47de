package dev.aii.cli.output;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;

/** The command line's own errors, with their exact texts. */
public final class CliErrors {

    public static final String MANAGEMENT_CONFLICT =
            "--list-allowed and --reset-allowed cannot be combined with a prompt, -i, -x, -f, or each other";
    public static final String CHECK_CONFLICT =
            "--check cannot be combined with a prompt, -i, -x, -f, -m, --list-allowed or --reset-allowed";
    public static final String CHECK_NEEDS_PROGRAM = "Missing required parameter for option '--check' (PROGRAM)";
    public static final String MODEL_INFO_CONFLICT = "--model-info cannot be combined with a prompt, -i or -f";
    public static final String FILE_WITH_INTERACTIVE = "--file cannot be used with --interactive";
    public static final String FILE_AND_STDIN = "Cannot use both --file and piped stdin. Use one or the other";
    static final String USAGE_HINT = "run 'aii --help' for usage";
    public static final String CANNOT_WRITE = "Cannot write to stdout";

    private CliErrors() {
    }

    public static ModelException usage(String problem) {
        return new ModelException(ErrorCode.USAGE_ERROR, problem + "\n" + USAGE_HINT, null);
    }

    public static ModelException conflict(String message) {
        return new ModelException(ErrorCode.CONFLICTING_INPUT, message, null);
    }

    public static ModelException cannotReadFile(String pathAsGiven, String detail) {
        return new ModelException(ErrorCode.FILE_NOT_FOUND, "Cannot read file: " + pathAsGiven, detail);
    }

    public static ModelException internal(String what, Throwable cause) {
        String detail = cause == null ? null
                : cause.getMessage() == null ? cause.getClass().getName() : cause.getClass().getName() + ": " + cause.getMessage();
        return ModelException.internal(what, detail, cause);
    }
}
