package dev.aii.llamacpp;

import dev.aii.llamacpp.engine.NativeFailure;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.policy.Render;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What to tell the user when llama.cpp cannot load or run a model: a reason line, llama.cpp's text as detail. */
final class Problems {

    private static final Pattern ARCHITECTURE = Pattern.compile("unknown model architecture: '([^']*)'");
    private static final Pattern TYPE = Pattern.compile("invalid ggml type (\\d+)|tensor type (\\d+)");

    private Problems() {
    }

    /** {@code unavailable_model}: llama.cpp cannot load {@code file}. */
    static ModelException cannotLoad(ModelFile file, NativeFailure failure) {
        String detail = oneLine(failure.detail());
        return new ModelException(ErrorCode.UNAVAILABLE_MODEL, "Cannot load the model " + shown(file) + "\n"
                + reason(failure, detail), detail.isEmpty() ? failure.getMessage() : detail);
    }

    private static String reason(NativeFailure failure, String detail) {
        String lower = detail.toLowerCase(Locale.ROOT);
        Matcher arch = ARCHITECTURE.matcher(detail);
        Matcher type = TYPE.matcher(detail);
        switch (failure.status()) {
            case NOT_GGUF:
                return "it is not a GGUF file (the format llama.cpp reads)";
            case CONTEXT_INIT:
                return "there is not enough memory for it and its context; set AII_CONTEXT_SIZE to fewer tokens";
            case TEMPLATE:
                return failure.getMessage().replace("the model's", "its");
            default:
                break;
        }
        if (arch.find()) {
            return "this llama.cpp does not know its architecture, " + Render.escape(arch.group(1));
        }
        if (type.find() || lower.contains("quantization") || lower.contains("unsupported type")) {
            return "this llama.cpp does not know the type (quantisation) of its weights";
        }
        if (lower.contains("not within the file bounds") || lower.contains("failed to read")
                || lower.contains("truncated") || lower.contains("unexpectedly reached end")) {
            return "the file is truncated or damaged";
        }
        if (lower.contains("failed to allocate") || lower.contains("out of memory") || lower.contains("unable to allocate")) {
            return "there is not enough memory for it";
        }
        if (failure.getMessage().startsWith("Cannot read")) {
            return "the file cannot be read";
        }
        return "llama.cpp cannot load it";
    }

    /** The file as messages show it: the Ollama name and the path, or the path. */
    static String shown(ModelFile file) {
        return Render.escape(file.alias().map(a -> a + " (" + file.path() + ")").orElse(file.path().toString()));
    }

    /** llama.cpp's log lines as one line, its function prefixes kept (they say where it failed). */
    static String oneLine(String text) {
        return String.join("; ", text.strip().lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
    }
}
