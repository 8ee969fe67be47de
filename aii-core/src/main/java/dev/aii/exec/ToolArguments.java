package dev.aii.exec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tool's arguments as the model sent them: a JSON object with a string
 * {@code executable} and an optional array of strings {@code arguments}.
 */
record ToolArguments(String executable, List<String> arguments) {

    private static final JsonFactory JSON = new JsonFactory();

    ToolArguments {
        arguments = List.copyOf(arguments);
    }

    /**
     * Reads the model's JSON text.
     *
     * @return the arguments, or the error text to return to the model
     */
    static Parse parse(String json) {
        String executable = null;
        boolean executableSeen = false;
        List<String> arguments = null;
        boolean argumentsBad = false;
        try (JsonParser p = JSON.createParser(json == null ? "" : json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Parse(Optional.empty(), ToolTexts.INVALID_EXECUTABLE_TEXT);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "executable" -> {
                        executableSeen = true;
                        executable = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        p.skipChildren();
                    }
                    case "arguments" -> {
                        arguments = null;
                        argumentsBad = false;
                        if (value == JsonToken.START_ARRAY) {
                            arguments = new ArrayList<>();
                            JsonToken item;
                            while ((item = p.nextToken()) != JsonToken.END_ARRAY) {
                                if (item == JsonToken.VALUE_STRING) {
                                    arguments.add(p.getText());
                                } else {
                                    argumentsBad = true;
                                    p.skipChildren();
                                }
                            }
                        } else if (value != JsonToken.VALUE_NULL) {
                            argumentsBad = true;
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return new Parse(Optional.empty(), ToolTexts.INVALID_EXECUTABLE_TEXT);
            }
        } catch (IOException e) {
            return new Parse(Optional.empty(), ToolTexts.INVALID_EXECUTABLE_TEXT);
        }
        if (!executableSeen || executable == null) {
            return new Parse(Optional.empty(), ToolTexts.INVALID_EXECUTABLE_TEXT);
        }
        if (argumentsBad) {
            return new Parse(Optional.empty(), ToolTexts.ARGUMENTS_NOT_STRINGS);
        }
        return new Parse(Optional.of(new ToolArguments(executable, arguments == null ? List.of() : arguments)), null);
    }

    /** Either arguments or the error text for the model. */
    record Parse(Optional<ToolArguments> arguments, String error) {
    }
}
