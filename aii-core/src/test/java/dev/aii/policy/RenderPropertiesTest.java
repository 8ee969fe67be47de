package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

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
    static String text(SplittableRandom random) {
        return random.nextBoolean() ? mixed(random) : nearlySafe(random);
    }

    private static String mixed(SplittableRandom random) {
        return Seeded.listOf(random, 0, 12, r -> Seeded.weighted(r, new int[] {4, 2, 1, 4},
                        t -> Seeded.oneOf(t, TRICKY),
                        RenderPropertiesTest::anyCodePoint,
                        t -> Character.toString(0xE0000 + t.nextInt(0x80)),      // tag characters
                        t -> Character.toString(0x20 + t.nextInt(0x7F - 0x20))))  // printable ASCII
                .stream().collect(Collectors.joining());
    }

    private static String anyCodePoint(SplittableRandom random) {
        int cp = Seeded.where(random, r -> r.nextInt(Character.MAX_CODE_POINT + 1),
                c -> c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE);
        return Character.toString(cp);
    }

    private static String nearlySafe(SplittableRandom random) {
        return Seeded.listOf(random, 0, 8, r -> Seeded.weighted(r, new int[] {10, 1},
                        t -> Seeded.oneOf(t, SAFE), t -> Seeded.oneOf(t, SHELL)))
                .stream().collect(Collectors.joining());
    }

    static List<String> argv(SplittableRandom random) {
        return Seeded.listOf(random, 1, 6, RenderPropertiesTest::text);
    }

    /** What an argv can hold: anything but NUL. */
    static List<String> shellArgv(SplittableRandom random) {
        return Seeded.listOf(random, 1, 6, r -> text(r).replace("\u0000", ""));
    }

    /** Tokens a rule line can hold: no line feed, and a non-empty first token. */
    static List<String> ruleTokens(SplittableRandom random) {
        return Seeded.where(random, r -> Seeded.listOf(r, 1, 6, t -> text(t).replace("\n", "")),
                tokens -> !tokens.get(0).isEmpty()
                        && !(tokens.get(0).equals("=") && (tokens.size() < 2 || tokens.get(1).isEmpty())));
    }

    private static boolean isHidden(int cp) {
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }

    @Test
    void renderingNeverEmitsARawControlFormatOrSeparatorCharacter() {
        Seeded.forAll(1000, RenderPropertiesTest::argv, argv -> {
            String shown = Render.render(argv);
            shown.codePoints().forEach(cp -> assertTrue(!isHidden(cp),
                    () -> String.format("U+%04X left raw in %s", cp, shown)));
        });
    }

    @Test
    void escapeChangesOnlyHiddenCharacters() {
        Seeded.forAll(1000, RenderPropertiesTest::argv, argv -> {
            for (String token : argv) {
                boolean hidden = token.codePoints().anyMatch(RenderPropertiesTest::isHidden);
                assertEquals(hidden, Render.needsEscape(token), token);
                if (!hidden) {
                    assertEquals(token, Render.escape(token));
                }
            }
        });
    }

    @Test
    void parsingAQuoteJoinedRuleGivesBackItsTokens() {
        Seeded.forAll(1000, RenderPropertiesTest::ruleTokens,
                tokens -> assertEquals(tokens, Rule.parse(Render.quoteJoin(tokens)).lineTokens()));
    }

    /** The quote-joined argv, given to printf by a POSIX shell, comes back byte for byte. */
    @Test
    void aShellGivesBackTheQuoteJoinedArgvByteForByte() {
        Seeded.forAll(300, RenderPropertiesTest::shellArgv,
                argv -> assertArrayEquals(Shell.nulTerminated(argv), Shell.printWords(Render.quoteJoin(argv)),
                        () -> "argv " + argv));
    }
}
