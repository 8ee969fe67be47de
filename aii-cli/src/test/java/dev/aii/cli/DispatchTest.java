package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ModelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DispatchTest {

    private static final String HINT = "aii: run 'aii --help' for usage\n";

    @TempDir
    Path home;

    private CliHarness cli() {
        return new CliHarness(home).workingDirectory(home);
    }

    @Test
    void versionPrintsTheVersionLine() {
        CliHarness cli = cli();
        assertEquals(0, cli.run("--version"));
        assertEquals("aii 0.9.0\n", cli.out());
        assertEquals("", cli.err());
    }

    @Test
    void helpListsEveryFlagWithItsExactText() {
        CliHarness cli = cli().env("COLUMNS", "200");
        assertEquals(0, cli.run("--help"));
        String help = cli.out();
        List<String> lines = help.lines().toList();
        assertFlag(lines, "[PROMPT...]", "Prompt (one-shot), or system prompt when used with --interactive");
        assertFlag(lines, "--model=NAME", "Model to use on the model server (overrides AII_MODEL)");
        assertFlag(lines, "-i, --interactive", "Start interactive conversational mode");
        assertFlag(lines, "-f, --file=FILE", "File to attach as context (one-shot only)");
        assertFlag(lines, "-j, --json", "Output errors as JSONL to stderr");
        assertFlag(lines, "-m, --model-info", "Show context size, model variant and supported languages, then exit");
        assertFlag(lines, "-x, --exec", "Let the model run programs");
        assertFlag(lines, "--list-allowed", "Print the effective exec allowlist and exit");
        assertFlag(lines, "--reset-allowed", "Delete the exec allowlist config file and exit");
        assertFlag(lines, "--version", "Print the version and exit");
        assertFlag(lines, "-h, --help", "Show this help and exit");
        assertTrue(help.startsWith("Usage: aii "), help);
        assertTrue(help.contains("Exit codes:\n"), help);
        assertTrue(help.contains("  130  interrupted by Ctrl-C"), help);
        assertTrue(help.contains("Environment:\n"), help);
        for (String variable : List.of("AII_BASE_URL", "AII_MODEL", "AII_API_KEY", "AII_CONTEXT_SIZE", "AII_TIMEOUT",
                "AII_HISTORY", "AII_SHIM_LIBRARY", "AII_DEBUG", "AII_AUDIT_LOG", "AII_JAVA_OPTS", "JAVA_HOME", "PATH",
                "COLUMNS", "TERM", "HOME")) {
            assertTrue(help.contains("\n  " + variable + " "), variable);
        }
        assertEquals("", cli.err());
    }

    private static void assertFlag(List<String> lines, String flag, String description) {
        assertTrue(lines.stream().anyMatch(l -> l.trim().startsWith(flag) && l.endsWith(" " + description)),
                () -> "no line for " + flag + " with '" + description + "' in\n" + String.join("\n", lines));
    }

    @Test
    void shortHelpFlagPrintsTheSameHelp() {
        CliHarness a = cli();
        CliHarness b = cli();
        assertEquals(0, a.run("-h"));
        assertEquals(0, b.run("--help"));
        assertEquals(b.out(), a.out());
    }

    @Test
    void noPromptWithStdinATerminalPrintsHelpWithoutAModel() {
        CliHarness cli = cli().stdinTerminal();
        assertEquals(0, cli.run());
        assertTrue(cli.out().startsWith("Usage: aii "));
    }

    @Test
    void flagsWithoutAPromptFileInteractiveOrModelInfoOnATerminalPrintHelp() {
        CliHarness help = cli();
        assertEquals(0, help.run("--help"));
        for (String[] args : List.of(new String[] {"-x"}, new String[] {"-j"}, new String[] {"-xj"})) {
            CliHarness cli = cli().stdinTerminal();
            assertEquals(0, cli.run(args), String.join(" ", args));
            assertEquals(help.out(), cli.out());
            assertEquals("", cli.err());
        }
    }

    @Test
    void helpAndVersionNeedNoModel() {
        CliHarness cli = cli().models(env -> {
            throw new AssertionError("a model was opened");
        });
        assertEquals(0, cli.run("--help"));
        assertEquals(0, cli.run("--version"));
    }

    @Test
    void unknownOptionIsAUsageErrorWithAHint() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--frobnicate"));
        assertEquals("aii: Unknown option: '--frobnicate'\naii: run 'aii --help' for usage\n", cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void usageErrorUnderJsonIsOneJsonLine() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("-j", "--frobnicate"));
        assertEquals("{\"error\":\"usage_error\",\"message\":\"Unknown option: '--frobnicate'\\n"
                + "run 'aii --help' for usage\",\"exitCode\":2}\n", cli.err());
    }

    @Test
    void missingFileValueIsAUsageError() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("-f"));
        assertEquals("aii: Missing required parameter for option '--file' (FILE)\n" + HINT, cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void anOptionAsTheFileValueIsAUsageError() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("-f", "-x"));
        assertEquals("aii: Expected parameter for option '--file' but found '-x'\n" + HINT, cli.err());
    }

    @Test
    void severalWordsAreOnePromptJoinedBySingleSpaces() {
        ScriptedModel model = new ScriptedModel().answerText("Paris.");
        CliHarness cli = cli().model(model).stdinDevNull();
        assertEquals(0, cli.run("what", "is", "the  capital", "of France?"));
        assertEquals(List.of("what is the  capital of France?"), model.prompts);
        assertEquals("Paris.\n", cli.out());
    }

    @Test
    void wordsAroundOptionsAreOnePromptAndEmptyWordsKeepTheirPlace() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli().model(model).stdinDevNull();
        assertEquals(0, cli.run("what", "-j", "is", "", "2+2"));
        assertEquals(List.of("what is  2+2"), model.prompts);
    }

    @Test
    void afterDoubleDashEveryWordIsPartOfThePromptFlagsIncluded() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli().model(model).stdinDevNull();
        assertEquals(0, cli.run("explain", "--", "-x", "--check", "ls", "-m", "--"));
        assertEquals(List.of("explain -x --check ls -m --"), model.prompts);
    }

    @Test
    void withInteractiveTheWordsAreTheSystemPrompt() {
        ScriptedModel model = new ScriptedModel().answerText("Hi.");
        CliHarness cli = cli().model(model).stdin("hello\n");
        assertEquals(0, cli.run("-i", "You", "are", "terse."));
        assertEquals(Optional.of("You are terse."), model.instructions.getFirst());
    }

    @Test
    void aFlagGivenTwiceIsAUsageError() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("-i", "-i"));
        assertEquals("aii: option '--interactive' should be specified only once\n" + HINT, cli.err());
    }

    @Test
    void aFlagTakesNoValue() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--json=true", "--bogus"));
        assertEquals("aii: option '--json' should be specified without 'true' parameter\n" + HINT, cli.err());
    }

    @Test
    void helpWithAnUnknownOptionIsAUsageError() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--help", "--bogus"));
        assertEquals("aii: Unknown option: '--bogus'\n" + HINT, cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void versionWithAnUnknownOptionIsAUsageErrorUnderJson() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--version", "-j", "--bogus"));
        assertEquals("{\"error\":\"usage_error\",\"message\":\"Unknown option: '--bogus'\\n"
                + "run 'aii --help' for usage\",\"exitCode\":2}\n", cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void versionWithAPromptPrintsTheVersion() {
        CliHarness cli = cli();
        assertEquals(0, cli.run("--version", "hello"));
        assertEquals("aii 0.9.0\n", cli.out());
    }

    @Test
    void atSignArgumentsAreNotExpandedFromFiles() throws Exception {
        Files.writeString(home.resolve("args"), "--version\n");
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli().model(model).stdinDevNull();
        assertEquals(0, cli.run("@" + home.resolve("args")));
        assertEquals(List.of("@" + home.resolve("args")), model.prompts);
    }

    @Test
    void doubleDashEndsOptions() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli().model(model).stdinDevNull();
        assertEquals(0, cli.run("--", "-x is a flag"));
        assertEquals(List.of("-x is a flag"), model.prompts);
    }

    @Test
    void shortFlagsCombine() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli().model(model).stdin("/quit\n");
        assertEquals(0, cli.run("-ij"));
        assertEquals(Interactive.HEADER + "> ", cli.out());
    }

    @Test
    void fileOptionTakesTheEqualsForm() throws Exception {
        Files.writeString(home.resolve("notes.txt"), "hello");
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli().model(model).stdinDevNull();
        assertEquals(0, cli.run("--file=notes.txt"));
        assertEquals(List.of("hello"), model.prompts);
    }

    @ParameterizedTest
    @ValueSource(strings = {"prompt", "-i", "-x", "-f", "other"})
    void listAllowedConflictsWithPromptModesAndTheOtherFlag(String with) {
        String[] args = switch (with) {
            case "prompt" -> new String[] {"--list-allowed", "hello"};
            case "-f" -> new String[] {"--list-allowed", "-f", "x.txt"};
            case "other" -> new String[] {"--list-allowed", "--reset-allowed"};
            default -> new String[] {"--list-allowed", with};
        };
        CliHarness cli = cli();
        assertEquals(2, cli.run(args));
        assertEquals("aii: --list-allowed and --reset-allowed cannot be combined with a prompt, -i, -x, -f, "
                + "or each other\n", cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void resetAllowedConflictUnderJson() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--reset-allowed", "-x", "--json"));
        assertEquals("{\"error\":\"conflicting_input\",\"message\":\"--list-allowed and --reset-allowed cannot be "
                + "combined with a prompt, -i, -x, -f, or each other\",\"exitCode\":2}\n", cli.err());
        assertTrue(Files.notExists(home.resolve(".config")));
    }

    @Test
    void listAllowedWithoutAFileShowsTheDefaultsWithoutAModel() {
        CliHarness cli = cli();
        assertEquals(0, cli.run("--list-allowed"));
        assertEquals("# source: built-in defaults (no config file)\nls\npwd\ncat\nhead\ntail\nwc\ndate\nwhoami\n"
                + "uname\ndf\ndu\nstat\nfile\nwhich\nps\nuptime\nsw_vers\n", cli.out());
        assertEquals("", cli.err());
        assertTrue(Files.notExists(home.resolve(".config")));
    }

    @Test
    void listAllowedWithAFileShowsItsPathAndRules() throws Exception {
        Path file = home.resolve(".config/aii/allow");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "# mine\ngit status\n'it''s' x\n");
        CliHarness cli = cli();
        assertEquals(0, cli.run("--list-allowed"));
        assertEquals("# source: " + file + "\ngit status\nits x\n", cli.out());
    }

    @Test
    void listAllowedWarnsAboutMalformedLinesOnStderr() throws Exception {
        Path file = home.resolve(".config/aii/allow");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "ls\n'open\n");
        CliHarness cli = cli();
        assertEquals(0, cli.run("--list-allowed"));
        assertEquals("aii: warning: " + file + ": skipping malformed line 2\n", cli.err());
        assertEquals("# source: " + file + "\nls\n", cli.out());
    }

    @Test
    void resetAllowedRemovesTheFileThenSaysThereIsNone() throws Exception {
        Path file = home.resolve(".config/aii/allow");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "ls\n");
        CliHarness first = cli();
        assertEquals(0, first.run("--reset-allowed"));
        assertEquals("aii: removed config; using built-in defaults\n", first.out());
        assertTrue(Files.notExists(file));
        CliHarness second = cli();
        assertEquals(0, second.run("--reset-allowed"));
        assertEquals("aii: no config file; using built-in defaults\n", second.out());
    }

    @Test
    void resetAllowedThatCannotDeleteIsAnInternalError() throws Exception {
        Path file = home.resolve(".config/aii/allow");
        Files.createDirectories(file.resolve("child"));
        CliHarness cli = cli();
        assertEquals(1, cli.run("--reset-allowed"));
        assertEquals("aii: Cannot remove config file: Directory not empty\n", cli.err());
    }

    @Test
    void modelInfoConflictsWithAPrompt() {
        for (List<String> args : List.of(List.of("hello", "-m"), List.of("-m", "--", "hello"),
                List.of("--model-info", "hello"))) {
            CliHarness cli = cli();
            assertEquals(2, cli.run(args.toArray(String[]::new)), args.toString());
            assertEquals("aii: --model-info cannot be combined with a prompt, -i or -f\n", cli.err());
        }
    }

    private static final String M_TAKES_NO_VALUE = "aii: -m is --model-info and takes no value\n"
            + "aii: choose a model with --model NAME or AII_MODEL\n";

    @ParameterizedTest
    @ValueSource(strings = {"-m llama3.2 hi", "-m llama3.2", "-jm llama3.2", "-xim llama3.2", "-m=llama3.2",
            "-mllama3.2", "-m - hi", "-i -m qwen3:8b", "-j -m llama3.2 --check ls"})
    void mFollowedByAWordIsTheModelInfoFlagTakingNoValue(String line) {
        CliHarness cli = cli().model(new ScriptedModel());
        assertEquals(2, cli.run(line.split(" ")), line);
        if (line.contains("-j")) {
            assertEquals("{\"error\":\"usage_error\",\"message\":\"-m is --model-info and takes no value\\n"
                    + "choose a model with --model NAME or AII_MODEL\",\"exitCode\":2}\n", cli.err(), line);
        } else {
            assertEquals(M_TAKES_NO_VALUE, cli.err(), line);
        }
        assertEquals("", cli.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-m", "-m -j", "-mj", "-jm", "-f notes -m", "--model -m", "--model-info"})
    void mWithoutAWordAfterItIsModelInfo(String line) {
        CliHarness cli = cli().model(new ScriptedModel());
        int exit = cli.run(line.split(" "));
        assertTrue(!cli.err().contains("takes no value"), line + ": " + cli.err());
        if (!line.contains("-f") && !line.equals("--model -m")) {
            assertEquals(0, exit, line + ": " + cli.err());
            assertTrue(cli.out().startsWith("Context window: "), cli.out());
        }
    }

    @Test
    void theModelFlagChoosesTheModelOverAiiModel() {
        java.util.List<java.util.Map<String, String>> seen = new java.util.ArrayList<>();
        ScriptedModel model = new ScriptedModel().answerText("ok").answerText("ok");
        CliHarness cli = cli().env("AII_MODEL", "from-env").stdinDevNull().models(env -> {
            seen.add(env);
            return model;
        });
        assertEquals(0, cli.run("--model", "qwen3:8b", "hi"));
        assertEquals("qwen3:8b", seen.getLast().get("AII_MODEL"));
        assertEquals(0, cli.run("--model=llama3.2", "hi"));
        assertEquals("llama3.2", seen.getLast().get("AII_MODEL"));
        assertEquals(0, cli.run("hi"));
        assertEquals("from-env", seen.getLast().get("AII_MODEL"));
    }

    @Test
    void theModelFlagNeedsAName() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--model"));
        assertEquals("aii: Missing required parameter for option '--model' (NAME)\n" + HINT, cli.err());
        CliHarness json = cli();
        assertEquals(2, json.run("--model", "-j", "hi"));
        assertEquals("aii: Expected parameter for option '--model' but found '-j'\n" + HINT, json.err());
        CliHarness after = cli();
        assertEquals(2, after.run("--model", "x", "-j", "--bogus"));
        assertEquals("{\"error\":\"usage_error\",\"message\":\"Unknown option: '--bogus'\\n"
                + "run 'aii --help' for usage\",\"exitCode\":2}\n", after.err());
    }

    @Test
    void theModelFlagWithFoundationModelsIsWarnedAboutAndTheAnswerComes() {
        CliHarness cli = cli().model(new ScriptedModel().answerText("ok")).stdinDevNull();
        assertEquals(0, cli.run("--model", "llama3.2", "hi"));
        assertEquals("aii: warning: --model is for model servers; Apple Intelligence has one model "
                + "(set AII_BASE_URL to use a server)\n", cli.err());
        assertEquals("ok\n", cli.out());
    }

    @Test
    void modelInfoConflictsWithInteractiveAndFile() {
        CliHarness interactive = cli();
        assertEquals(2, interactive.run("-m", "-i"));
        assertEquals("aii: --model-info cannot be combined with a prompt, -i or -f\n", interactive.err());
        CliHarness cli = cli();
        assertEquals(2, cli.run("-m", "-f", "x"));
        assertEquals("aii: --model-info cannot be combined with a prompt, -i or -f\n", cli.err());
    }

    @Test
    void modelInfoPrintsThreeLines() {
        ScriptedModel model = new ScriptedModel().contextSize(8192).variant("llama3 via http://localhost:11434/v1")
                .languages(Optional.of(List.of("de-DE", "en-US")));
        CliHarness cli = cli().model(model);
        assertEquals(0, cli.run("-m"));
        assertEquals("Context window: 8192 tokens\nModel variant: llama3 via http://localhost:11434/v1\n"
                + "Supported languages (2): de-DE, en-US\n", cli.out());
    }

    @Test
    void modelInfoWithUnknownLanguages() {
        ScriptedModel model = new ScriptedModel().languages(Optional.empty());
        CliHarness cli = cli().model(model);
        assertEquals(0, cli.run("--model-info"));
        assertEquals("Context window: 4096 tokens\nModel variant: scripted\nSupported languages: unknown\n", cli.out());
    }

    @Test
    void unavailableModelExitsThreeWithItsMessage() {
        ScriptedModel model = new ScriptedModel().unavailable(ModelException.notEnabled("appleIntelligenceNotEnabled"));
        CliHarness cli = cli().model(model);
        assertEquals(3, cli.run("hello"));
        assertEquals("aii: Apple Intelligence is not enabled\n"
                + "aii: enable it in System Settings \u2192 Apple Intelligence & Siri\n", cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void unavailableModelUnderJson() {
        ScriptedModel model = new ScriptedModel().unavailable(ModelException.downloading("modelNotReady"));
        CliHarness cli = cli().model(model);
        assertEquals(3, cli.run("-j", "-m"));
        assertEquals("{\"error\":\"unavailable_downloading\",\"message\":\"Apple Intelligence model assets are still "
                + "downloading\\ntry again shortly\",\"detail\":\"modelNotReady\",\"exitCode\":3}\n", cli.err());
    }

    @Test
    void noBackendOnThisSystemGivesTheGuidance() {
        CliHarness cli = cli().models(env -> {
            throw ModelException.notSupportedOnThisSystem();
        });
        assertEquals(3, cli.run("hello"));
        assertEquals("aii: Apple Intelligence is not available on this system\n"
                + "aii: set AII_BASE_URL to an OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama)\n",
                cli.err());
    }

    @Test
    void fileWithInteractiveConflictsAfterTheAvailabilityCheck() {
        CliHarness cli = cli().model(new ScriptedModel());
        assertEquals(2, cli.run("-i", "-f", "x.txt"));
        assertEquals("aii: --file cannot be used with --interactive\n", cli.err());
    }

    @Test
    void unexpectedFailureIsAnInternalErrorWithoutAStackTrace() {
        CliHarness cli = cli().models(env -> {
            throw new IllegalStateException("boom");
        });
        assertEquals(1, cli.run("-j", "hello"));
        assertEquals("{\"error\":\"internal_error\",\"message\":\"Cannot start the model backend\",\"detail\":"
                + "\"java.lang.IllegalStateException: boom\",\"exitCode\":1}\n", cli.err());
    }

    @Test
    void debugUnderJsonAddsTheStackTraceAsAJsonLineOfItsOwn() {
        CliHarness cli = cli().env("AII_DEBUG", "1").models(env -> {
            throw new IllegalStateException("boom");
        });
        assertEquals(1, cli.run("--json", "hello"));
        List<String> lines = cli.err().lines().toList();
        assertEquals(2, lines.size(), cli.err());
        assertEquals("{\"error\":\"internal_error\",\"message\":\"Cannot start the model backend\",\"detail\":"
                + "\"java.lang.IllegalStateException: boom\",\"exitCode\":1}", lines.get(0));
        assertTrue(lines.get(1).startsWith("{\"stackTrace\":\"java.lang.IllegalStateException: boom\\n\\tat "),
                lines.get(1));
        assertTrue(lines.get(1).endsWith("\"}"), lines.get(1));
    }

    @Test
    void aContextSizeThatIsNotAPositiveNumberIsWarnedAbout() {
        for (String value : List.of("abc", "0", "-5", "8k")) {
            CliHarness cli = cli().model(new ScriptedModel()).env("AII_BASE_URL", "http://localhost:11434/v1")
                    .env("AII_CONTEXT_SIZE", value);
            assertEquals(0, cli.run("-m"), value);
            assertEquals("aii: warning: AII_CONTEXT_SIZE=" + value + " is not a positive whole number; "
                    + "the context size is discovered instead\n", cli.err());
        }
    }

    @Test
    void aUsableContextSizeOrNoServerGivesNoWarning() {
        CliHarness valid = cli().model(new ScriptedModel()).env("AII_BASE_URL", "http://localhost:11434/v1")
                .env("AII_CONTEXT_SIZE", "8192");
        assertEquals(0, valid.run("-m"));
        assertEquals("", valid.err());
        CliHarness json = cli().model(new ScriptedModel()).env("AII_BASE_URL", "http://localhost:11434/v1")
                .env("AII_CONTEXT_SIZE", "abc");
        assertEquals(0, json.run("-m", "-j"));
        assertEquals("", json.err());
    }

    @Test
    void debugAddsTheStackTrace() {
        CliHarness cli = cli().env("AII_DEBUG", "1").models(env -> {
            throw new IllegalStateException("boom");
        });
        assertEquals(1, cli.run("hello"));
        assertTrue(cli.err().startsWith("aii: Cannot start the model backend\njava.lang.IllegalStateException: boom\n"),
                cli.err());
        assertTrue(cli.err().contains("\tat "), cli.err());
    }

    @Test
    void shortcutsPrintWhatTheFullParseWouldPrint() {
        for (String flag : new String[] {"--help", "--version", "--list-allowed"}) {
            CliHarness shortcut = new CliHarness(home);
            CliHarness parsed = new CliHarness(home);
            assertEquals(0, shortcut.run(flag));
            // One more flag that changes nothing takes the full parse.
            assertEquals(0, parsed.run(flag, "-j"));
            assertEquals(parsed.out(), shortcut.out(), flag);
            assertEquals(parsed.err(), shortcut.err(), flag);
        }
    }
}
