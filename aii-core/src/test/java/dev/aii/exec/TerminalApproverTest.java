package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TerminalApproverTest {

    private static final ResolvedCommand GIT_STATUS =
            new ResolvedCommand("git", "/usr/bin/git", "git", true, List.of("status", "--short"));
    private static final ApprovalRequest OFFERING_ALWAYS =
            new ApprovalRequest(GIT_STATUS, Optional.of(Rule.of("git", "status")), List.of());
    private static final ApprovalRequest WITHOUT_ALWAYS =
            new ApprovalRequest(GIT_STATUS, Optional.empty(), List.of());

    /** Column 0 of a cleared screen line, then the reset: what every prompt starts with. */
    static final String START = "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007" + "\u001b[0m\u001b(B\u001b[?25h";

    private final List<String> order = new ArrayList<>();
    private final ExecOutput output = new ExecOutput() {
        @Override
        public void beforeTerminal() {
            order.add("beforeTerminal");
        }

        @Override
        public void commandLog(String rendered) {
            order.add("log " + rendered);
        }

        @Override
        public void warning(String text) {
            order.add("warning " + text);
        }
    };

    private Approver.Answer ask(FakeTerminal terminal, ApprovalRequest request) {
        return new TerminalApprover(terminal, output).ask(request, new Cancellation());
    }

    @Test
    void promptWithAlwaysIsExact() {
        FakeTerminal terminal = FakeTerminal.answering("n");
        ask(terminal, OFFERING_ALWAYS);
        assertEquals(List.of(START + "aii: run this command?\n"
                + "  git status --short\n"
                + "  [y] yes once   [a] always allow \"git status\"   [N] no\n"
                + "> n\n"), terminal.prompts());
    }

    @Test
    void promptWithoutAlwaysOmitsTheOptionAndItsSpaces() {
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, WITHOUT_ALWAYS);
        assertEquals(List.of(START + "aii: run this command?\n  git status --short\n  [y] yes once   [N] no\n> \n"),
                terminal.prompts());
    }

    @Test
    void untrustedProgramShowsItsFullPathAndTheSuffix() {
        ResolvedCommand command = new ResolvedCommand("./tool", "/home/u/tool", "tool", false, List.of("a b"));
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(command, Optional.empty(), List.of()));
        assertEquals(List.of(START + "aii: run this command?\n"
                + "  /home/u/tool 'a b' (not in a system directory)\n"
                + "  [y] yes once   [N] no\n> \n"), terminal.prompts());
    }

    @Test
    void controlCharactersAreEscapedInTheCommandAndThePrefix() {
        ResolvedCommand command = new ResolvedCommand("echo", "/bin/echo", "echo", true, List.of("a\nb", "\u001b[2J"));
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(command, Optional.of(Rule.of("echo", "a\nb")), List.of()));
        assertEquals(List.of(START + "aii: run this command?\n"
                + "  echo 'a\\nb' '\\x1B[2J'\n"
                + "  [y] yes once   [a] always allow \"echo 'a\\nb'\"   [N] no\n> \n"), terminal.prompts());
    }

    @Test
    void anExactRuleIsOfferedAsAlwaysAllowExactly() {
        ResolvedCommand command = new ResolvedCommand("shuf", "/usr/bin/shuf", "shuf", true, List.of("data.txt"));
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(command, Optional.of(Rule.exactly(List.of("shuf", "data.txt"))), List.of()));
        assertEquals(List.of(START + "aii: run this command?\n"
                + "  shuf data.txt\n"
                + "  [y] yes once   [a] always allow exactly \"shuf data.txt\"   [N] no\n> \n"), terminal.prompts());
    }

    @Test
    void notesFollowTheCommandLineIndented() {
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(GIT_STATUS, Optional.empty(), List.of("first note", "second note")));
        assertEquals(List.of(START + "aii: run this command?\n  git status --short\n  first note\n  second note\n"
                + "  [y] yes once   [N] no\n> \n"), terminal.prompts());
    }

    @ParameterizedTest(name = "answer \"{0}\" with always offered: {1}; without: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            y        | ONCE   | ONCE
            Y        | ONCE   | ONCE
            yes      | ONCE   | ONCE
            a        | ALWAYS | NO
            A        | ALWAYS | NO
            always   | ALWAYS | NO
            n        | NO     | NO
            N        | NO     | NO
            x        | NO     | NO
            " y"     | NO     | NO
            ""       | NO     | NO
            """)
    void theFirstCharacterLowercasedDecides(String line, Approver.Answer offered, Approver.Answer notOffered) {
        assertEquals(offered, ask(FakeTerminal.answering(line), OFFERING_ALWAYS));
        assertEquals(notOffered, ask(FakeTerminal.answering(line), WITHOUT_ALWAYS));
    }

    @Test
    void endOfInputIsNo() {
        assertEquals(Approver.Answer.NO, ask(FakeTerminal.answering((String) null), OFFERING_ALWAYS));
    }

    @Test
    void endOfInputEndsThePromptLine() {
        FakeTerminal terminal = FakeTerminal.answering((String) null);
        ask(terminal, WITHOUT_ALWAYS);
        assertEquals(List.of(START + "aii: run this command?\n  git status --short\n  [y] yes once   [N] no\n> \n"),
                terminal.prompts());
        assertEquals(List.of("open", "discard", "write", "read", "write", "close"), terminal.events());
    }

    @Test
    void noTerminalIsNoTerminal() {
        assertEquals(Approver.Answer.NO_TERMINAL, ask(FakeTerminal.absent(), OFFERING_ALWAYS));
    }

    @Test
    void stdoutIsReadiedThenTypeAheadDiscardedBeforeThePromptIsWritten() {
        FakeTerminal terminal = FakeTerminal.answering("y");
        ask(terminal, OFFERING_ALWAYS);
        assertEquals(List.of("beforeTerminal"), order);
        assertEquals(List.of("open", "discard", "write", "read", "close"), terminal.events());
    }

    @Test
    void aTerminalFailingMidPromptMeansNo() {
        Terminal failing = () -> new Terminal.Conversation() {
            @Override
            public void discardTypeAhead() {
            }

            @Override
            public void write(String text) throws IOException {
                throw new IOException("Input/output error");
            }

            @Override
            public Optional<String> readLine(Cancellation cancellation) {
                return Optional.of("y");
            }

            @Override
            public void close() {
            }
        };
        assertEquals(Approver.Answer.NO, new TerminalApprover(failing, output).ask(OFFERING_ALWAYS, new Cancellation()));
    }

    @Test
    void aCancelledPromptIsNoEvenIfALineArrivesAndEndsThePromptLine() {
        Cancellation cancellation = new Cancellation();
        List<String> written = new ArrayList<>();
        Terminal cancelling = () -> new Terminal.Conversation() {
            @Override
            public void discardTypeAhead() {
            }

            @Override
            public void write(String text) {
                written.add(text);
            }

            @Override
            public Optional<String> readLine(Cancellation c) {
                c.cancel();
                return Optional.of("y");
            }

            @Override
            public void close() {
            }
        };
        assertEquals(Approver.Answer.NO, new TerminalApprover(cancelling, output).ask(OFFERING_ALWAYS, cancellation));
        assertEquals(2, written.size(), written::toString);
        assertEquals("\n", written.getLast());
    }

    /** The prompt's lines for {@code command}, the lead and reset taken off, answered with end of input. */
    private List<String> promptLines(ResolvedCommand command) {
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(command, Optional.empty(), List.of()));
        String written = terminal.prompts().getFirst();
        assertTrue(written.startsWith(START), written);
        return List.of(written.substring(START.length()).split("\n", -1));
    }

    private static ResolvedCommand echo(String... arguments) {
        return new ResolvedCommand("echo", "/bin/echo", "echo", true, List.of(arguments));
    }

    @Test
    void aDisplayOfEightyCharactersHasNoSummaryAndEightyOneHave() {
        // "echo " and 75 characters: 80, exactly the seed's prompt.
        assertEquals(List.of("aii: run this command?", "  echo " + "a".repeat(75), "  [y] yes once   [N] no", "> ", ""),
                promptLines(echo("a".repeat(75))));
        assertEquals(List.of("aii: run this command?", "  echo " + "a".repeat(76),
                        "  (echo: 1 argument, 81 characters)", "  [y] yes once   [N] no", "> ", ""),
                promptLines(echo("a".repeat(76))));
    }

    @Test
    void theSummaryCountsArgumentsAndTheRenderedDisplaysCharacters() {
        List<String> lines = promptLines(echo("one", "two", "x".repeat(80)));
        assertEquals("  (echo: 3 arguments, " + ("echo one two ".length() + 80) + " characters)", lines.get(2));
        // Escaped and quoted, as shown: the ESC is the four characters \x1B, and the quotes count.
        String shown = "echo '\\x1B[8m" + "b".repeat(70) + "'";
        assertEquals("  " + shown, promptLines(echo("\u001b[8m" + "b".repeat(70))).get(1));
        assertEquals("  (echo: 1 argument, " + shown.length() + " characters)",
                promptLines(echo("\u001b[8m" + "b".repeat(70))).get(2));
    }

    @Test
    void wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        // echo, a space and the quotes: 7 columns; then 36 wide characters, 72 columns: 79 in all.
        for (String wide : List.of("\uD83D\uDE00", "\u4E2D", "\uAC00", "\uFF21")) {
            assertEquals("  [y] yes once   [N] no", promptLines(echo(wide.repeat(36))).get(2), wide);
            assertEquals("  (echo: 1 argument, 44 characters)", promptLines(echo(wide.repeat(37))).get(2), wide);
        }
        // 73 letters with a combining accent each: 80 columns, though 153 characters.
        assertEquals("  [y] yes once   [N] no", promptLines(echo("e\u0301".repeat(73))).get(2));
        assertEquals("  (echo: 1 argument, 157 characters)", promptLines(echo("e\u0301".repeat(75))).get(2));
    }

    @Test
    void screenColumnsFollowTheEastAsianWidthTable() {
        assertEquals(0, ScreenColumns.of(""));
        assertEquals(1, ScreenColumns.of("a"));
        assertEquals(2, ScreenColumns.of("\u4E00"));       // CJK ideograph
        assertEquals(2, ScreenColumns.of("\u3042"));       // hiragana
        assertEquals(2, ScreenColumns.of("\uFF01"));       // fullwidth exclamation mark
        assertEquals(1, ScreenColumns.of("\uFF61"));       // halfwidth ideographic full stop
        assertEquals(2, ScreenColumns.of("\uD83D\uDE80")); // rocket
        assertEquals(1, ScreenColumns.of("\u00E9"));       // precomposed e acute
        assertEquals(1, ScreenColumns.of("e\u0301"));      // e and a combining acute
        assertEquals(2, ScreenColumns.of("\u1100\u1161")); // a Hangul leading consonant and its vowel
        assertEquals(2, ScreenColumns.of("\uD840\uDC00")); // U+20000, plane 2
        assertEquals(1, ScreenColumns.of("\u2764"));       // heavy black heart: text presentation
    }

    @Test
    void aLongPathWithoutArgumentsIsSummarisedByThatPath() {
        String path = "/home/u/" + "d".repeat(80) + "/tool";
        ResolvedCommand command = new ResolvedCommand(path, path, "tool", false, List.of());
        assertEquals(List.of("aii: run this command?", "  " + path + " (not in a system directory)",
                        "  (" + path + ": 0 arguments, " + path.length() + " characters)", "  [y] yes once   [N] no",
                        "> ", ""),
                promptLines(command));
    }

    /**
     * One argument padded with spaces wraps on an 80-column screen into lines
     * of its own that read as a prompt for {@code ls}; the line just above
     * the options names the program that really runs.
     */
    @Test
    void aLongArgumentDrawingAFalsePromptIsFollowedByTheRealProgramsName() {
        String fake = "x" + " ".repeat(77) + "aii: run this command?" + " ".repeat(58) + "  ls -l /tmp" + " ".repeat(68);
        ResolvedCommand rm = new ResolvedCommand("rm", "/bin/rm", "rm", true, List.of("-rf", "/tmp/victim", fake));
        List<String> lines = promptLines(rm);
        int length = ("rm -rf /tmp/victim '" + fake + "'").length();
        assertEquals("  (rm: 3 arguments, " + length + " characters)", lines.get(lines.size() - 4));
        assertEquals("  [y] yes once   [N] no", lines.get(lines.size() - 3));
    }

    @Test
    void theSummaryComesAfterTheNotesJustBeforeTheOptions() {
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(echo("z".repeat(90)), Optional.empty(), List.of("note: a guard")));
        assertEquals(List.of(START + "aii: run this command?\n  echo " + "z".repeat(90) + "\n  note: a guard\n"
                + "  (echo: 1 argument, 95 characters)\n  [y] yes once   [N] no\n> \n"), terminal.prompts());
    }

    @Test
    void whenTheAnswersLineMayBeOpenOnTheTerminalThePromptEndsItFirstInTheSameWrite() {
        List<String> written = new ArrayList<>();
        FakeTerminal terminal = FakeTerminal.answering("n");
        ExecOutput lineOpen = new ExecOutput() {
            @Override
            public void beforeTerminal() {
                written.add("beforeTerminal");
            }

            @Override
            public boolean beforePrompt() {
                written.add("beforePrompt");
                return true;
            }

            @Override
            public void commandLog(String rendered) {
            }

            @Override
            public void warning(String text) {
            }
        };
        new TerminalApprover(terminal, lineOpen).ask(WITHOUT_ALWAYS, new Cancellation());
        assertEquals(List.of("beforePrompt"), written);
        assertEquals(List.of(START.replace("\u001b8\r", "\u001b8\n\r") + "aii: run this command?\n  git status --short\n  [y] yes once   [N] no\n> n\n"),
                terminal.prompts());
        assertEquals(List.of("open", "discard", "write", "read", "close"), terminal.events());
    }

    @Test
    void byDefaultAPromptReadiesStdoutAsAnythingElseOnTheTerminalDoes() {
        FakeTerminal terminal = FakeTerminal.answering("n");
        ask(terminal, WITHOUT_ALWAYS);
        assertEquals(List.of("beforeTerminal"), order);
        assertTrue(terminal.prompts().getFirst().startsWith("\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007\u001b[0m\u001b(B\u001b[?25haii: "));
    }
}
