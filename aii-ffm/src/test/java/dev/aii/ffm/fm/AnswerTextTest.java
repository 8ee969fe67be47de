package dev.aii.ffm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AnswerTextTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "'', 0",
            "41, 1",
            "c3a9, 2",
            "c3, 0",
            "41c3, 1",
            "e282ac, 3",
            "e282, 0",
            "41e282, 1",
            "f09f9880, 4",
            "f09f98, 0",
            "f0, 0",
            "8080, 2",
    })
    void theCompletePrefixNeverEndsInsideASequence(String hex, int expected) {
        byte[] bytes = java.util.HexFormat.of().parseHex(hex);
        assertEquals(expected, AnswerText.completePrefix(bytes));
    }

    @Test
    void deltasAppendTheirText() {
        AnswerText text = new AnswerText();
        assertEquals("Hel", text.delta(utf8("Hel")));
        assertEquals("lo", text.delta(utf8("lo")));
        assertEquals("", text.finish());
    }

    @Test
    void aCharacterSplitAcrossDeltasIsHeldBackUntilWhole() {
        byte[] euro = utf8("\u20ac");
        AnswerText text = new AnswerText();
        assertEquals("a", text.delta(new byte[] {'a', euro[0]}));
        assertEquals("", text.delta(new byte[] {euro[1]}));
        assertEquals("\u20acb", text.delta(new byte[] {euro[2], 'b'}));
    }

    @Test
    void anUnfinishedCharacterAtTheEndBecomesAReplacementCharacter() {
        AnswerText text = new AnswerText();
        assertEquals("a", text.delta(new byte[] {'a', (byte) 0xF0, (byte) 0x9F}));
        assertEquals("\uFFFD", text.finish());
    }

    @Test
    void invalidBytesBecomeReplacementCharacters() {
        assertEquals("a\uFFFDb", new AnswerText().delta(new byte[] {'a', (byte) 0x80, 'b'}));
    }

    @Test
    void aResetExtendingTheTextAppendsTheRest() {
        AnswerText text = new AnswerText();
        text.delta(utf8("The sky"));
        assertEquals(" is blue", text.reset(utf8("The sky is blue")));
    }

    @Test
    void aFirstResetAppendsEverything() {
        assertEquals("Hi", new AnswerText().reset(utf8("Hi")));
    }

    @Test
    void aResetSharingNothingIsANewSegmentAppendedWhole() {
        AnswerText text = new AnswerText();
        text.delta(utf8("Let me check."));
        assertEquals("Found 3 files.", text.reset(utf8("Found 3 files.")));
        assertEquals(" Done", text.delta(utf8(" Done")));
    }

    @Test
    void aResetRewritingPrintedTextAppendsOnlyBeyondThePrintedLength() {
        AnswerText text = new AnswerText();
        text.delta(utf8("Hello wrold"));
        assertEquals("", text.reset(utf8("Hello world")));
        assertEquals("!", text.delta(utf8("!")));
    }

    @Test
    void aShorterRewriteWaitsUntilTheTextGrowsPastWhatWasPrinted() {
        AnswerText text = new AnswerText();
        text.delta(utf8("Hello wrold"));
        assertEquals("", text.reset(utf8("Hello w")));
        assertEquals("", text.reset(utf8("Hello wo")));
        assertEquals(", friend", text.delta(utf8("rld, friend")));
    }

    @Test
    void aResetDropsTheUnfinishedCharacterOfTheTextItReplaces() {
        AnswerText text = new AnswerText();
        text.delta(new byte[] {'a', (byte) 0xE2});
        assertEquals("bc", text.reset(utf8("abc")));
        assertEquals("", text.finish());
    }

    @Test
    void aRewriteNeverSplitsASurrogatePair() {
        AnswerText text = new AnswerText();
        text.delta(utf8("x\uD83D\uDE00"));
        // Same high surrogate, other low surrogate: the pair differs as a whole.
        assertEquals("", text.reset(utf8("x\uD83D\uDE01")));
        assertEquals("y", text.delta(utf8("y")));
    }
}
