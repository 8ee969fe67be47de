package dev.aii.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.llama.AiiRun.Result;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.gguf.Models;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Interactive mode against a real llama-server: the conversation's history, Ctrl-C, and a broken connection. */
class InteractiveLlamaIT {

    @TempDir
    Path root;

    @Test
    void eachPromptCarriesTheConversationSoFar() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        Result r = new AiiRun(root, s.baseUrl()).stdin("Say hello\nSay it again\n").run("-i");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().endsWith("> " + Models.PLAIN_ANSWER + "\n> " + Models.PLAIN_ANSWER + "\n> "), r.out());
        assertEquals("", r.err());
        List<Recorded> chats = s.proxy().chatRequests();
        assertEquals(2, chats.size());
        assertEquals("[{\"role\":\"user\",\"content\":\"Say hello\"},{\"role\":\"assistant\",\"content\":\""
                + Models.PLAIN_ANSWER + "\"},{\"role\":\"user\",\"content\":\"Say it again\"}]",
                chats.get(1).json().path("messages").toString());
    }

    @Test
    void ctrlCStopsTheAnswerAndReturnsToThePrompt() throws Exception {
        Llama.Served s = Llama.serve(Models.lines(1500));
        s.proxy().pace(Duration.ofMillis(20));
        try (PtyDriver pty = new AiiRun(root, s.baseUrl()).onTerminal("-i")) {
            pty.awaitOutput("> ", AiiRun.LIMIT);
            pty.type("Lines\n");
            pty.awaitOutput(Models.line(3).replace("\n", "\r\n"), AiiRun.LIMIT);
            pty.type("\u0003");
            pty.awaitOutput("> ", AiiRun.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiRun.LIMIT), pty.output());
            assertTrue(!pty.output().contains("Line 1500"), "the answer went on after Ctrl-C");
        }
    }

    @Test
    void aBrokenConnectionShowsWhatArrivedReportsItAndTheConversationGoesOn() throws Exception {
        Llama.Served s = Llama.serve(Models.lines(1500));
        s.proxy().cut(Sse.betweenEvents(5), 1);
        Result r = new AiiRun(root, s.baseUrl()).stdin("Lines\nLines again\n").run("-i");
        assertEquals(0, r.exit(), r.err());
        List<Proxy.Connection> answers = s.proxy().connections().stream().filter(Proxy.Connection::isChat).toList();
        String arrived = Sse.text(answers.getFirst().responseBytes());
        assertTrue(arrived.startsWith(Models.line(1)), arrived);
        assertTrue(r.out().contains("> " + arrived + "> "), r.out());
        assertTrue(r.out().endsWith(Models.line(1500) + "\n> "), "the second answer is whole");
        assertEquals("aii: The connection to the model server closed in the middle of the answer\n", r.err());
        // the failed answer left the history as it was
        assertEquals(1, s.proxy().chatRequests().get(1).messages().size());
    }
}
