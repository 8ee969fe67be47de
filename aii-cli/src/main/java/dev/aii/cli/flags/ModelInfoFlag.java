package dev.aii.cli.flags;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import java.util.List;
import java.util.Optional;

/**
 * Catches {@code -m} used as other tools use it, to name a model
 * ({@code aii -m llama3.2 hi}): in aii {@code -m} is {@code --model-info} and
 * takes no value, and the model is chosen with {@code --model NAME}. Read
 * before picocli, which would take the name for the prompt.
 */
public final class ModelInfoFlag {

    static final String TAKES_NO_VALUE =
            "-m is --model-info and takes no value\nchoose a model with --model NAME or AII_MODEL";

    /** aii's short flags that take no value; {@code f} takes one. */
    private static final String FLAGS = "hijmx";

    private ModelInfoFlag() {
    }

    /**
     * The usage error when {@code -m} (alone or ending a cluster such as
     * {@code -jm}) is followed by a word that is not a flag, or has a value
     * attached ({@code -m=llama3.2}, {@code -mllama3.2}); none otherwise.
     * Nothing after {@code --} counts: it is the prompt.
     */
    public static Optional<ModelException> misuse(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                return Optional.empty();
            }
            if (arg.equals("--file") || arg.equals("--model") || arg.equals("--model-file")) {
                i++;
                continue;
            }
            if (!arg.startsWith("-") || arg.startsWith("--") || arg.length() < 2) {
                continue;
            }
            switch (cluster(arg)) {
                case VALUE_ATTACHED -> {
                    return Optional.of(error());
                }
                case ENDS_WITH_M -> {
                    if (i + 1 < args.size() && isWord(args.get(i + 1))) {
                        return Optional.of(error());
                    }
                }
                case TAKES_FILE -> i++;
                case OTHER -> { }
            }
        }
        return Optional.empty();
    }

    private enum Cluster { VALUE_ATTACHED, ENDS_WITH_M, TAKES_FILE, OTHER }

    /** What a cluster of short flags such as {@code -ijm} says about {@code -m} and the next argument. */
    private static Cluster cluster(String arg) {
        boolean sawM = false;
        for (int i = 1; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (sawM && FLAGS.indexOf(c) < 0 && c != 'f') {
                return Cluster.VALUE_ATTACHED;   // -m=llama3.2, -mllama3.2
            }
            if (c == 'f') {
                return i == arg.length() - 1 ? Cluster.TAKES_FILE : Cluster.OTHER;
            }
            if (c == 'm') {
                sawM = true;
            } else if (FLAGS.indexOf(c) < 0) {
                return Cluster.OTHER;
            }
        }
        return arg.charAt(arg.length() - 1) == 'm' ? Cluster.ENDS_WITH_M : Cluster.OTHER;
    }

    /** A word, not a flag: anything not starting with {@code -}, and {@code -} alone. */
    private static boolean isWord(String arg) {
        return !arg.startsWith("-") || arg.equals("-");
    }

    private static ModelException error() {
        return new ModelException(ErrorCode.USAGE_ERROR, TAKES_NO_VALUE, null);
    }
}
