package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.RecordedRequest;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Interactive mode on a real pseudo-terminal, where aii edits lines with JLine. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class InteractiveE2E extends ServerFixture {

    /** The header on the terminal for a server's model: its name and base URL. */
    static String header(FakeOpenAiServer server) {
        return "aii \u2014 " + FakeOpenAiServer.DEFAULT_MODEL + " at " + server.baseUrl()
                + "\r\nType /new to reset, /quit to exit.\r\n";
    }
    static final String CLEAR = "\u001b[2J\u001b[H";
    /** The left arrow key, as a terminal sends it once JLine has turned on its application cursor keys. */
    static final String LEFT = "\u001bOD";

    @BeforeEach
    void aTerminalThatJLineKnows() {
        aii.env("TERM", "xterm-256color");
    }

    private static List<String> roles(RecordedRequest request) {
        return request.messages().stream().map(m -> m.path("role").asText()).toList();
    }

    @Test
    void twoTurnsAnAlwaysApprovalAndNewKeepTheApproval() throws Exception {
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("touch", "x.txt")),
                Reply.text("Created x.txt."),
                Reply.text("It is empty."),
                Reply.toolCall(Wire.OLLAMA, "run_command", ExecE2E.call("touch", "x.txt")),
                Reply.text("Touched it again."));
        try (PtyDriver pty = aii.onTerminal(List.of("-i", "-x"))) {
            pty.awaitOutput(header(server), AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Create x.txt\n");
            pty.awaitOutput(ApprovalE2E.PROMPT, AiiProcess.LIMIT);
            pty.type("a\n");
            pty.awaitOutput("a\r\naii: $ touch x.txt\r\nCreated x.txt.\r\n", AiiProcess.LIMIT);

            // Line editing: the cursor goes back eleven places and a letter is inserted there.
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Wht is in it?" + LEFT.repeat(11) + "a\n");
            pty.awaitOutput("It is empty.\r\n", AiiProcess.LIMIT);

            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/new\n");
            pty.awaitOutput(CLEAR + header(server), AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Create x.txt again\n");
            pty.awaitOutput("aii: $ touch x.txt\r\nTouched it again.\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            String screen = pty.filtered();
            assertEquals(screen.indexOf("aii: run this command?"), screen.lastIndexOf("aii: run this command?"), screen);
        }

        List<RecordedRequest> chats = server.chatRequests();
        assertEquals(5, chats.size());
        assertEquals(List.of("exit 0\n"), chats.get(1).toolResults());
        RecordedRequest second = chats.get(2);
        assertEquals(List.of("Create x.txt", "What is in it?"), second.contents("user"));
        assertEquals(List.of("system", "user", "assistant", "tool", "assistant", "user"), roles(second));
        assertEquals("Created x.txt.", second.messages().get(4).path("content").asText());
        RecordedRequest afterNew = chats.get(3);
        assertEquals(List.of("system", "user"), roles(afterNew));
        assertEquals("Create x.txt again", afterNew.lastUserMessage());
        assertEquals(List.of("exit 0\n"), chats.get(4).toolResults());
        assertEquals(ApprovalE2E.SEEDED + "= touch x.txt\n", Files.readString(aii.allowFile()));
    }

    @Test
    void ctrlCDeclinesAPromptStopsAStreamingAnswerAndTheNextTurnWorks() throws Exception {
        server.enqueue(Reply.toolCall(Wire.APFEL, "run_command", ExecE2E.call("touch", "x.txt")),
                Reply.text("Left alone."),
                Reply.stream().text("Counting: one,\n", "two,\n").stall(),
                Reply.text("Fresh answer."));
        try (PtyDriver pty = aii.onTerminal(List.of("-ix"))) {
            pty.awaitOutput(header(server), AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Create x.txt\n");
            pty.awaitOutput(ApprovalE2E.PROMPT, AiiProcess.LIMIT);
            // Ctrl-C at the approval prompt declines that command; the answer goes on.
            pty.type("\u0003");
            pty.awaitOutput("^C\r\nLeft alone.\r\n", AiiProcess.LIMIT);

            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Count to a million\n");
            pty.awaitOutput("Counting: one,\r\ntwo,\r\n", AiiProcess.LIMIT);
            pty.type("\u0003");
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            // Ctrl-C at the prompt drops the line typed so far.
            pty.type("never mind\u0003");
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Something else\n");
            pty.awaitOutput("Fresh answer.\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("\u0004");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
        List<RecordedRequest> chats = server.chatRequests();
        assertEquals(4, chats.size());
        assertEquals(List.of(ApprovalE2E.DECLINED), chats.get(1).toolResults());
        assertFalse(Files.exists(aii.directory().resolve("x.txt")));
        // The stopped answer is left out of the conversation.
        assertEquals(List.of("Create x.txt", "Something else"), chats.get(3).contents("user"));
        assertTrue(chats.get(3).messages().stream().map(JsonNode::toString).noneMatch(m -> m.contains("Counting")));
    }

    @Test
    void withoutATerminalLinesComeFromStdinAndAnErrorLetsTheConversationGoOn() throws Exception {
        server.enqueue(Reply.text("Hello there."), Reply.contextRefusal(), Reply.text("Still here."));
        AiiProcess.Result r = aii.stdin("  hello\t\n\nwhat did I say?\n/new\nand now?\n").run("-i", "Be brief.");
        String header = header(server).replace("\r\n", "\n");
        assertEquals(new AiiProcess.Result(0,
                header + "> Hello there.\n> > > " + CLEAR + header + "> Still here.\n> ",
                "aii: Exceeds 4096-token context window\n"
                        + "aii: try a shorter input or use /new to reset context in interactive mode\n"
                        + "aii: server said: the request exceeds the available context size, try increasing it\n"
                        + "aii: use /new to start a fresh conversation\n"), r);
        List<RecordedRequest> chats = server.chatRequests();
        assertEquals(3, chats.size());
        assertEquals(List.of("system", "user"), roles(chats.get(0)));
        assertEquals("Be brief.", chats.get(0).systemMessage().orElseThrow());
        assertEquals("hello", chats.get(0).lastUserMessage());
        assertEquals(List.of("system", "user", "assistant", "user"), roles(chats.get(1)));
        assertEquals(List.of("system", "user"), roles(chats.get(2)));
        assertEquals("and now?", chats.get(2).lastUserMessage());
    }
}
