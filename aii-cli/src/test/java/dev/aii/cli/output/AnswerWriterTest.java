package dev.aii.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerWriterTest {

    private final RecordingStream out = new RecordingStream();

    @Test
    void bufferedTextWaitsForALineFeed() {
        AnswerWriter writer = new AnswerWriter(out, false, false);
        writer.write("Hello");
        writer.write(", wor");
        assertEquals(List.of(), out.writes());
        writer.write("ld\nNext");
        assertEquals(List.of("Hello, world\nNext"), out.writes());
    }

    @Test
    void aLineFeedAnywhereInTheBufferFlushesTheWholeBuffer() {
        AnswerWriter writer = new AnswerWriter(out, false, false);
        writer.write("a\nb");
        assertEquals(List.of("a\nb"), out.writes());
    }

    @Test
    void bufferedTextIsWrittenAt128Utf8Bytes() {
        AnswerWriter writer = new AnswerWriter(out, false, false);
        writer.write("x".repeat(127));
        assertEquals(List.of(), out.writes());
        writer.write("y");
        assertEquals(List.of("x".repeat(127) + "y"), out.writes());
    }

    @Test
    void bufferCountsUtf8BytesNotCharacters() {
        AnswerWriter writer = new AnswerWriter(out, false, false);
        writer.write("\u00e9".repeat(63));   // 126 bytes
        assertEquals(List.of(), out.writes());
        writer.write("\u00e9");              // 128 bytes
        assertEquals(1, out.writes().size());
    }

    @Test
    void execModeWritesEveryPieceAtOnce() {
        AnswerWriter writer = new AnswerWriter(out, false, true);
        writer.write("a");
        writer.write("b");
        assertEquals(List.of("a", "b"), out.writes());
    }

    @Test
    void endAnswerFlushesThenWritesOneLineFeed() {
        AnswerWriter writer = new AnswerWriter(out, false, false);
        writer.write("done");
        writer.endAnswer();
        assertEquals("done\n", out.text());
    }

    @Test
    void prepareForTerminalEndsAStartedLineOnATerminal() {
        AnswerWriter writer = new AnswerWriter(out, true, true);
        writer.write("Let me check");
        writer.prepareForTerminal();
        assertEquals("Let me check\n", out.text());
        writer.prepareForTerminal();
        assertEquals("Let me check\n", out.text());
        assertTrue(writer.atLineStart());
    }

    @Test
    void prepareForTerminalOnlyFlushesWhenStdoutIsNotATerminal() {
        AnswerWriter writer = new AnswerWriter(out, false, false);
        writer.write("pending");
        writer.prepareForTerminal();
        assertEquals("pending", out.text());
        assertFalse(writer.atLineStart());
    }

    @Test
    void nothingWrittenYetCountsAsALineStart() {
        AnswerWriter writer = new AnswerWriter(out, true, false);
        writer.prepareForTerminal();
        assertEquals("", out.text());
    }

    @Test
    void withExecControlAndFormatCharactersOfTheAnswerAreShownEscapedButTabAndLineFeed() {
        AnswerWriter writer = new AnswerWriter(out, true, true);
        writer.write("a\u001B[8mb\tc\r\n");
        writer.write("\u001B]0;title\u0007\u000E\u009B2J\u007F\u00E9 \u202Eevil\u200B\u2028\u2029\u00AD\uFEFF");
        assertEquals("a\\x1B[8mb\tc\\x0D\n\\x1B]0;title\\x07\\x0E\\x9B2J\\x7F\u00E9 \\u{202E}evil\\u{200B}"
                + "\\u{2028}\\u{2029}\\u{00AD}\\u{FEFF}", out.text());
        assertFalse(writer.atLineStart());
    }

    @Test
    void withExecTheAnswerIsEscapedWhateverStdoutIs() {
        String text = "ok\u001B[2J\u001B]52;c;cm0gLXJmIH4=\u0007\u202E\n";
        String shown = "ok\\x1B[2J\\x1B]52;c;cm0gLXJmIH4=\\x07\\u{202E}\n";
        new AnswerWriter(out, false, true).write(text);
        new AnswerWriter(out, true, true).write(text);
        assertEquals(shown + shown, out.text());
    }

    @Test
    void withoutExecTheAnswerIsWrittenAsItCameWhateverStdoutIs() {
        String text = "a\u001B[8mb\u0007\r\u202E\n";
        new AnswerWriter(out, false, false).write(text);
        new AnswerWriter(out, true, false).write(text);
        assertEquals(text + text, out.text());
    }

    @Test
    void anEscapeSequenceSplitAcrossPiecesIsEscapedAllTheSame() {
        AnswerWriter writer = new AnswerWriter(out, false, true);
        for (String piece : List.of("a\u001B", "[8", "m", "\u009B", "2J\u001B]", "52;c;x", "\u0007b")) {
            writer.write(piece);
        }
        assertEquals("a\\x1B[8m\\x9B2J\\x1B]52;c;x\\x07b", out.text());
    }

    @Test
    void withExecASurrogatePairSplitAcrossPiecesIsWrittenWholeAndALoneOneEscaped() {
        AnswerWriter writer = new AnswerWriter(out, false, true);
        writer.write("\u202E" + "\uD83D");
        writer.write("\uDE00" + "\uD83D");
        writer.write("\uDE00");
        assertEquals("\\u{202E}\uD83D\uDE00\uD83D\uDE00", out.text());
        writer.write("end\uD83D");
        writer.endAnswer();
        assertEquals("\\u{202E}\uD83D\uDE00\uD83D\uDE00end\\u{D83D}\n", out.text());
    }

    @Test
    void aLineOpenOnAPipeIsToldToThePromptOnceUntilMoreIsWritten() {
        AnswerWriter writer = new AnswerWriter(out, false, true);
        assertFalse(writer.takeLineOpenOffTerminal(), "nothing written");
        writer.write("Checking files.");
        assertTrue(writer.takeLineOpenOffTerminal());
        assertFalse(writer.takeLineOpenOffTerminal(), "ended on the terminal by the first prompt");
        writer.write(" More.");
        assertTrue(writer.takeLineOpenOffTerminal());
        writer.write("\n");
        assertFalse(writer.takeLineOpenOffTerminal(), "the line ended");
        assertEquals("Checking files. More.\n", out.text());
    }

    @Test
    void onATerminalTheLineIsEndedOnStdoutInsteadAndNothingIsToldToThePrompt() {
        AnswerWriter writer = new AnswerWriter(out, true, true);
        writer.write("Checking files.");
        assertFalse(writer.takeLineOpenOffTerminal());
        writer.prepareForTerminal();
        assertEquals("Checking files.\n", out.text());
    }

    @Test
    void theLinePromptLeavesTheLineStateAsItWas() {
        AnswerWriter writer = new AnswerWriter(out, true, false);
        writer.writePrompt("> ");
        writer.prepareForTerminal();
        assertEquals("> ", out.text());
        assertTrue(writer.atLineStart());
    }

    @Test
    void aSurrogatePairSplitAcrossPiecesIsWrittenWhole() {
        AnswerWriter writer = new AnswerWriter(out, false, true);
        String emoji = "\uD83D\uDE00";
        writer.write("a" + emoji.charAt(0));
        writer.write(emoji.charAt(1) + "b");
        assertEquals("a" + emoji + "b", out.text());
        assertEquals(List.of("a", emoji + "b"), out.writes());
    }

    /**
     * Seeded property: however the model's text is cut into pieces (inside an
     * escape sequence, between the halves of a surrogate pair), what {@code -x}
     * writes is the same as for the whole text, and holds no character a
     * terminal acts on but tab and LF.
     */
    @Test
    void withExecHowTheTextIsCutIntoPiecesChangesNothingAndNoControlGetsThrough() {
        String[] alphabet = {"a", " ", "\n", "\t", "\r", "\u001b", "[", "8", "m", "]", "\u0007", "\u009b", "\u007f",
            "\u00e9", "\u202e", "\u200b", "\u2028", "\ufeff", "\uD83D\uDE00", "\u4e2d"};
        long seed = new java.util.Random().nextLong();
        java.util.Random random = new java.util.Random(seed);
        for (int round = 0; round < 300; round++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            RecordingStream whole = new RecordingStream();
            AnswerWriter one = new AnswerWriter(whole, false, true);
            one.write(text.toString());
            one.endAnswer();
            RecordingStream cut = new RecordingStream();
            AnswerWriter pieces = new AnswerWriter(cut, false, true);
            int at = 0;
            while (at < text.length()) {
                int end = Math.min(text.length(), at + 1 + random.nextInt(5));
                pieces.write(text.substring(at, end));
                at = end;
            }
            pieces.endAnswer();
            String context = "seed " + seed + ", round " + round + ", text " + text.codePoints()
                    .mapToObj(Integer::toHexString).toList();
            assertEquals(whole.text(), cut.text(), context);
            cut.text().codePoints().forEach(cp -> assertTrue(cp == '\t' || cp == '\n'
                    || !dev.aii.policy.Render.needsEscape(Character.toString(cp)), context + ": U+" + Integer.toHexString(cp)));
        }
    }
}
