package dev.aii.exec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * Every fixed text of the exec feature, in one place: the tool's name,
 * description and argument schema, the session instructions, and the result
 * strings the model receives.
 */
public final class ToolTexts {

    /** The tool's name. */
    public static final String TOOL_NAME = "run_command";

    public static final String EXECUTABLE_DESCRIPTION =
            "Program name or absolute path, e.g. touch or /usr/bin/git. Only the program, never its arguments.";

    public static final String ARGUMENTS_DESCRIPTION =
            "Arguments only, one array element each, NOT including the program name. "
                    + "e.g. executable \"ls\" with [\"-la\", \"/tmp\"], or executable \"touch\" with [\"notes.txt\"]. "
                    + "Include every file name, path or URL the command needs. "
                    + "No quoting, wildcards or ~. Never empty strings.";

    public static final String DENIED_BY_USER = "Denied: the user declined to run this command. Do not retry it.";

    public static final String DENIED_NO_TERMINAL =
            "Denied: this command is not on the allowlist and there is no terminal to ask the user for approval. "
                    + "Do not retry it.";

    public static final String DENIED_TOO_MANY = "Denied: too many commands in one answer. Do not retry it.";

    public static final String INTERRUPTED = "Terminated: interrupted by the user.";

    public static final String INVALID_EXECUTABLE_TEXT = dev.aii.policy.ExecPolicy.INVALID_EXECUTABLE;

    public static final String ARGUMENTS_NOT_STRINGS = "Error: arguments must be an array of strings";

    private ToolTexts() {
    }

    /** The tool description shown to the model. */
    public static String toolDescription(Platform platform) {
        return "Run one program on the user's " + platform.machineWord() + " and return its output. "
                + "There is no shell: pipes, redirects, wildcards and ~ do not work. "
                + "Paths are relative to the current directory.";
    }

    /** The JSON Schema of the tool's arguments, as compact JSON text. */
    public static String parametersSchema() {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("type", "object");
            json.writeObjectFieldStart("properties");
            json.writeObjectFieldStart("executable");
            json.writeStringField("type", "string");
            json.writeStringField("description", EXECUTABLE_DESCRIPTION);
            json.writeEndObject();
            json.writeObjectFieldStart("arguments");
            json.writeStringField("type", "array");
            json.writeObjectFieldStart("items");
            json.writeStringField("type", "string");
            json.writeEndObject();
            json.writeStringField("description", ARGUMENTS_DESCRIPTION);
            json.writeEndObject();
            json.writeEndObject();
            json.writeArrayFieldStart("required");
            json.writeString("executable");
            json.writeString("arguments");
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** The instructions a session gets with {@code -x}, naming the home and current directories. */
    public static String execInstructions(Platform platform, String home, String currentDirectory) {
        return "You can run programs on the user's " + platform.machineWord() + " with the run_command tool. "
                + "When the user asks you to do something or find something out on their machine, "
                + "call the tool instead of showing commands in a code block. "
                + "There is no shell: give the program and its arguments separately; "
                + "pipes, redirects, wildcards and ~ do not work. Run one program per call. "
                + "Do not run destructive commands unless the user explicitly asked for them. "
                + "If a command is denied, do not retry it. "
                + "The user's home directory is " + home + " and the current directory is " + currentDirectory
                + "; use full paths instead of ~.";
    }

    /**
     * A session's instructions: the user's system prompt (interactive mode;
     * empty means none), then with {@code -x} a blank line and the exec text.
     */
    public static Optional<String> sessionInstructions(Optional<String> systemPrompt, Optional<String> execText) {
        Optional<String> user = systemPrompt.filter(s -> !s.isEmpty());
        if (execText.isEmpty()) {
            return user;
        }
        return Optional.of(user.map(s -> s + "\n\n" + execText.get()).orElse(execText.get()));
    }

    /**
     * The note shown under a command that uses a guarded argument form:
     * {@code note: <reason>}, e.g. {@code note: this form of date can set the system clock}.
     */
    public static String guardNote(String reason) {
        return "note: " + reason;
    }

    /** {@code Error: could not launch <name>: <reason>}. */
    public static String couldNotLaunch(String executable, String reason) {
        return "Error: could not launch " + executable + ": " + reason;
    }

    /** The result for a command that ran to its end. */
    public static String exited(int status, CapturedOutput output, int cap) {
        return "exit " + status + "\n" + withTruncation(output, cap);
    }

    /** The result for a command stopped at the time limit. */
    public static String timedOut(long limitSeconds, CapturedOutput output, int cap) {
        return "Terminated: the command exceeded the " + limitSeconds + "-second time limit.\n"
                + withTruncation(output, cap);
    }

    /** The result for a command the user interrupted. */
    public static String interrupted(CapturedOutput output, int cap) {
        return INTERRUPTED + "\n" + withTruncation(output, cap);
    }

    private static String withTruncation(CapturedOutput output, int cap) {
        String text = output.text();
        if (!output.truncated()) {
            return text;
        }
        return text + "\n[output truncated: " + output.totalBytes() + " bytes, showing first " + cap + "]";
    }
}
