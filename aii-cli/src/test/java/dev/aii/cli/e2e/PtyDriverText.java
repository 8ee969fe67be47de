package dev.aii.cli.e2e;

/** Terminal output made readable in a failure message: control characters spelled out. */
final class PtyDriverText {

    private PtyDriverText() {
    }

    static String shown(String output) {
        StringBuilder s = new StringBuilder("\"");
        output.codePoints().forEach(cp -> {
            switch (cp) {
                case '\r' -> s.append("\\r");
                case '\n' -> s.append("\\n");
                case 0x1b -> s.append("\\e");
                default -> {
                    if (cp < 0x20 || cp == 0x7f) {
                        s.append(String.format("\\x%02X", cp));
                    } else {
                        s.appendCodePoint(cp);
                    }
                }
            }
        });
        return s.append('"').toString();
    }
}
