package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerWriterTest {

    private final CliHarness.RecordingStream out = new CliHarness.RecordingStream();

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
    void withExecOnATerminalControlCharactersOfTheAnswerAreShownEscaped() {
        AnswerWriter writer = new AnswerWriter(out, true, true);
        writer.write("a\u001B[8mb\tc\r\n");
        writer.write("\u001B]0;title\u0007\u000E\u009B2J\u007F\u00E9");
        assertEquals("a\\x1B[8mb\tc\r\n\\x1B]0;title\\x07\\x0E\\x9B2J\\x7F\u00E9", out.text());
        assertFalse(writer.atLineStart());
    }

    @Test
    void throughAPipeOrWithoutExecTheAnswerIsWrittenAsItArrives() {
        String text = "a\u001B[8mb\u0007\n";
        new AnswerWriter(out, false, true).write(text);
        new AnswerWriter(out, true, false).write(text);
        assertEquals(text + text, out.text());
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
}
