package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

class RenderPropertiesTest {

    /** Characters chosen to hit every class the renderer treats specially, plus shell and quoting syntax. */
    private static final String TRICKY = "\u0000\u0001\u0007\t\n\r\u001B\u001F\u007F\u0080\u0085\u009B\u009F"
            + "\u00A0\u00AD\u061C\u200B\u200D\u200E\u202A\u202E\u2028\u2029\u2066\uFEFF"
            + " '\"\\$`#~*?[]{}()<>|&;!=%+@:,./-_éß日本";

    private static final String SHELL = " \t\n'\"\\$`#~*?[]{}()<>|&;!^é";

    private static final String SAFE = "ABCXYZabcxyz0189_@%+=:,./-";

    /**
     * Strings of any valid code points (no unpaired surrogates): half of them
     * mixed and weighted towards the tricky characters, half made of the
     * characters quoting leaves alone with now and then one that it must not.
     */
    static Arbitrary<String> text() {
        return Arbitraries.oneOf(mixed(), nearlySafe());
    }

    private static Arbitrary<String> mixed() {
        Arbitrary<String> any = Arbitraries.integers().between(0, Character.MAX_CODE_POINT)
                .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
                .map(Character::toString);
        Arbitrary<String> tags = Arbitraries.integers().between(0xE0000, 0xE007F).map(Character::toString);
        Arbitrary<String> ascii = Arbitraries.integers().between(0x20, 0x7E).map(Character::toString);
        return Arbitraries.frequencyOf(Tuple.of(4, charsOf(TRICKY)), Tuple.of(2, any), Tuple.of(1, tags),
                        Tuple.of(4, ascii))
                .list().ofMaxSize(12)
                .map(parts -> String.join("", parts));
    }

    private static Arbitrary<String> nearlySafe() {
        return Arbitraries.frequencyOf(Tuple.of(10, charsOf(SAFE)), Tuple.of(1, charsOf(SHELL)))
                .list().ofMaxSize(8)
                .map(parts -> String.join("", parts));
    }

    private static Arbitrary<String> charsOf(String chars) {
        return Arbitraries.of(chars.codePoints().mapToObj(Character::toString).toList());
    }

    @Provide
    Arbitrary<List<String>> argv() {
        return text().list().ofMinSize(1).ofMaxSize(6);
    }

    /** What an argv can hold: anything but NUL. */
    @Provide
    Arbitrary<List<String>> shellArgv() {
        return text().map(s -> s.replace("\u0000", "")).list().ofMinSize(1).ofMaxSize(6);
    }

    /** Tokens a rule line can hold: no line feed, and a non-empty first token. */
    @Provide
    Arbitrary<List<String>> ruleTokens() {
        Arbitrary<String> token = text().map(s -> s.replace("\n", ""));
        return token.list().ofMinSize(1).ofMaxSize(6).filter(tokens -> !tokens.getFirst().isEmpty());
    }

    private static boolean isHidden(int cp) {
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }

    @Property
    void renderingNeverEmitsARawControlFormatOrSeparatorCharacter(@ForAll("argv") List<String> argv) {
        String shown = Render.render(argv);
        shown.codePoints().forEach(cp -> assertTrue(!isHidden(cp),
                () -> String.format("U+%04X left raw in %s", cp, shown)));
    }

    @Property
    void escapeChangesOnlyHiddenCharacters(@ForAll("argv") List<String> argv) {
        for (String token : argv) {
            boolean hidden = token.codePoints().anyMatch(RenderPropertiesTest::isHidden);
            assertEquals(hidden, Render.needsEscape(token), token);
            if (!hidden) {
                assertEquals(token, Render.escape(token));
            }
        }
    }

    @Property
    void parsingAQuoteJoinedRuleGivesBackItsTokens(@ForAll("ruleTokens") List<String> tokens) throws Exception {
        assertEquals(tokens, Rule.parse(Render.quoteJoin(tokens)).tokens());
    }

    /** The quote-joined argv, given to printf by a POSIX shell, comes back byte for byte. */
    @Property(tries = 300)
    void aShellGivesBackTheQuoteJoinedArgvByteForByte(@ForAll("shellArgv") List<String> argv) throws Exception {
        assertArrayEquals(Shell.nulTerminated(argv), Shell.printWords(Render.quoteJoin(argv)), () -> "argv " + argv);
    }
}
