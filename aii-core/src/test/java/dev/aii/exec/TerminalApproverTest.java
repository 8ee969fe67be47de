package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        assertEquals(List.of("aii: run this command?\n"
                + "  git status --short\n"
                + "  [y] yes once   [a] always allow \"git status\"   [N] no\n"
                + "> n\n"), terminal.prompts());
    }

    @Test
    void promptWithoutAlwaysOmitsTheOptionAndItsSpaces() {
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, WITHOUT_ALWAYS);
        assertEquals(List.of("aii: run this command?\n  git status --short\n  [y] yes once   [N] no\n> \n"),
                terminal.prompts());
    }

    @Test
    void untrustedProgramShowsItsFullPathAndTheSuffix() {
        ResolvedCommand command = new ResolvedCommand("./tool", "/home/u/tool", "tool", false, List.of("a b"));
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(command, Optional.empty(), List.of()));
        assertEquals(List.of("aii: run this command?\n"
                + "  /home/u/tool 'a b' (not in a system directory)\n"
                + "  [y] yes once   [N] no\n> \n"), terminal.prompts());
    }

    @Test
    void controlCharactersAreEscapedInTheCommandAndThePrefix() {
        ResolvedCommand command = new ResolvedCommand("echo", "/bin/echo", "echo", true, List.of("a\nb", "\u001b[2J"));
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(command, Optional.of(Rule.of("echo", "a\nb")), List.of()));
        assertEquals(List.of("aii: run this command?\n"
                + "  echo 'a\\nb' '\\x1B[2J'\n"
                + "  [y] yes once   [a] always allow \"echo 'a\\nb'\"   [N] no\n> \n"), terminal.prompts());
    }

    @Test
    void notesFollowTheCommandLineIndented() {
        FakeTerminal terminal = FakeTerminal.answering();
        ask(terminal, new ApprovalRequest(GIT_STATUS, Optional.empty(), List.of("first note", "second note")));
        assertEquals(List.of("aii: run this command?\n  git status --short\n  first note\n  second note\n"
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
        assertEquals(List.of("aii: run this command?\n  git status --short\n  [y] yes once   [N] no\n> \n"),
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
}
