package dev.aii.cli.input;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * UTF-8 text read from a stream a piece at a time, each piece decoded as it
 * comes (cut before a character whose bytes are not all in yet) and kept as
 * a string; {@link #join} then makes the one text that needs them. So a
 * 10 MB input is held as its pieces and the joined text (one byte a
 * character for Latin-1 text), never also as the bytes of the whole input
 * or as 20 MB of chars. The text is the one {@code new String(bytes, UTF_8)}
 * gives for all of the input.
 */
public final class TextPieces {

    /** Bytes read, and decoded, at a time. */
    static final int PIECE = 256 * 1024;

    /** The longest text a string holds. */
    static final long MAX_CHARS = Integer.MAX_VALUE - 8;

    /** The input is longer than one string can hold. */
    public static final class TooLarge extends IOException {
        TooLarge() {
            super("too large to read into memory");
        }
    }

    private TextPieces() {
    }

    /**
     * All of {@code in}, decoded. Malformed input is replaced by U+FFFD, or,
     * when {@code strict}, is a {@link java.nio.charset.MalformedInputException}.
     *
     * @throws TooLarge past {@link #MAX_CHARS} characters
     */
    public static List<String> read(InputStream in, boolean strict) throws IOException {
        return read(in, strict, PIECE, MAX_CHARS);
    }

    static List<String> read(InputStream in, boolean strict, int piece, long maxChars) throws IOException {
        if (piece < 4) {
            // a piece must take the bytes of one character left over from the one before
            throw new IllegalArgumentException("piece " + piece + " < 4");
        }
        byte[] bytes = new byte[piece];
        Checker checker = strict ? new Checker(piece) : null;
        List<String> pieces = new ArrayList<>();
        long total = 0;
        int held = 0;
        int n;
        while ((n = in.read(bytes, held, bytes.length - held)) >= 0) {
            held += n;
            if (held == bytes.length) {
                int cut = cut(bytes, held);
                total = keep(bytes, cut, pieces, total, maxChars, checker);
                System.arraycopy(bytes, cut, bytes, 0, held - cut);
                held -= cut;
            }
        }
        keep(bytes, held, pieces, total, maxChars, checker);
        return pieces;
    }

    /**
     * Where the bytes can be cut: before a character whose bytes are not all
     * there yet, so that it is decoded with the rest of its bytes. Everything
     * before the cut decodes as it does within the whole input, since only
     * the last character can want bytes from after it.
     */
    static int cut(byte[] bytes, int length) {
        for (int back = 1; back <= 4 && back <= length; back++) {
            int b = bytes[length - back] & 0xff;
            if ((b & 0xc0) != 0x80) {
                int wants = b >= 0xf0 && b <= 0xf7 ? 4 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xc0 && b <= 0xdf ? 2 : 1;
                return back < wants ? length - back : length;
            }
        }
        return length;
    }

    /** Decodes the first {@code length} bytes into a new piece. */
    private static long keep(byte[] bytes, int length, List<String> pieces, long total, long maxChars,
            Checker checker) throws IOException {
        if (length == 0) {
            return total;
        }
        if (checker != null) {
            checker.check(bytes, length);
        }
        String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
        long now = total + text.length();
        if (now > maxChars) {
            throw new TooLarge();
        }
        pieces.add(text);
        return now;
    }

    /** Refuses malformed UTF-8, decoding into a buffer that is used again and again. */
    private static final class Checker {
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        private final CharBuffer scratch;

        Checker(int piece) {
            scratch = CharBuffer.allocate(piece);
        }

        void check(byte[] bytes, int length) throws CharacterCodingException {
            ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
            decoder.reset();
            CoderResult result;
            do {
                scratch.clear();
                result = decoder.decode(in, scratch, true);
            } while (result.isOverflow());
            if (result.isError()) {
                result.throwException();
            }
            scratch.clear();
            while (decoder.flush(scratch).isOverflow()) {
                scratch.clear();
            }
        }
    }

    /** The pieces as one text, between {@code before} and {@code after}, built in one allocation. */
    public static String join(String before, List<String> pieces, String after) {
        if (before.isEmpty() && after.isEmpty() && pieces.size() == 1) {
            return pieces.get(0);
        }
        List<String> all = new ArrayList<>(pieces.size() + 2);
        all.add(before);
        all.addAll(pieces);
        all.add(after);
        return String.join("", all);
    }
}
