package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.aii.exec.ToolTexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The conversation the framework examples of docs/embedding.md are tested
 * with: the model runs {@code pwd} (on the built-in allowlist), then asks
 * for {@code touch notes.txt} (not on it, so the application's approver is
 * asked, and says no), then answers in words.
 */
public final class GuideScenario {

    /** What the scripted model finally says. */
    public static final String ANSWER = "You are in the directory pwd printed; I was not allowed to create notes.txt.";

    /** The line the examples' approver prints when it is asked. */
    public static final String ASKED = "asked about: touch notes.txt";

    private GuideScenario() {
    }

    /** Scripts the three answers of the model on {@code server}. */
    public static void enqueue(FakeOpenAiServer server) {
        server.enqueue(
                Reply.toolCall(Wire.OPENAI, ToolTexts.TOOL_NAME, "{\"executable\":\"pwd\",\"arguments\":[]}"),
                Reply.toolCall(Wire.OPENAI, ToolTexts.TOOL_NAME, "{\"executable\":\"touch\",\"arguments\":[\"notes.txt\"]}"),
                Reply.text(ANSWER));
    }

    /**
     * Checks what the example did, run in {@code cwd}: the tool was offered
     * with aii's schema, {@code pwd} ran and its result reached the model,
     * the approver was asked about {@code touch} and its "no" reached the model
     * as the exact denial, nothing was created, and the answer was printed.
     */
    public static void assertRan(FakeOpenAiServer server, JavaProgram.Result result, Path cwd)
            throws IOException, InterruptedException {
        String both = "stdout:\n" + result.out() + "\nstderr:\n" + result.err();
        assertEquals(0, result.exit(), both);
        List<RecordedRequest> chats = server.awaitChatRequests(3, Duration.ofSeconds(5));
        assertEquals(3, chats.size(), both);
        assertToolOffered(chats.get(0));
        String where = cwd.toRealPath().toString();
        assertEquals(List.of("exit 0\n" + where + "\n"), chats.get(1).toolResults(), both);
        assertEquals(List.of("exit 0\n" + where + "\n", "Denied: the user declined to run this command. Do not retry it."),
                chats.get(2).toolResults(), both);
        assertTrue(result.out().contains(ASKED + "\n"), both);
        assertTrue(result.out().contains(ANSWER), both);
        assertTrue(result.out().indexOf(ASKED) < result.out().indexOf(ANSWER), both);
        assertTrue(result.err().contains("aii: $ pwd\n"), both);
        assertFalse(result.err().contains("aii: $ touch"), both);
        assertFalse(Files.exists(cwd.resolve("notes.txt")), "the declined touch must not have run");
    }

    /** The request offers {@code run_command} with aii's description and argument schema. */
    private static void assertToolOffered(RecordedRequest chat) throws IOException {
        assertEquals(List.of(ToolTexts.TOOL_NAME), chat.toolNames(), chat.body());
        JsonNode function = chat.json().path("tools").path(0).path("function");
        assertTrue(function.path("description").asText().startsWith("Run one program on the user's "), chat.body());
        JsonNode expected = JsonMapper.builder().build().readTree(ToolTexts.parametersSchema());
        JsonNode sent = function.path("parameters");
        assertEquals(expected.path("type"), sent.path("type"), chat.body());
        assertEquals(expected.path("properties"), sent.path("properties"), chat.body());
        assertEquals(expected.path("required"), sent.path("required"), chat.body());
    }
}
