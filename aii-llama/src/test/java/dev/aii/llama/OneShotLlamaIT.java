package dev.aii.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.llama.AiiRun.Result;
import dev.aii.testkit.gguf.Models;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One-shot answers, model info, JSON mode, piped input and the context
 * checks, against a real llama-server: exit codes, stdout, stderr, and what
 * aii sent as the proxy recorded it.
 */
class OneShotLlamaIT {

    @TempDir
    Path root;

    private static List<String> requestLines(Llama.Served s) {
        return s.proxy().requests().stream().map(Recorded::toString).toList();
    }

    @Test
    void modelInfoComesFromModelsAndProps() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        Result r = new AiiRun(root, s.baseUrl()).run("-m");
        assertEquals(0, r.exit(), r.err());
        assertEquals("Context window: 32768 tokens\nModel variant: tiny-switch via " + s.baseUrl()
                + "\nSupported languages: unknown\n", r.out());
        assertEquals("", r.err());
        assertEquals(List.of("GET /v1/models", "GET /props"), requestLines(s));
    }

    @Test
    void aPromptGetsThePlainAnswer() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        Result r = new AiiRun(root, s.baseUrl()).run("Say hello");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Models.PLAIN_ANSWER + "\n", r.out());
        assertEquals("", r.err());
        assertEquals(List.of("GET /v1/models", "GET /props", "POST /tokenize", "POST /v1/chat/completions"),
                requestLines(s));
        Recorded chat = s.proxy().chatRequests().getFirst();
        assertEquals("{\"model\":\"tiny-switch\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}",
                chat.body());
        assertEquals("{\"content\":\"Say hello\"}", s.proxy().requests().get(2).body());
    }

    @Test
    void jsonModeGivesTheSameAnswerAndAQuietStderr() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        Result r = new AiiRun(root, s.baseUrl()).run("--json", "Say hello");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Models.PLAIN_ANSWER + "\n", r.out());
        assertEquals("", r.err());
    }

    @Test
    void pipedStdinIsComposedWithThePrompt() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        Result r = new AiiRun(root, s.baseUrl()).stdin("line one\nline two\n").run("summarise");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Models.PLAIN_ANSWER + "\n", r.out());
        assertEquals("summarise\n\n--- CONTENT ---\nline one\nline two\n\n--- END CONTENT ---",
                s.proxy().chatRequests().getFirst().messages().getFirst().path("content").asText());
    }

    @Test
    void aPromptLongerThanTheContextIsRefusedBeforeTheModelIsAsked() throws Exception {
        Llama.Served s = Llama.serve(Models.switching(), "-c", "256", "-np", "1");
        Result r = new AiiRun(root, s.baseUrl()).stdin("word ".repeat(80)).run();
        assertEquals(4, r.exit(), r.err());
        assertEquals("", r.out());
        // The byte-level tokenizer of the test model: one token per byte, the last space dropped with the trailing blank
        assertTrue(r.err().matches("aii: Input is \\d+ tokens, exceeding the 256-token context window\n"
                + "aii: try a shorter input or trim --file/stdin content\n"), r.err());
        assertEquals(List.of(), s.proxy().chatRequests());
    }

    @Test
    void aPromptThatFitsAloneButNotWithTheTemplateIsTheServers400() throws Exception {
        Llama.Served s = Llama.serve(Models.switching(), "-c", "256", "-np", "1");
        Result r = new AiiRun(root, s.baseUrl()).run(String.join(" ", java.util.Collections.nCopies(40, "word")));
        assertEquals(4, r.exit(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().matches("aii: Exceeds 256-token context window\n"
                + "aii: try a shorter input or use /new to reset context in interactive mode\n"
                + "aii: server said: request \\(\\d+ tokens\\) exceeds the available context size \\(256 tokens\\), "
                + "try increasing it\n"), r.err());
    }

    @Test
    void underJsonTheServers400IsOneJsonLineWithTheBodyInTheDetail() throws Exception {
        Llama.Served s = Llama.serve(Models.switching(), "-c", "256", "-np", "1");
        Result r = new AiiRun(root, s.baseUrl()).run("-j", String.join(" ", java.util.Collections.nCopies(40, "word")));
        assertEquals(4, r.exit(), r.err());
        assertTrue(r.err().startsWith("{\"error\":\"context_exceeded\",\"message\":\"Exceeds 256-token context window\\n"
                + "try a shorter input or use /new to reset context in interactive mode\",\"detail\":\"HTTP 400: "
                + "{\\\"error\\\":{\\\"code\\\":400,\\\"message\\\":\\\"request ("), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void aServerStillLoadingItsModelIsWaitedFor() throws Exception {
        // 1.5 million merges that never apply: llama-server needs seconds to load them, answering 503 meanwhile
        Llama.Served s = Llama.loading(Models.slowToLoad(1_500_000));
        try {
            Result r = new AiiRun(root, s.baseUrl()).run("Say hello");
            assertEquals(0, r.exit(), r.err());
            assertEquals(Models.PLAIN_ANSWER + "\n", r.out());
            assertEquals("aii: the model server is busy (HTTP 503: Loading model); waiting for it, Ctrl-C to stop\n",
                    r.err());
            List<String> requests = requestLines(s);
            assertEquals("GET /v1/models", requests.getFirst());
            assertTrue(requests.stream().filter("GET /v1/models"::equals).count() >= 2, requests.toString());
        } finally {
            s.proxy().close();
            s.server().close();
        }
    }

    @Test
    void aBadTimeoutIsAWarningAndTheAnswerStillComes() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        Result r = new AiiRun(root, s.baseUrl()).env("AII_TIMEOUT", "soon").run("Say hello");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Models.PLAIN_ANSWER + "\n", r.out());
        assertEquals("aii: warning: AII_TIMEOUT=soon is not a positive whole number of seconds; using 120\n", r.err());
    }

    @Test
    void aServerThatHoldsItsAnswerBackTimesOutWithTheExactMessage() throws Exception {
        Llama.Served s = Llama.serve(Models.switching());
        s.proxy().hold();
        Result r = new AiiRun(root, s.baseUrl()).env("AII_TIMEOUT", "2").run("Say hello");
        assertEquals(4, r.exit(), r.err());
        assertEquals("", r.out());
        assertEquals("aii: The model server did not answer within 2 s\n", r.err());
    }
}
