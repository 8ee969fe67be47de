package dev.aii.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.aii.model.ModelException;
import dev.aii.policy.Render;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reports errors on stderr: plain text with {@code aii: } before every line,
 * or under {@code --json} exactly one JSON line per error. Stdout never
 * carries errors.
 */
final class ErrorReporter {

    static final String SERVER_SAID = "aii: server said: ";

    private final OutputStream err;
    private final boolean json;
    private final boolean debug;
    private final Runnable beforeWrite;

    /**
     * @param beforeWrite readies stdout before stderr is written (flush, fresh line on a terminal)
     */
    ErrorReporter(OutputStream err, boolean json, boolean debug, Runnable beforeWrite) {
        this.err = err;
        this.json = json;
        this.debug = debug;
        this.beforeWrite = beforeWrite;
    }

    boolean json() {
        return json;
    }

    /** Reports {@code e} and returns its exit code. */
    int report(ModelException e) {
        beforeWrite.run();
        if (json) {
            write(jsonLine(e));
        } else {
            StringBuilder text = new StringBuilder();
            for (String line : e.lines()) {
                text.append("aii: ").append(line).append('\n');
            }
            // What the server said, escaped: it is the server's text, not ours (cli.md 9.8).
            e.serverMessage().ifPresent(said -> text.append(SERVER_SAID).append(Render.escape(said)).append('\n'));
            write(text.toString());
        }
        if (debug && e.getCause() != null) {
            StringWriter trace = new StringWriter();
            e.getCause().printStackTrace(new PrintWriter(trace));
            // Under --json stderr carries JSON lines only: the trace is one of its own.
            write(json ? jsonObject("stackTrace", trace.toString()) : trace.toString());
        }
        return e.code().exitCode();
    }

    /** A line of advice after an error: {@code aii: <text>}, or {@code {"hint":"<text>"}} under {@code --json}. */
    void hint(String text) {
        beforeWrite.run();
        if (json) {
            write(jsonObject("hint", text));
        } else {
            write("aii: " + text + "\n");
        }
    }

    /** A remark about the answer, {@code aii: <text>}; nothing under {@code --json}. */
    void note(String text) {
        if (json) {
            return;
        }
        beforeWrite.run();
        write("aii: " + text + "\n");
    }

    /** A warning: {@code aii: warning: <text>}; nothing under {@code --json}. */
    void warning(String text) {
        if (json) {
            return;
        }
        beforeWrite.run();
        write("aii: warning: " + text + "\n");
    }

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

    private void write(String text) {
        synchronized (err) {
            try {
                err.write(text.getBytes(StandardCharsets.UTF_8));
                err.flush();
            } catch (IOException e) {
                // stderr is gone: nothing else can carry the report.
            }
        }
    }
}
