package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.policy.Rule;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolTextsTest {

    private static final String INSTRUCTIONS_COMPUTER = "You can run programs on the user's computer with the "
            + "run_command tool. When the user asks you to do something or find something out on their machine, "
            + "call the tool instead of showing commands in a code block. There is no shell: give the program and "
            + "its arguments separately; pipes, redirects, wildcards and ~ do not work. Run one program per call. "
            + "Do not run destructive commands unless the user explicitly asked for them. If a command is denied, "
            + "do not retry it. The user's home directory is /home/u and the current directory is /home/u/work; "
            + "use full paths instead of ~.";

    @Test
    void theDescriptionNamesTheMachineOfThePlatform() {
        assertEquals("Run one program on the user's Mac and return its output. There is no shell: pipes, "
                + "redirects, wildcards and ~ do not work. Paths are relative to the current directory.",
                ToolTexts.toolDescription(Platform.MACOS));
        assertEquals("Run one program on the user's computer and return its output. There is no shell: pipes, "
                + "redirects, wildcards and ~ do not work. Paths are relative to the current directory.",
                ToolTexts.toolDescription(Platform.OTHER));
    }

    @Test
    void theSchemaHasTheTwoFieldsWithTheirDescriptions() {
        assertEquals("{\"type\":\"object\",\"properties\":{"
                + "\"executable\":{\"type\":\"string\",\"description\":\"Program name or absolute path, e.g. touch "
                + "or /usr/bin/git. Only the program, never its arguments.\"},"
                + "\"arguments\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"Arguments "
                + "only, one array element each, NOT including the program name. e.g. executable \\\"ls\\\" with "
                + "[\\\"-la\\\", \\\"/tmp\\\"], or executable \\\"touch\\\" with [\\\"notes.txt\\\"]. Include every "
                + "file name, path or URL the command needs. No quoting, wildcards or ~. Never empty strings.\"}},"
                + "\"required\":[\"executable\",\"arguments\"]}", ToolTexts.parametersSchema());
    }

    @Test
    void theInstructionsAreTheSeedTextThenHomeAndCurrentDirectory() {
        assertEquals(INSTRUCTIONS_COMPUTER, ToolTexts.execInstructions(Platform.OTHER, "/home/u", "/home/u/work"));
        assertEquals(INSTRUCTIONS_COMPUTER.replace("user's computer", "user's Mac"),
                ToolTexts.execInstructions(Platform.MACOS, "/home/u", "/home/u/work"));
    }

    @Test
    void aSystemPromptComesFirstThenABlankLineThenTheExecText() {
        assertEquals(Optional.of("Be brief.\n\nEXEC"),
                ToolTexts.sessionInstructions(Optional.of("Be brief."), Optional.of("EXEC")));
        assertEquals(Optional.of("EXEC"), ToolTexts.sessionInstructions(Optional.empty(), Optional.of("EXEC")));
        assertEquals(Optional.of("EXEC"), ToolTexts.sessionInstructions(Optional.of(""), Optional.of("EXEC")));
        assertEquals(Optional.of("Be brief."), ToolTexts.sessionInstructions(Optional.of("Be brief."), Optional.empty()));
        assertEquals(Optional.empty(), ToolTexts.sessionInstructions(Optional.empty(), Optional.empty()));
    }

    @Test
    void resultStringsAreExact() {
        CapturedOutput small = new CapturedOutput("hi\n".getBytes(), 3);
        CapturedOutput big = new CapturedOutput("x".repeat(2048).getBytes(), 3000);
        assertEquals("exit 0\nhi\n", ToolTexts.exited(0, small, 2048));
        assertEquals("exit 2\n" + "x".repeat(2048) + "\n[output truncated: 3000 bytes, showing first 2048]",
                ToolTexts.exited(2, big, 2048));
        assertEquals("Terminated: the command exceeded the 30-second time limit.\nhi\n", ToolTexts.timedOut(30, small, 2048));
        assertEquals("Terminated: interrupted by the user.\nhi\n", ToolTexts.interrupted(small, 2048));
        assertEquals("Error: could not launch frob: Permission denied", ToolTexts.couldNotLaunch("frob", "Permission denied"));
        assertEquals("Denied: the user declined to run this command. Do not retry it.", ToolTexts.DENIED_BY_USER);
        assertEquals("Denied: this command is not on the allowlist and there is no terminal to ask the user for "
                + "approval. Do not retry it.", ToolTexts.DENIED_NO_TERMINAL);
        assertEquals("Denied: too many commands in one answer. Do not retry it.", ToolTexts.DENIED_TOO_MANY);
        assertEquals("Error: invalid executable", ToolTexts.INVALID_EXECUTABLE_TEXT);
        assertEquals("Error: arguments must be an array of strings", ToolTexts.ARGUMENTS_NOT_STRINGS);
    }

    @Test
    void truncatedOutputDecodesLenientlyEvenWhenTheCapSplitsACharacter() {
        byte[] euro = "€".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        CapturedOutput split = new CapturedOutput(new byte[] {euro[0], euro[1]}, 3);
        assertEquals("exit 0\n\uFFFD\n[output truncated: 3 bytes, showing first 2]", ToolTexts.exited(0, split, 2));
        assertEquals("git status", Rule.of("git", "status").toLine());
    }
}
