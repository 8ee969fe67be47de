package dev.aii.testkit.gguf;

import java.util.ArrayList;
import java.util.List;

/** The scripts of the test models: what each one answers, token by token. */
public final class Models {

    private Models() {
    }

    public static final String PLAIN_ANSWER = "Plain answer from the tiny model \u2014 it works.";
    public static final String CLOSING_ANSWER = "The command ran; tool loop done.";

    private static final List<String> PLAIN = List.of("Plain answer from the tiny model ", "\u2014", " it works.");
    private static final List<String> CLOSE = List.of("The command ran; tool loop done", ".");

    /** A call of {@code run_command} whose arguments stream in several fragments. */
    public static List<String> call(String executable, String... arguments) {
        String rest = "\"executable\": \"" + executable + "\", \"arguments\": [\""
                + String.join("\", \"", arguments) + "\"]}";
        List<String> tokens = new ArrayList<>();
        tokens.add("<tool_call>");
        tokens.add("\n{\"name\": \"run_command\", \"arguments\": {");
        for (int i = 0; i < rest.length(); i += 9) {
            tokens.add(rest.substring(i, Math.min(rest.length(), i + 9)));
        }
        tokens.add("}\n");
        tokens.add("</tool_call>");
        return tokens;
    }

    /** Plain answer without tools, {@code uname -s} with tools, a closing line after the result. */
    public static TinyModel.Script switching() {
        return new TinyModel.Script("tiny-switch", PLAIN, call("uname", "-s"), CLOSE, false);
    }

    /** The same with {@code echo hello from llama-server}, which the default allowlist does not cover. */
    public static TinyModel.Script echo() {
        return new TinyModel.Script("tiny-switch-echo", PLAIN, call("echo", "hello", "from", "llama-server"), CLOSE, false);
    }

    /** The plain model, slow to load: llama-server answers 503 {@code Loading model} for a few seconds. */
    public static TinyModel.Script slowToLoad(int merges) {
        return new TinyModel.Script("tiny-slow-load", PLAIN, call("uname", "-s"), CLOSE, false, merges);
    }

    /** Calls the tool again after every result: a tool loop that never ends by itself. */
    public static TinyModel.Script alwaysCalls() {
        List<String> call = call("uname", "-s");
        return new TinyModel.Script("tiny-always-call", PLAIN, call, call, false);
    }

    /** Repeats one line forever. */
    public static TinyModel.Script repeats() {
        return new TinyModel.Script("tiny-repeat",
                List.of("This line comes back again and again, the same every time.\n"),
                call("uname", "-s"), CLOSE, true);
    }

    /**
     * With tools, text and then a tool call that is not JSON: llama-server's
     * grammar for tool calls then fails in the middle of the stream, which it
     * reports as a {@code data: {"error":...}} event (the wire README's
     * random weights end the same way, by chance rather than by script).
     */
    public static TinyModel.Script failsMidStream() {
        return new TinyModel.Script("tiny-fails", PLAIN, List.of(FAILING_TEXT, "<tool_call>",
                "\n{\"name\": \"run_command\", \"arguments\": oops}\n", "</tool_call>", " never shown."), CLOSE, false);
    }

    public static final String FAILING_TEXT = "Some text before the failure ";

    /** Line {@code n} of {@link #lines}, with its LF. */
    public static String line(int n) {
        return String.format("Line %04d of a long answer that goes on for a while.\n", n);
    }

    /** {@code count} distinct lines, then the end. */
    public static TinyModel.Script lines(int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            lines.add(line(i));
        }
        return new TinyModel.Script("tiny-lines", lines, call("uname", "-s"), CLOSE, false);
    }
}
