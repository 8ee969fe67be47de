package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.RecordedRequest;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code -x} without a terminal: allowlisted commands, denials, the per-answer limit, the wire styles, JSON mode. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ExecE2E extends ServerFixture {

    static final String NO_TERMINAL = "Denied: this command is not on the allowlist and there is no terminal to ask "
            + "the user for approval. Do not retry it.";
    static final String TOO_MANY = "Denied: too many commands in one answer. Do not retry it.";


    static String call(String executable, String... arguments) {
        StringBuilder json = new StringBuilder("{\"executable\":\"" + executable + "\",\"arguments\":[");
        for (int i = 0; i < arguments.length; i++) {
            json.append(i == 0 ? "" : ",").append('"').append(arguments[i]).append('"');
        }
        return json.append("]}").toString();
    }

    private String cwd() throws Exception {
        return aii.directory().toRealPath().toString();
    }

    @Test
    void anAllowlistedCommandRunsWithoutAskingAndTheModelGetsItsExitStatusAndOutput() throws Exception {
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", call("df", "-h")), Reply.text("Plenty of room."));
        DfOutput before = DfOutput.now(aii);
        Result r = aii.run("-x", "How much disk space is free?");
        DfOutput after = DfOutput.now(aii);
        assertEquals(new Result(0, "Plenty of room.\n", "aii: $ df -h\n"), r);
        List<String> results = server.lastChatRequest().toolResults();
        assertEquals(1, results.size(), results::toString);
        DfOutput.assertSameTable(before, after, results.getFirst());
        assertTrue(results.getFirst().startsWith("exit 0\nFilesystem "), results.getFirst());
    }

    /**
     * Without native access (the jars started by hand, without the launcher's
     * --enable-native-access) commands run on the portable runner, and the
     * warning that says what that loses comes once, at startup: with an
     * answer that runs nothing, and before the first command of one that does.
     */
    @Test
    void withoutNativeAccessTheWarningComesOnceBeforeTheFirstCommandAndCommandsStillRun() throws Exception {
        Path launcher = aii.directory().resolveSibling("plain-java");
        Path lib = AiiProcess.LAUNCHER.getParent().getParent().resolve("aii-cli/target/lib");
        Files.writeString(launcher, "#!/bin/sh\nexec \"$JAVA_HOME/bin/java\" --module-path '" + lib
                + "' -m dev.aii.cli/dev.aii.cli.Main \"$@\"\n");
        assertTrue(launcher.toFile().setExecutable(true));
        String warning = "aii: warning: native access unavailable (the JVM was started without "
                + "--enable-native-access=dev.aii.ffm); commands can read this terminal and their background "
                + "processes may outlive them\n";
        aii.launcher(launcher);
        // at startup: an answer without a tool call has it too
        server.enqueue(Reply.text("Nowhere in particular."));
        assertEquals(new Result(0, "Nowhere in particular.\n", warning), aii.run("-x", "Where am I?"));

        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", call("pwd")), Reply.toolCall(Wire.OPENAI,
                "run_command", call("pwd")), Reply.text("Twice the same place."));
        Result r = aii.run("-x", "Where am I?");
        assertEquals(new Result(0, "Twice the same place.\n", warning + "aii: $ pwd\naii: $ pwd\n"), r);
        assertEquals(List.of("exit 0\n" + cwd() + "\n", "exit 0\n" + cwd() + "\n"),
                server.lastChatRequest().toolResults());
    }

    @Test
    void aCommandOffTheAllowlistWithoutATerminalIsDeniedAndNothingRuns() throws Exception {
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", call("touch", "x.txt")),
                Reply.text("I could not create it."));
        Result r = aii.run("-x", "Create x.txt");
        assertEquals(new Result(0, "I could not create it.\n", ""), r);
        assertEquals(List.of(NO_TERMINAL), server.lastChatRequest().toolResults());
        assertFalse(Files.exists(aii.directory().resolve("x.txt")));
        assertFalse(Files.exists(aii.allowFile()));
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void toolCallsInEveryWireStyleRunAndAnswerInOrder(Wire wire) throws Exception {
        Files.writeString(aii.directory().resolve("notes.txt"), "buy milk\n");
        server.enqueue(Reply.toolCalls(wire, Reply.call("run_command", call("pwd")),
                        Reply.call("run_command", call("cat", "notes.txt"))),
                Reply.text(wire, "You are in your work directory."));
        Result r = aii.run("-x", "Where am I and what are my notes?");
        assertEquals(new Result(0, "You are in your work directory.\n", "aii: $ pwd\naii: $ cat notes.txt\n"), r);

        List<RecordedRequest> chats = server.chatRequests();
        assertEquals(2, chats.size());
        RecordedRequest first = chats.getFirst();
        assertEquals(List.of("run_command"), first.toolNames());
        String instructions = first.systemMessage().orElseThrow();
        assertTrue(instructions.startsWith("You can run programs on the user's computer with the run_command tool."),
                instructions);
        assertTrue(instructions.endsWith("The user's home directory is " + aii.home() + " and the current directory is "
                + cwd() + "; use full paths instead of ~."), instructions);

        RecordedRequest second = chats.getLast();
        assertEquals(List.of("exit 0\n" + cwd() + "\n", "exit 0\nbuy milk\n"), second.toolResults());
        assertEquals(List.of("fake_call_1", "fake_call_2"), second.toolCallIds());
        JsonNode asked = second.messages().get(2);
        assertEquals("assistant", asked.path("role").asText());
        assertEquals(List.of(call("pwd"), call("cat", "notes.txt")),
                asked.path("tool_calls").valueStream().map(c -> c.path("function").path("arguments").asText()).toList());
    }

    @Test
    void theSeventeenthCommandOfOneAnswerIsDenied() throws Exception {
        for (int i = 0; i < 17; i++) {
            server.enqueue(Reply.toolCall(Wire.OLLAMA, "run_command", call("pwd")));
        }
        server.enqueue(Reply.text("Done."));
        Result r = aii.run("-x", "Where am I? Check many times.");
        assertEquals(new Result(0, "Done.\n", "aii: $ pwd\n".repeat(16)), r);
        List<String> expected = new ArrayList<>(Collections.nCopies(16, "exit 0\n" + cwd() + "\n"));
        expected.add(TOO_MANY);
        assertEquals(expected, server.lastChatRequest().toolResults());
        assertEquals(18, server.chatRequests().size());
    }

    @Test
    void underJsonStderrHoldsOnlyJsonLines() throws Exception {
        aii.allow("pwd\n'broken\n");
        server.enqueue(Reply.toolCalls(Wire.APFEL, Reply.call("run_command", call("pwd")),
                Reply.call("run_command", call("touch", "x.txt"))), Reply.rateLimited());
        Result r = aii.run("--json", "-x", "Where am I? Then make x.txt");
        assertEquals(4, r.exit());
        assertEquals("", r.out());
        List<JsonNode> lines = new ArrayList<>();
        for (String line : r.err().split("\n")) {
            lines.add(JsonMapper.builder().build().readTree(line));
        }
        assertTrue(r.err().endsWith("\n"), r.err());
        assertEquals(1, lines.size(), r.err());
        assertEquals("rate_limited", lines.getFirst().path("error").asText());
        assertEquals("Model busy, try again", lines.getFirst().path("message").asText());
        assertEquals(4, lines.getFirst().path("exitCode").asInt());
        assertEquals(List.of("exit 0\n" + cwd() + "\n", NO_TERMINAL), server.lastChatRequest().toolResults());
        assertFalse(Files.exists(aii.directory().resolve("x.txt")));
    }

    @Test
    void ctrlCStopsTheRunningCommandAndItsWholeGroupAndExits130() throws Exception {
        aii.allow("sh -c\n");
        String script = "sleep 300 & exec sleep 301";
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", call("sh", "-c", script)), Reply.text("Slept."));
        Running running = aii.start("-x", "Wait five minutes");
        running.awaitStderr("aii: $ sh -c 'sleep 300 & exec sleep 301'\n");
        List<ProcessHandle> sleeps = running.awaitChildren("sleep", 2);
        long group = ProcessGroups.of(sleeps.getFirst().pid());
        assertEquals(List.of(group, group), sleeps.stream().map(h -> ProcessGroups.of(h.pid())).toList());
        assertFalse(ProcessGroups.of(running.java().pid()) == group, "the command has a group of its own");

        running.interrupt();
        Result r = running.awaitExit(java.time.Duration.ofSeconds(20));
        assertEquals(new Result(130, "", "aii: $ sh -c 'sleep 300 & exec sleep 301'\n"), r);
        assertEquals(List.of(), ProcessGroups.awaitEmpty(group, java.time.Duration.ofSeconds(10)));
        assertEquals(1, server.chatRequests().size());
    }
}
