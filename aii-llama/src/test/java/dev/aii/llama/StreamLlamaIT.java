package dev.aii.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.llama.AiiRun.Result;
import dev.aii.testkit.gguf.Models;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long and broken streams from a real llama-server: an answer that repeats
 * itself, Ctrl-C in the middle of an answer, and a network that breaks at
 * the worst moments (between events, inside an event, inside a chunk
 * header), where everything that arrived must still be shown.
 */
class StreamLlamaIT {

    private static final String REPEATED = "This line comes back again and again, the same every time.\n";

    @TempDir
    Path root;

    @Test
    void anAnswerThatRepeatsItselfIsStoppedAsContextExceeded() throws Exception {
        Llama.Served s = Llama.serve(Models.repeats(), "-n", "400");
        Result r = new AiiRun(root, s.baseUrl()).run("Repeat");
        assertEquals(4, r.exit(), r.err());
        assertEquals(REPEATED + REPEATED + "...\n", r.out());
        assertEquals("aii: Response appears to be repeating \u2014 likely exceeded the 32768-token context window\n"
                + "aii: try a shorter input, limit expected response length or use /new to reset in interactive mode\n",
                r.err());
    }

    @Test
    void aLongAnswerArrivesWhole() throws Exception {
        Llama.Served s = Llama.serve(Models.lines(1500));
        Result r = new AiiRun(root, s.baseUrl()).run("Lines");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(1501, lines.size());
        assertEquals(Models.line(1), lines.getFirst() + "\n");
        assertEquals(Models.line(1500), lines.get(1499) + "\n");
        assertEquals("", r.err());
    }

    @Test
    void ctrlCInTheMiddleOfAnAnswerEndsItWith130() throws Exception {
        Llama.Served s = Llama.serve(Models.lines(1500));
        s.proxy().pace(Duration.ofMillis(20));
        AiiRun.Running aii = new AiiRun(root, s.baseUrl()).start("Lines");
        aii.awaitStdout(Models.line(3));
        aii.interrupt();
        Result r = aii.awaitExit();
        assertEquals(130, r.exit(), r.err());
        assertTrue(r.out().startsWith(Models.line(1) + Models.line(2) + Models.line(3)), r.out());
        assertFalse(r.out().contains(Models.line(1500)), "the answer went on after Ctrl-C");
        assertEquals("", r.err());
    }

    @Test
    void aConnectionCutBetweenEventsKeepsEveryLineThatArrived() throws Exception {
        cut(Sse.betweenEvents(6));
    }

    @Test
    void aConnectionCutInsideAnEventKeepsEveryLineBeforeIt() throws Exception {
        cut(Sse.insideEvent(6));
    }

    @Test
    void aConnectionCutInsideAChunkHeaderKeepsEveryLineBeforeIt() throws Exception {
        cut(Sse.insideChunkHeader(6));
    }

    private void cut(Proxy.Cut where) throws Exception {
        Llama.Served s = Llama.serve(Models.lines(1500));
        s.proxy().cut(where);
        Result r = new AiiRun(root, s.baseUrl()).run("Lines");
        assertEquals(1, r.exit(), r.err());
        byte[] forwarded = s.proxy().connections().stream().filter(Proxy.Connection::isChat).findFirst().orElseThrow()
                .responseBytes();
        String arrived = Sse.text(forwarded);
        assertTrue(arrived.startsWith(Models.line(1) + Models.line(2)), arrived);
        assertEquals(arrived, r.out(), "every line that arrived is shown, and nothing else");
        assertEquals("aii: The connection to the model server closed in the middle of the answer\n", r.err());
    }
}
