package dev.aii.cli.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The help fitted to the terminal: every width keeps every word, in order, and no line is wider. */
class HelpLayoutTest {

    private static String words(String text) {
        return text.replaceAll("\\s+", "");
    }

    /** The expression an entry's reader is held to: indent, term, two spaces or more, text. */
    private static final java.util.regex.Pattern ENTRY =
            java.util.regex.Pattern.compile("^( +)(\\S(?:\\S| (?! ))*) {2,}(\\S.*)$");

    @Test
    void anEntryIsReadAsTheExpressionReadsIt() {
        String fixed = System.getProperty("aii.test.seed");
        long seed = fixed == null || fixed.isBlank() ? new Random().nextLong() : Long.parseLong(fixed.trim());
        Random random = new Random(seed);
        char[] alphabet = {' ', ' ', ' ', ' ', 'a', 'a', 'a', '-', '=', '\t', '\u000b', '\f', '\r', '\u0085', '\u2028',
            '\u00a0', 'x'};
        List<String> lines = new java.util.ArrayList<>(HelpText.raw().lines().toList());
        for (int run = 0; run < 50_000; run++) {
            StringBuilder line = new StringBuilder(random.nextInt(5) == 0 ? "" : " ".repeat(1 + random.nextInt(3)));
            for (int n = random.nextInt(14); n > 0; n--) {
                line.append(alphabet[random.nextInt(alphabet.length)]);
            }
            lines.add(line.toString());
        }
        int entries = 0;
        for (String line : lines) {
            java.util.regex.Matcher m = ENTRY.matcher(line);
            HelpLayout.Entry entry = HelpLayout.Entry.of(line);
            String context = "seed " + seed + ": " + line.chars().mapToObj(c -> String.format("%04x", c)).toList();
            if (!m.matches()) {
                assertEquals(null, entry, context);
                continue;
            }
            entries++;
            assertEquals(java.util.Arrays.stream(m.group(3).strip().split(" +")).filter(w -> !w.isEmpty()).toList(),
                    HelpLayout.words(m.group(3).strip()), context);
            assertEquals(new HelpLayout.Entry(m.group(1).length(), m.group(2), m.start(3), m.group(3)), entry, context);
        }
        assertTrue(entries > 500, "too few entries among the lines: " + entries + " (seed " + seed + ")");
    }

    @Test
    void atEveryWidthFromOneTo200NoLineIsWiderAndNoCharacterIsLost() {
        String raw = HelpText.raw();
        for (int width = 1; width <= 200; width++) {
            String fitted = HelpLayout.fit(raw, width);
            for (String line : fitted.lines().toList()) {
                assertTrue(line.codePointCount(0, line.length()) <= width, "width " + width + ": [" + line + "]");
                assertEquals(line.stripTrailing(), line, "width " + width + ": trailing blanks in [" + line + "]");
            }
            assertEquals(words(raw), words(fitted), "width " + width);
        }
    }

    @Test
    void wideEnoughTheTablesKeepTheColumnsTheyWereRenderedIn() {
        String fitted = HelpLayout.fit(HelpText.raw(), 200);
        assertTrue(fitted.contains("\n  -i, --interactive       Start interactive conversational mode\n"), fitted);
        assertTrue(fitted.contains("\n      --model=NAME        Model to use on the model server (overrides AII_MODEL)\n"),
                fitted);
        assertTrue(fitted.contains("\n  130  interrupted by Ctrl-C (one-shot mode)\n"), fitted);
        assertTrue(fitted.contains("\n  AII_HISTORY       off: -i keeps no line history"), fitted);
        assertEquals(HelpText.raw().lines().map(String::stripTrailing).toList(),
                HelpLayout.fit(HelpText.raw(), HelpLayout.RENDER_WIDTH).lines().toList());
    }

    @Test
    void at80ColumnsAnEntrysTextGoesOnUnderItsColumnAndASynopsisUnderItsCommand() {
        String fitted = HelpLayout.fit("Usage: aii [-ijx] [-f FILE] [--model NAME] [--] [PROMPT...] [--a-very-long-flag]"
                + " [--another-one]\n\n  -m, --model-info      Show context size, model variant and supported "
                + "languages, then exit\n  -x, --exec            Let the model run programs\n", 60);
        assertEquals("""
                Usage: aii [-ijx] [-f FILE] [--model NAME] [--] [PROMPT...]
                           [--a-very-long-flag] [--another-one]

                  -m, --model-info      Show context size, model variant and
                                        supported languages, then exit
                  -x, --exec            Let the model run programs
                """, fitted);
    }

    @Test
    void narrowTheTextGoesUnderItsTermAndAWordTooLongIsCut() {
        String fitted = HelpLayout.fit("  AII_BASE_URL      e.g. http://localhost:11434/v1 (Ollama)\n", 24);
        assertEquals("""
                  AII_BASE_URL
                      e.g.
                      http://localhost:1
                      1434/v1 (Ollama)
                """, fitted);
    }

    @Test
    void seededRandomTextsKeepTheirWordsAtRandomWidths() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int round = 0; round < 300; round++) {
            StringBuilder text = new StringBuilder();
            for (int line = random.nextInt(6); line >= 0; line--) {
                text.append(" ".repeat(random.nextInt(8)));
                for (int word = random.nextInt(12); word >= 0; word--) {
                    String letters = "ab-é/".repeat(6);
                    text.append(letters, 0, 1 + random.nextInt(letters.length()))
                            .append(" ".repeat(1 + random.nextInt(3)));
                }
                text.append('\n');
            }
            int width = 1 + random.nextInt(90);
            String fitted = HelpLayout.fit(text.toString(), width);
            String context = "seed " + seed + " round " + round + " width " + width + ":\n" + text;
            assertEquals(words(text.toString()), words(fitted), context);
            for (String line : fitted.lines().toList()) {
                assertTrue(line.codePointCount(0, line.length()) <= width, context + "\n[" + line + "]");
            }
        }
    }

    @Test
    void columnsIsAWidthOnlyWhenItIsAWholeNumberInRange() {
        for (Map.Entry<String, Integer> c : Map.of("100", 100, " 72 ", 72, "1", 1, "10000", 10000).entrySet()) {
            assertEquals(c.getValue(), Columns.of(Map.of("COLUMNS", c.getKey())), c.getKey());
        }
        for (String bad : List.of("", "0", "-1", "abc", "1e3", "10001", "99999999999", "8 0", "+80", "٨٠")) {
            assertEquals(80, Columns.of(Map.of("COLUMNS", bad)), bad);
        }
        assertEquals(80, Columns.of(Map.of()));
    }
}
