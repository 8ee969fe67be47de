package dev.aii.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepetitionDetectorTest {

    private static final String LINE = "The quick brown fox jumps over the lazy dog again";   // 49 characters

    private static boolean feed(RepetitionDetector d, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (d.accept(String.valueOf(text.charAt(i)))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aRepeatedLineIsDetectedWhenTheLineInProgressReachesTheRememberedFingerprint() {
        String sentence = "The quick brown fox jumps over the lazy dog. Again and again it jumps.";
        RepetitionDetector d = new RepetitionDetector();
        assertFalse(d.accept(sentence + "\n"));
        for (int i = 0; i < 43; i++) {
            assertFalse(d.accept(String.valueOf(sentence.charAt(i))), "at " + i);
        }
        assertTrue(d.accept("."));
    }

    @Test
    void aLineInProgressUnder40CharactersIsNeverRepetition() {
        String sentence = "Short sentence here. Short sentence here. Short sentence here.";
        RepetitionDetector d = new RepetitionDetector();
        assertFalse(d.accept(sentence + "\n"));
        assertFalse(d.accept(sentence.substring(0, 39)));
        assertTrue(d.accept(sentence.substring(39, 40)));
    }

    @Test
    void linesUnder40CharactersAreNeverRemembered() {
        RepetitionDetector d = new RepetitionDetector();
        String shortLine = "x".repeat(39) + "\n";
        assertFalse(feed(d, shortLine.repeat(50)));
    }

    @Test
    void indentedRepeatsAreNotDetected() {
        RepetitionDetector d = new RepetitionDetector();
        assertFalse(feed(d, ("    " + LINE + "\n").repeat(10)));
    }

    @Test
    void distinctLinesAreNotRepetition() {
        RepetitionDetector d = new RepetitionDetector();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            text.append("Line number ").append(i).append(" says something different from the others.\n");
        }
        assertFalse(feed(d, text.toString()));
    }

    @Test
    void onlyTheLast20FingerprintsAreRemembered() {
        RepetitionDetector d = new RepetitionDetector();
        StringBuilder text = new StringBuilder(LINE + "\n");
        for (int i = 0; i < 20; i++) {
            text.append("Filler line ").append(String.format("%02d", i)).append(" that is long enough to be counted.\n");
        }
        assertFalse(feed(d, text.toString()));
        assertFalse(feed(d, LINE + "\n"));
    }

    @Test
    void withinTheLast20ARepeatIsDetected() {
        RepetitionDetector d = new RepetitionDetector();
        StringBuilder text = new StringBuilder(LINE + "\n");
        for (int i = 0; i < 19; i++) {
            text.append("Filler line ").append(String.format("%02d", i)).append(" that is long enough to be counted.\n");
        }
        assertFalse(feed(d, text.toString()));
        assertTrue(feed(d, LINE));
    }

    @Test
    void fingerprintStopsAtTheFirstSentenceEndPast40() {
        List<String> s = clusters("This sentence is longer than forty characters. And then more text follows here to pad.");
        assertEquals("This sentence is longer than forty characters.", RepetitionDetector.fingerprint(s));
    }

    @Test
    void fingerprintIsAtLeast40CharactersWhenTheSentenceEndsEarly() {
        List<String> s = clusters("Short one. Then the line continues for quite a while longer than that.");
        assertEquals("Short one. Then the line continues for q", RepetitionDetector.fingerprint(s));
    }

    @Test
    void fingerprintIsAtMost60Characters() {
        List<String> s = clusters("x".repeat(100));
        assertEquals("x".repeat(60), RepetitionDetector.fingerprint(s));
    }

    @Test
    void aDotInsideAWordDoesNotEndTheSentence() {
        List<String> s = clusters("Version 1.2.3 of the library has many new features. Yes it does.");
        assertEquals("Version 1.2.3 of the library has many new features.", RepetitionDetector.fingerprint(s));
    }

    @Test
    void charactersAreGraphemeClusters() {
        String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67";   // one user-perceived character
        RepetitionDetector d = new RepetitionDetector();
        String line = family.repeat(41);
        assertFalse(feed(d, line + "\n"));
        RepetitionDetector again = new RepetitionDetector();
        assertFalse(feed(again, family.repeat(39) + "\n" + family.repeat(39) + "\n"));
        assertFalse(feed(d, family.repeat(40)));
        assertTrue(feed(d, family));
    }

    @Test
    void aCombiningMarkSplitAcrossPiecesStaysOneCharacter() {
        RepetitionDetector d = new RepetitionDetector();
        String e = "e\u0301";
        assertFalse(feed(d, e.repeat(40) + "\n"));
        for (int i = 0; i < 39; i++) {
            assertFalse(d.accept("e"));
            assertFalse(d.accept("\u0301"));
        }
        assertFalse(d.accept("e"));
        assertTrue(d.accept("\u0301x"));
    }

    private static List<String> clusters(String s) {
        return Arrays.stream(s.split("")).toList();
    }
}
