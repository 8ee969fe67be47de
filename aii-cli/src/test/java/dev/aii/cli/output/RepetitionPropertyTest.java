package dev.aii.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bounded detector decides as the plain reading of the rule does, for
 * seeded random answers: lines that repeat or nearly repeat, leading and
 * trailing whitespace, terminators, combining marks and emoji, split into
 * random pieces. A failure prints its seed.
 */
class RepetitionPropertyTest {

    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta.", "why?", "stop!", "x", "  ", "\t",
        "e\u0301", "\uD83D\uDC4D", "\uD83D\uDC68\u200D\uD83D\uDC69", "...", "end.", " ", "\r\n"};

    @Test
    void theBoundedDetectorAgreesWithTheReferenceOnRandomAnswers() {
        long base = System.nanoTime();
        for (int run = 0; run < 3000; run++) {
            long seed = base + run;
            Random random = new Random(seed);
            String answer = answer(random);
            int expected = RepetitionReference.repeatsAt(answer);
            RepetitionDetector detector = new RepetitionDetector();
            boolean detected = false;
            for (int i = 0; i < answer.length() && !detected; ) {
                int n = 1 + random.nextInt(random.nextBoolean() ? 3 : 40);
                String piece = answer.substring(i, Math.min(answer.length(), i + n));
                detected = detector.accept(piece);
                i += piece.length();
            }
            assertEquals(expected >= 0, detected, "seed " + seed + ": " + answer.replace("\n", "\\n"));
        }
    }

    private static String answer(Random random) {
        StringBuilder lines = new StringBuilder();
        String previous = line(random);
        int count = 1 + random.nextInt(6);
        for (int i = 0; i < count; i++) {
            String line = switch (random.nextInt(4)) {
                case 0 -> previous;                                                 // the same again
                case 1 -> " ".repeat(random.nextInt(3)) + previous + " ".repeat(random.nextInt(3));
                case 2 -> previous.substring(0, random.nextInt(previous.length() + 1)) + line(random);
                default -> line(random);
            };
            lines.append(line).append(random.nextInt(5) == 0 ? "" : "\n");
            previous = random.nextBoolean() ? line : previous;
        }
        return lines.toString();
    }

    private static String line(Random random) {
        StringBuilder b = new StringBuilder();
        int words = 5 + random.nextInt(20);
        for (int i = 0; i < words; i++) {
            b.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(3) == 0 ? "" : " ");
        }
        return b.toString().replace("\r\n", random.nextBoolean() ? "\r\n" : "");
    }
}
