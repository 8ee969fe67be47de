package dev.aii.openai;

/**
 * Reads JSON that is nested deeper than the parser allows without failing
 * the whole event: the containers below a depth become strings of their own
 * text. A chunk's tool-call arguments sent as a 1,001-level object then
 * arrive as text that is not valid for the tool, which answers with its
 * error, instead of making the whole answer unreadable. The scan keeps a
 * counter, not a stack, so any depth costs the same memory.
 */
final class DeepJson {

    private DeepJson() {
    }

    /** The deepest nesting of objects and arrays in {@code json}, strings skipped. */
    static int depth(String json) {
        int depth = 0;
        int max = 0;
        for (int i = nextBracket(json, 0); i >= 0; i = nextBracket(json, i + 1)) {
            if (opens(json.charAt(i))) {
                max = Math.max(max, ++depth);
            } else {
                depth--;
            }
        }
        return max;
    }

    /**
     * {@code json} with every object or array that opens inside {@code keep}
     * levels of nesting replaced by a JSON string holding its text. Text that
     * is not JSON to begin with stays not JSON.
     */
    static String flatten(String json, int keep) {
        StringBuilder out = new StringBuilder(json.length() + 16);
        int depth = 0;
        int start = -1;
        int copied = 0;
        for (int i = nextBracket(json, 0); i >= 0; i = nextBracket(json, i + 1)) {
            if (opens(json.charAt(i))) {
                if (++depth == keep + 1) {
                    start = i;
                }
            } else if (depth-- == keep + 1 && start >= 0) {
                out.append(json, copied, start);
                quote(json.substring(start, i + 1), out);
                copied = i + 1;
                start = -1;
            }
        }
        out.append(json, copied, json.length());
        return out.toString();
    }

    /**
     * The index of the first {@code { [ ] }} at or after {@code from} that is
     * not inside a string, or -1; {@code from} must be outside a string.
     */
    private static int nextBracket(String json, int from) {
        boolean inString = false;
        for (int i = from; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (opens(c) || c == '}' || c == ']') {
                return i;
            }
        }
        return -1;
    }

    private static boolean opens(char c) {
        return c == '{' || c == '[';
    }

    private static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
