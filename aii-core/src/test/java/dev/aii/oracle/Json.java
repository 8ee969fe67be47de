package dev.aii.oracle;

/** JSON strings for the driver's batch file. */
final class Json {

    private Json() {
    }

    /** {@code s} as a JSON string literal, every character outside printable ASCII escaped. */
    static String string(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7E) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
