package dev.aii.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.aii.llama.AiiRun.Result;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.gguf.Models;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code -x} tool loop against a real llama-server with {@code --jinja}
 * tool calling: calls streamed in fragments, approval on a real terminal,
 * the per-answer caps, a call cut off by the output limit, a context that
 * fills up, a server without tool support and a failure in mid-stream.
 */
class ToolLoopLlamaIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path root;

    private static String unameS() throws Exception {
        Process p = new ProcessBuilder("uname", "-s").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    /** Every tool call in every request aii sent carries a JSON object as its arguments. */
    private static void assertHistoryIsValidJson(Llama.Served s) throws Exception {
        for (Recorded chat : s.proxy().chatRequests()) {
            for (String arguments : chat.historyArguments()) {
                JsonNode parsed = JSON.readTree(arguments);
                assertTrue(parsed.isObject(), arguments);
            }
        }
    }

    @Test
    void aStreamedToolCallRunsAndItsResultGoesBack() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        Result r = new AiiRun(root, s.baseUrl()).run("-x", "What OS is this?");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Models.CLOSING_ANSWER + "\n", r.out());
        assertEquals("aii: $ uname -s\n", r.err());
        List<Recorded> chats = s.proxy().chatRequests();
        assertEquals(2, chats.size());
        assertEquals(List.of("exit 0\n" + unameS()), chats.get(1).toolResults());
        assertEquals(List.of("{\"executable\": \"uname\", \"arguments\": [\"-s\"]}"), chats.get(1).historyArguments());
        assertEquals(List.of("run_command"), List.of(chats.getFirst().json().path("tools").path(0).path("function")
                .path("name").asText()));
    }

    @Test
    void aCommandOutsideTheAllowlistIsApprovedOnARealTerminal() throws Exception {
        Llama.Served s = Llama.serve(Models.echo());
        AiiRun aii = new AiiRun(root, s.baseUrl());
        String prompt = "aii: run this command?\r\n  echo hello from llama-server\r\n"
                + "  [y] yes once   [a] always allow exactly \"echo hello from llama-server\"   [N] no\r\n> ";
        try (PtyDriver pty = aii.onTerminal("-x", "Say hello using echo")) {
            pty.awaitOutput(prompt, AiiRun.LIMIT);
            pty.type("y\n");
            assertEquals(0, pty.awaitExit(AiiRun.LIMIT), pty.output());
            assertTrue(pty.output().endsWith(prompt + "y\r\naii: $ echo hello from llama-server\r\n"
                    + Models.CLOSING_ANSWER + "\r\n"), pty.output());
        }
        assertEquals(List.of("exit 0\nhello from llama-server\n"), s.proxy().chatRequests().get(1).toolResults());
    }

    @Test
    void aToolCallCutOffByTheOutputLimitIsNeverRun() throws Exception {
        // -n 2: <tool_call> and the arguments' first fragment "{", then finish_reason "length"
        Llama.Served s = Llama.serve(Models.switching(), "-n", "2");
        Result r = new AiiRun(root, s.baseUrl()).run("-x", "What OS?");
        assertEquals(0, r.exit(), r.err());
        assertEquals("\n", r.out());
        assertEquals("aii: the answer was cut off by the server's output limit\n", r.err());
        assertEquals(1, s.proxy().chatRequests().size(), "nothing is run, nothing is sent back");
        assertEquals(List.of("length"), Sse.finishReasons(s.proxy().connections().stream()
                .filter(Proxy.Connection::isChat).findFirst().orElseThrow().responseBytes()));

        Result json = new AiiRun(root.resolve("json"), s.baseUrl()).run("-x", "--json", "What OS?");
        assertEquals(0, json.exit(), json.err());
        assertEquals("", json.err());
    }

    @Test
    void aPlainAnswerCutOffByTheOutputLimitKeepsItsText() throws Exception {
        Llama.Served s = Llama.serve(Models.switching(), "-n", "2");
        Result r = new AiiRun(root, s.baseUrl()).run("Say hello");
        assertEquals(0, r.exit(), r.err());
        assertEquals("Plain answer from the tiny model \u2014\n", r.out());
        assertEquals("aii: the answer was cut off by the server's output limit\n", r.err());
    }

    @Test
    void sixteenCommandsRunInOneAnswerAndTheSixtyFourthRequestEndsIt() throws Exception {
        Llama.Served s = Llama.serve(Models.alwaysCalls(), "-c", "32768", "-np", "1");
        Result r = new AiiRun(root, s.baseUrl()).run("-x", "What OS?");
        assertEquals(1, r.exit(), r.err());
        assertEquals("", r.out());
        assertEquals("aii: $ uname -s\n".repeat(16) + "aii: The model kept calling tools without giving an answer\n",
                r.err());
        List<Recorded> chats = s.proxy().chatRequests();
        assertEquals(64, chats.size());
        List<String> results = chats.getLast().toolResults();
        assertEquals(63, results.size());
        assertEquals(Collections.nCopies(16, "exit 0\n" + unameS()), results.subList(0, 16));
        assertEquals(Collections.nCopies(47, "Denied: too many commands in one answer. Do not retry it."),
                results.subList(16, 63));
        assertHistoryIsValidJson(s);
    }

    /**
     * A tool loop that fills the context while the model is writing a call:
     * the server stops with {@code finish_reason "length"} and tokens that
     * reach the context size. Earlier aii ran the cut call and sent its
     * arguments {@code "{"} back, which the server answered with HTTP 500.
     */
    @Test
    void aToolLoopThatFillsTheContextMidCallIsContextExceeded() throws Exception {
        Llama.Served s = Llama.serve(Models.alwaysCalls(), "-c", "2048", "-np", "1");
        // A first run learns how many tokens each round takes (the instructions name the temporary home, so
        // it varies); the prompt is then padded so that the last round whose prompt fits runs into the end of
        // the context while the model writes its call.
        // (Both runs have homes and working directories of the same length: the instructions name them.)
        Result probe = new AiiRun(root.resolve("a"), s.baseUrl()).run("-x", "What OS?");
        assertEquals(4, probe.exit(), probe.err());
        List<int[]> rounds = rounds(s);
        assertTrue(rounds.size() >= 2, "rounds: " + rounds.size());
        int first = rounds.get(0)[0];
        int step = rounds.get(1)[0] - first;
        int generated = rounds.get(0)[1];
        int k = 1;
        while (first + k * step - generated <= 2046) {
            k++;
        }
        int last = first + (k - 1) * step;     // the total of round k, the last whose prompt fits unpadded
        int padding = Math.max(0, 2047 - last + generated / 2);

        s.proxy().reset();
        Result r = new AiiRun(root.resolve("b"), s.baseUrl()).run("-x", "What OS? " + "x".repeat(padding));
        String why = "probe rounds " + rounds.stream().map(java.util.Arrays::toString).toList() + ", k " + k
                + ", padding " + padding + ", padded rounds " + rounds(s).stream().map(java.util.Arrays::toString).toList();
        assertEquals(4, r.exit(), r.err());
        assertEquals("aii: $ uname -s\n".repeat(k - 1) + "aii: Exceeds 2048-token context window\n"
                + "aii: try a shorter input or use /new to reset context in interactive mode\n", r.err(), why);
        assertEquals(k, s.proxy().chatRequests().size());
        List<Proxy.Connection> answers = s.proxy().connections().stream().filter(Proxy.Connection::isChat).toList();
        assertEquals(List.of("length"), Sse.finishReasons(answers.getLast().responseBytes()));
        assertHistoryIsValidJson(s);
    }

    /** Each round's total tokens (cached, prompt, predicted) and predicted tokens, from the answers' timings. */
    private static List<int[]> rounds(Llama.Served s) throws Exception {
        List<int[]> rounds = new java.util.ArrayList<>();
        for (Proxy.Connection c : s.proxy().connections()) {
            if (!c.isChat()) {
                continue;
            }
            String body = new String(c.responseBytes(), StandardCharsets.UTF_8);
            int t = body.indexOf("\"timings\":");
            if (t < 0) {
                continue;
            }
            JsonNode timings = JSON.readTree(body.substring(t + 10, body.indexOf('}', t) + 1));
            int total = timings.path("cache_n").asInt() + timings.path("prompt_n").asInt() + timings.path("predicted_n").asInt();
            rounds.add(new int[] {total, timings.path("predicted_n").asInt()});
        }
        return rounds;
    }

    @Test
    void aServerWithoutJinjaSaysWhyItRefusesTools() throws Exception {
        Llama.Served s = Llama.serve(Models.switching(), "--no-jinja");
        Result r = new AiiRun(root, s.baseUrl()).run("-x", "What OS?");
        assertEquals(4, r.exit(), r.err());
        assertEquals("", r.out());
        assertEquals("aii: The model server failed: internal server error (HTTP 500)\n"
                + "aii: server said: tools param requires --jinja flag\n", r.err());
    }

    @Test
    void aFailureInMidStreamKeepsTheTextAndSaysWhatTheServerSaid() throws Exception {
        Llama.Served s = Llama.serve(Models.failsMidStream());
        Result r = new AiiRun(root, s.baseUrl()).run("-x", "Go");
        assertEquals(1, r.exit(), r.err());
        assertEquals(Models.FAILING_TEXT, r.out());
        assertTrue(r.err().startsWith("aii: The model server reported an error in the middle of the answer\n"
                + "aii: server said: got exception: "), r.err());
        assertEquals(2, r.err().lines().count(), r.err());
    }
}
