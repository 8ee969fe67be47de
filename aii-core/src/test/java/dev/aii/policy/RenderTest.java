package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class RenderTest {

    static Stream<Arguments> escapes() {
        return Stream.of(
                argumentSet("line feed", "a\nb", "a\\nb"),
                argumentSet("escape (ESC)", "\u001B[31mred", "\\x1B[31mred"),
                argumentSet("NUL", "\u0000", "\\x00"),
                argumentSet("tab", "a\tb", "a\\x09b"),
                argumentSet("carriage return", "a\rb", "a\\x0Db"),
                argumentSet("bell", "\u0007", "\\x07"),
                argumentSet("unit separator U+001F", "\u001F", "\\x1F"),
                argumentSet("delete U+007F", "\u007F", "\\x7F"),
                argumentSet("C1 next line U+0085", "a\u0085b", "a\\x85b"),
                argumentSet("C1 first U+0080", "\u0080", "\\x80"),
                argumentSet("C1 last U+009F", "\u009F", "\\x9F"),
                argumentSet("C1 CSI U+009B", "\u009B2J", "\\x9B2J"),
                argumentSet("bidi override U+202E", "abc\u202Etxt.exe", "abc\\u{202E}txt.exe"),
                argumentSet("bidi isolate U+2066", "\u2066x", "\\u{2066}x"),
                argumentSet("Arabic letter mark U+061C", "\u061C", "\\u{061C}"),
                argumentSet("zero-width space U+200B", "r\u200Bm", "r\\u{200B}m"),
                argumentSet("zero-width joiner U+200D", "\u200D", "\\u{200D}"),
                argumentSet("soft hyphen U+00AD", "of\u00ADfice", "of\\u{00AD}fice"),
                argumentSet("byte order mark U+FEFF", "\uFEFFls", "\\u{FEFF}ls"),
                argumentSet("line separator U+2028", "a\u2028b", "a\\u{2028}b"),
                argumentSet("paragraph separator U+2029", "a\u2029b", "a\\u{2029}b"),
                argumentSet("tag character U+E0041 above U+FFFF", "x\uDB40\uDC41y", "x\\u{E0041}y"),
                argumentSet("cancel tag U+E007F", "\uDB40\uDC7F", "\\u{E007F}"),
                argumentSet("unpaired surrogate", "a\uD800b", "a\\u{D800}b"),
                argumentSet("several in a row", "\n\n\u001B", "\\n\\n\\x1B"),
                argumentSet("space is visible", "a b", "a b"),
                argumentSet("quotes are visible", "it's \"x\"", "it's \"x\""),
                argumentSet("backslash stays", "a\\nb", "a\\nb"),
                argumentSet("empty string", "", ""),
                argumentSet("no-break space U+00A0 is a space, not a format character", "a\u00A0b", "a\u00A0b"),
                argumentSet("accented letter", "café", "café"),
                argumentSet("Japanese", "日本", "日本"),
                argumentSet("emoji above U+FFFF", "\uD83D\uDE00", "\uD83D\uDE00"));
    }

    @ParameterizedTest
    @MethodSource("escapes")
    void escapeShowsHiddenCharactersAsVisibleSequences(String input, String expected) {
        assertEquals(expected, Render.escape(input));
        assertEquals(!expected.equals(input), Render.needsEscape(input));
    }

    static Stream<Arguments> renderings() {
        return Stream.of(
                argumentSet("plain words", List.of("git", "status", "--short"), "git status --short"),
                argumentSet("line feed escaped, then quoted", List.of("printf", "a\nb"), "printf 'a\\nb'"),
                argumentSet("ESC", List.of("echo", "\u001B[2J"), "echo '\\x1B[2J'"),
                argumentSet("C1 U+0085", List.of("echo", "\u0085"), "echo '\\x85'"),
                argumentSet("bidi override", List.of("cat", "invoice\u202Efdp.sh"), "cat 'invoice\\u{202E}fdp.sh'"),
                argumentSet("zero-width space", List.of("r\u200Bm", "x"), "'r\\u{200B}m' x"),
                argumentSet("soft hyphen", List.of("ls", "a\u00ADb"), "ls 'a\\u{00AD}b'"),
                argumentSet("BOM", List.of("cat", "\uFEFF"), "cat '\\u{FEFF}'"),
                argumentSet("line separator", List.of("echo", "a\u2028b"), "echo 'a\\u{2028}b'"),
                argumentSet("tag character", List.of("echo", "\uDB40\uDC41"), "echo '\\u{E0041}'"),
                argumentSet("spaces", List.of("ls", "My Documents"), "ls 'My Documents'"),
                argumentSet("single quote", List.of("echo", "it's"), "echo 'it'\\''s'"),
                argumentSet("double quotes", List.of("echo", "\"hi\""), "echo '\"hi\"'"),
                argumentSet("empty argument", List.of("touch", ""), "touch ''"),
                argumentSet("accented letter", List.of("cat", "é"), "cat 'é'"),
                argumentSet("Japanese", List.of("cat", "日本.txt"), "cat '日本.txt'"),
                argumentSet("shell syntax", List.of("echo", "$HOME", "*", "a;b", "~"), "echo '$HOME' '*' 'a;b' '~'"),
                argumentSet("every safe character", List.of("cp", "user@host:/a_b%c+d=e,f.g-h/0Z"),
                        "cp user@host:/a_b%c+d=e,f.g-h/0Z"),
                argumentSet("the prompt's example", List.of("git", "status", "--short"), "git status --short"),
                argumentSet("nothing", List.of(), ""));
    }

    @ParameterizedTest
    @MethodSource("renderings")
    void renderEscapesThenQuotesThenJoinsWithSingleSpaces(List<String> argv, String expected) {
        assertEquals(expected, Render.render(argv));
    }

    @ParameterizedTest
    @ValueSource(strings = {"A", "Z", "a", "z", "0", "9", "_", "@", "%", "+", "=", ":", ",", ".", "/", "-",
            "--long-option=value", "/usr/bin/git", "a,b:c"})
    void quoteLeavesTokensOfSafeCharactersAlone(String token) {
        assertEquals(token, Render.quote(token));
    }

    @ParameterizedTest
    @ValueSource(strings = {" ", "\t", "!", "\"", "#", "$", "&", "(", ")", "*", ";", "<", ">", "?", "[", "\\",
            "]", "^", "`", "{", "|", "}", "~", "é", "日", "\n"})
    void quoteWrapsAnyOtherCharacterInSingleQuotes(String token) {
        assertEquals("'" + token + "'", Render.quote(token));
    }

    @Test
    void quoteWritesEachSingleQuoteAsCloseEscapedQuoteOpen() {
        assertEquals("''\\'''", Render.quote("'"));
        assertEquals("'a'\\''b'\\'''", Render.quote("a'b'"));
    }

    @Test
    void quoteWritesTheEmptyTokenAsTwoQuotes() {
        assertEquals("''", Render.quote(""));
    }

    @Test
    void quoteJoinQuotesWithoutEscaping() {
        assertEquals("printf 'a\nb' 'it'\\''s'", Render.quoteJoin(List.of("printf", "a\nb", "it's")));
    }
}
