package dev.aii.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.aii.policy.Decision;
import dev.aii.policy.Render;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * What {@code aii -j --check} prints about one decision: one JSON object with
 * the facts of {@link Check}'s line. Its own class, so that the plain
 * {@code --check} never loads the JSON library.
 */
final class CheckJson {

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Every control, C1, bidi and other format character (and, as halves of a
     * pair, every character beyond the BMP) written as a {@code \\uXXXX}
     * escape, so the JSON text itself never sends one to a terminal.
     */
    private static final CharacterEscapes NOTHING_RAW = new CharacterEscapes() {
        private static final long serialVersionUID = 1L;
        private final int[] ascii = standardAsciiEscapesForJSON();

        {
            ascii[0x7F] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            int type = Character.getType(ch);
            if ((ch >= 0x80 && ch <= 0x9F) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE) {
                return new SerializedString(String.format("\\u%04X", ch));
            }
            return null;
        }
    };

    private CheckJson() {
    }

    /**
     * One JSON object and LF: {@code decision} ({@code allow}, {@code ask},
     * {@code not_found}, {@code refused}), {@code text} (the line), the command
     * ({@code executable}, {@code arguments}), where it resolved
     * ({@code program}, {@code path}, {@code trusted}), the allowing
     * {@code rule} and {@code ruleText}, for an ask {@code always} and, when it
     * is offered, the {@code prefix} and {@code prefixText} it would store,
     * {@code guards} (the guard reasons), {@code reason} (the guard reasons
     * joined by {@code ; }, or for a refusal the text the model would get,
     * escaped), and rendered twins of the raw fields, {@code commandText} and
     * {@code pathText}; {@code null} where a field does not apply. No control,
     * bidi or format character appears raw in the JSON text.
     */
    static String json(Decision decision, String executable, List<String> arguments) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.setCharacterEscapes(NOTHING_RAW);
            g.writeStartObject();
            // start-up idiom: instanceof, not a pattern switch (DEVELOPERS.md)
            g.writeStringField("decision", decision instanceof Decision.Allow ? "allow"
                    : decision instanceof Decision.Ask ? "ask"
                    : ((Decision.Refuse) decision).reason() == Decision.Refusal.NOT_FOUND ? "not_found" : "refused");
            g.writeStringField("text", Check.line(decision, executable));
            g.writeStringField("executable", executable);
            strings(g, "arguments", arguments);
            ResolvedCommand command = decision instanceof Decision.Allow allow ? allow.command()
                    : decision instanceof Decision.Ask ask ? ask.command()
                    : null;
            g.writeStringField("program", command == null ? null : command.program());
            g.writeStringField("path", command == null ? null : command.path());
            g.writeFieldName("trusted");
            if (command == null) {
                g.writeNull();
            } else {
                g.writeBoolean(command.trusted());
            }
            rule(g, "rule", decision instanceof Decision.Allow allow ? allow.rule() : null);
            Decision.Ask ask = decision instanceof Decision.Ask a ? a : null;
            g.writeStringField("always", ask == null ? null : ask.always().name().toLowerCase(Locale.ROOT));
            rule(g, "prefix", ask == null ? null : ask.alwaysPrefix().orElse(null));
            List<String> guards = ask == null ? List.of() : ask.guardReasons();
            strings(g, "guards", guards);
            g.writeStringField("reason", decision instanceof Decision.Refuse refuse ? Render.escape(refuse.message())
                    : guards.isEmpty() ? null : String.join("; ", guards));
            // Rendered twins of the fields that hold what the model sent or a file name, as the prompt shows them.
            List<String> argv = new java.util.ArrayList<>();
            argv.add(executable);
            argv.addAll(arguments);
            g.writeStringField("commandText", command == null ? Render.render(argv) : command.display());
            g.writeStringField("pathText", command == null ? null : Render.render(List.of(command.path())));
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8) + "\n";
    }

    /** {@code name} as the tokens of its allow-file line ({@code =} first when exact), {@code nameText} rendered; or nulls. */
    private static void rule(JsonGenerator g, String name, Rule rule) throws IOException {
        if (rule == null) {
            g.writeNullField(name);
            g.writeNullField(name + "Text");
        } else {
            strings(g, name, rule.lineTokens());
            g.writeStringField(name + "Text", Render.render(rule.lineTokens()));
        }
    }

    private static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (String value : values) {
            g.writeString(value);
        }
        g.writeEndArray();
    }
}
