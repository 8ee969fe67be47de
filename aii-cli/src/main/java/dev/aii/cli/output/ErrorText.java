package dev.aii.cli.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.aii.model.ModelException;
import dev.aii.policy.Render;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The text of what goes to stderr about an error: plain text with
 * {@code aii: } before every line, or under {@code --json} exactly one JSON
 * object a line. Only text: the {@link Console} writes it. JSON is made only
 * under {@code --json}, so the short commands never load Jackson.
 */
final class ErrorText {

    /** The start of the last line of a plain error that carries a server's own message (cli.md 9.8). */
    static final String SERVER_SAID = "aii: server said: ";

    private ErrorText() {
    }

    /** An error: {@code aii: <line>} for each line of the message, or its JSON line. */
    static String report(ModelException e, boolean json) {
        if (json) {
            return jsonLine(e);
        }
        StringBuilder text = new StringBuilder();
        for (String line : e.lines()) {
            text.append("aii: ").append(line).append('\n');
        }
        // What the server said, escaped: it is the server's text, not ours.
        e.serverMessage().ifPresent(said -> text.append(SERVER_SAID).append(Render.escape(said)).append('\n'));
        return text.toString();
    }

    /** A line of advice after an error: {@code aii: <text>}, or {@code {"hint":"<text>"}}. */
    static String hint(String text, boolean json) {
        return json ? jsonObject("hint", text) : "aii: " + text + "\n";
    }

    /** A stack trace ({@code AII_DEBUG=1}); under {@code --json} stderr carries JSON lines only, so it is one of its own. */
    static String trace(Throwable cause, boolean json) {
        StringWriter trace = new StringWriter();
        cause.printStackTrace(new PrintWriter(trace));
        return json ? jsonObject("stackTrace", trace.toString()) : trace.toString();
    }

    /** {@code {"error":..,"message":..,"detail":..,"exitCode":..}} and LF; {@code detail} only when present. */
    static String jsonLine(ModelException e) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("error", e.code().wireName());
            g.writeStringField("message", e.getMessage());
            if (e.detail().isPresent()) {
                g.writeStringField("detail", e.detail().get());
            }
            g.writeNumberField("exitCode", e.code().exitCode());
            g.writeEndObject();
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return out.toString(StandardCharsets.UTF_8) + "\n";
    }

    private static String jsonObject(String field, String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField(field, value);
            g.writeEndObject();
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return out.toString(StandardCharsets.UTF_8) + "\n";
    }
}
