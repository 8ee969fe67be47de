package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Quoting checked against a real POSIX shell, character by character. */
class QuoteShellTest {

    @Test
    void everyCharacterButNulSurvivesTheShellAloneAndInsideAWord() throws Exception {
        List<String> argv = new ArrayList<>();
        List<Integer> codePoints = new ArrayList<>();
        for (int cp = 1; cp <= 0xA0; cp++) {
            codePoints.add(cp);
        }
        codePoints.addAll(List.of(0xAD, 0xE9, 0x202E, 0x2028, 0xFEFF, 0x65E5, 0x1F600, 0xE0041));
        for (int cp : codePoints) {
            String c = Character.toString(cp);
            argv.addAll(List.of(c, "a" + c + "b", c + c + "x", "x" + c));
        }
        argv.addAll(List.of("", "''", "'\\''", "$HOME", "${x:-y}", "$(id)", "`id`", "~", "~root", "*", "a=b", "-n"));
        assertArrayEquals(Shell.nulTerminated(argv), Shell.printWords(Render.quoteJoin(argv)));
    }
}
