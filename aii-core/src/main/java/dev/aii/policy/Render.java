package dev.aii.policy;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a command is shown to a human: every token escaped, so nothing can hide
 * or spoof text on a terminal, then quoted the POSIX-shell way where needed.
 *
 * {@snippet :
 * Render.render(List.of("printf", "a\nb", "it's")); // printf 'a\nb' 'it'\''s'
 * }
 */
public final class Render {

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private Render() {
    }

    /**
     * Escapes what could spoof or hide content: LF as {@code \n}; other C0
     * controls, DEL and C1 controls as {@code \xNN}; format characters
     * (category Cf, e.g. bidi controls and zero-width characters), line and
     * paragraph separators, and unpaired surrogates as a backslash, {@code u{XXXX}}.
     */
    public static String escape(String s) {
        if (!needsEscape(s)) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 8);
        s.codePoints().forEach(cp -> {
            if (cp == '\n') {
                out.append("\\n");
            } else if (isControl(cp)) {
                out.append("\\x").append(HEX.toHexDigits((byte) cp));
            } else if (isInvisible(cp)) {
                String hex = Integer.toHexString(cp).toUpperCase(Locale.ROOT);
                out.append("\\u{").append("0".repeat(Math.max(0, 4 - hex.length()))).append(hex).append('}');
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.toString();
    }

    /** Whether {@link #escape} changes {@code s}. */
    public static boolean needsEscape(String s) {
        return s.codePoints().anyMatch(cp -> isControl(cp) || isInvisible(cp));
    }

    /**
     * Quotes one token for a POSIX shell: unchanged when non-empty and made
     * only of {@code A-Z a-z 0-9 _ @ % + = : , . / -}; otherwise in single
     * quotes with each {@code '} written {@code '\''}; the empty token is {@code ''}.
     */
    public static String quote(String token) {
        if (!token.isEmpty() && token.chars().allMatch(Render::isSafe)) {
            return token;
        }
        return "'" + token.replace("'", "'\\''") + "'";
    }

    /** Tokens escaped, then quoted, joined by single spaces: the prompt, "always" text and log form. */
    public static String render(List<String> argv) {
        return argv.stream().map(t -> quote(escape(t))).collect(Collectors.joining(" "));
    }

    /** Tokens quoted (not escaped), joined by single spaces: the allow file and listing form. */
    public static String quoteJoin(List<String> tokens) {
        return tokens.stream().map(Render::quote).collect(Collectors.joining(" "));
    }

    private static boolean isControl(int cp) {
        return cp <= 0x1F || (cp >= 0x7F && cp <= 0x9F);
    }

    private static boolean isInvisible(int cp) {
        int type = Character.getType(cp);
        return type == Character.FORMAT
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SURROGATE;
    }

    private static boolean isSafe(int c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                || c == '_' || c == '@' || c == '%' || c == '+' || c == '=' || c == ':'
                || c == ',' || c == '.' || c == '/' || c == '-';
    }
}
