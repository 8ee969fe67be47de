package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code aii --check}: what aii would do with a command, nothing run, no model. */
class CheckCliTest {

    private static final String CONFLICT =
            "--check cannot be combined with a prompt, -i, -x, -f, -m, --list-allowed or --reset-allowed";

    @TempDir
    Path home;

    /** A harness with a fixed PATH, in the temporary home; opening a model fails the test. */
    private CliHarness cli() {
        return new CliHarness(home).env("PATH", "/usr/bin:/bin").workingDirectory(home).stdinTerminal();
    }

    private Path allowFile(String text) throws IOException {
        Path file = home.resolve(".config/aii/allow");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    /** Where a program is found on /usr/bin:/bin. */
    private static String pathOf(String program) {
        return Stream.of("/usr/bin/", "/bin/").map(d -> d + program).filter(p -> Files.isExecutable(Path.of(p)))
                .findFirst().orElseThrow();
    }

    private String check(String... args) {
        CliHarness cli = cli();
        assertEquals(0, cli.run(args));
        assertEquals("", cli.err());
        return cli.out();
    }

    @Test
    void aCommandADefaultAllows() {
        assertEquals("allow (rule: ls)\n", check("--check", "ls", "-la"));
    }

    @Test
    void doubleDashBeforeTheProgramAndOptionsOfTheProgramAfterIt() {
        assertEquals("allow (rule: ls)\n", check("--check", "--", "ls", "-la"));
        assertEquals("allow (rule: ls)\n", check("--check", "ls", "--zero", "-x"));
        // An option no ls knows is the program's, and fails closed.
        assertEquals("ask (guarded: no ls that aii knows accepts these arguments)\n",
                check("--check", "ls", "--json", "-x"));
    }

    @Test
    void aGuardedForm() {
        assertEquals("ask (guarded: this form of date can set the system clock)\n",
                check("--check", "date", "-s", "2020-01-01"));
        assertEquals("ask (guarded: this form of date can set the system clock)\n", check("--check", "date", "0101000020"));
        assertEquals("ask (guarded: this form of file can write a compiled magic file)\n",
                check("--check", "file", "-C", "-m", "/etc/passwd"));
        assertEquals("ask (guarded: this form of file can write a compiled magic file; "
                + "this form of file runs an external decompressor)\n", check("--check", "file", "-Cz"));
    }

    @Test
    void aHandWrittenRuleThatSpellsOutTheGuardAllowsIt() throws IOException {
        allowFile("date\ndate -s\n");
        assertEquals("allow (rule: date -s)\n", check("--check", "date", "-s", "2020-01-01"));
        assertEquals("allow (rule: date)\n", check("--check", "date", "+%s"));
    }

    @Test
    void whatAlwaysWouldStore() {
        assertEquals("ask (always would store exactly: shuf data.txt)\n", check("--check", "shuf", "data.txt"));
        assertEquals("ask (always would store exactly: touch notes.txt -c)\n",
                check("--check", "touch", "notes.txt", "-c"));
        assertEquals("ask (always would store exactly: id -u -n)\n", check("--check", "id", "-u", "-n"));
        assertEquals("ask (always would store: sort notes.txt)\n", check("--check", "sort", "notes.txt", "-r"));
    }

    @Test
    void aNeverAlwaysProgram() {
        assertEquals("ask (never-always program)\n", check("--check", "rm", "-rf", "x"));
    }

    @Test
    void aProgramOutsideSystemDirectories() throws IOException {
        Path script = Files.writeString(home.resolve("my script.sh"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        assertEquals("ask (not in a system directory: '" + script + "')\n", check("--check", "./my script.sh"));
    }

    @Test
    void aPrefixThatIsNotPlain() {
        assertEquals("ask (prefix not plain: printf 'a\\x1Bb')\n", check("--check", "printf", "a\u001Bb"));
    }

    @Test
    void aProgramThatIsNotFound() {
        assertEquals("not found: gti\n", check("--check", "gti", "status"));
        assertEquals("not found: '/no/such dir/x'\n", check("--check", "/no/such dir/x"));
    }

    @Test
    void whatTheModelWouldBeRefused() {
        assertEquals("refused: Error: invalid executable\n", check("--check", ""));
        assertEquals("refused: Error: arguments must not include the program name. Pass only the arguments, "
                + "e.g. executable \"df\" with arguments [\"-h\", \"/\"].\n", check("--check", "ls", "ls"));
    }

    @Test
    void jsonForAnAllowedCommand() {
        assertEquals("{\"decision\":\"allow\",\"text\":\"allow (rule: ls)\",\"executable\":\"ls\","
                + "\"arguments\":[\"-la\"],\"program\":\"ls\",\"path\":\"" + pathOf("ls") + "\",\"trusted\":true,"
                + "\"rule\":[\"ls\"],\"ruleText\":\"ls\",\"always\":null,\"prefix\":null,\"prefixText\":null,"
                + "\"guards\":[],\"reason\":null,\"commandText\":\"ls -la\",\"pathText\":\"" + pathOf("ls") + "\"}\n",
                check("--json", "--check", "ls", "-la"));
    }

    @Test
    void jsonForAGuardedCommand() {
        assertEquals("{\"decision\":\"ask\",\"text\":\"ask (guarded: this form of date can set the system clock)\","
                + "\"executable\":\"date\",\"arguments\":[\"-s\",\"2020-01-01\"],\"program\":\"date\",\"path\":\""
                + pathOf("date") + "\",\"trusted\":true,\"rule\":null,\"ruleText\":null,\"always\":\"guarded\","
                + "\"prefix\":null,\"prefixText\":null,\"guards\":[\"this form of date can set the system clock\"],"
                + "\"reason\":\"this form of date can set the system clock\",\"commandText\":\"date -s 2020-01-01\","
                + "\"pathText\":\"" + pathOf("date") + "\"}\n",
                check("--check", "-j", "date", "-s", "2020-01-01"));
    }

    @Test
    void jsonForWhatAlwaysWouldStore() {
        assertEquals("{\"decision\":\"ask\",\"text\":\"ask (always would store: git status)\",\"executable\":\"git\","
                + "\"arguments\":[\"status\",\"--short\"],\"program\":\"git\",\"path\":\"" + pathOf("git")
                + "\",\"trusted\":true,\"rule\":null,\"ruleText\":null,\"always\":\"offered\","
                + "\"prefix\":[\"git\",\"status\"],\"prefixText\":\"git status\",\"guards\":[],\"reason\":null,"
                + "\"commandText\":\"git status --short\",\"pathText\":\"" + pathOf("git") + "\"}\n",
                check("-j", "--check", "--", "git", "status", "--short"));
    }

    @Test
    void jsonForAProgramThatIsNotFound() {
        assertEquals("{\"decision\":\"not_found\",\"text\":\"not found: gti\",\"executable\":\"gti\","
                + "\"arguments\":[],\"program\":null,\"path\":null,\"trusted\":null,\"rule\":null,\"ruleText\":null,"
                + "\"always\":null,\"prefix\":null,\"prefixText\":null,\"guards\":[],"
                + "\"reason\":\"Error: executable not found: gti\",\"commandText\":\"gti\",\"pathText\":null}\n",
                check("--json", "--check", "gti"));
    }

    @Test
    void jsonNeverCarriesARawControlBidiOrFormatCharacter() {
        String out = check("--json", "--check", "gti\u202E", "a\u0085b", "\u001b[2J", "x\u200By", "\u007F");
        assertTrue(out.codePoints().noneMatch(c -> c != '\n' && (Character.isISOControl(c)
                || Character.getType(c) == Character.FORMAT)), out);
        assertTrue(out.contains("\"executable\":\"gti\\u202E\""), out);
        assertTrue(out.contains("\"commandText\":\"'gti\\\\u{202E}' 'a\\\\x85b' '\\\\x1B[2J' 'x\\\\u{200B}y' '\\\\x7F'\""),
                out);
        assertTrue(out.contains("\"reason\":\"Error: executable not found: gti\\\\u{202E}\""), out);
    }

    @Test
    void theAllowFileIsReadAndItsWarningsGoToStderr() throws IOException {
        Path file = allowFile("git status\n'broken\n");
        CliHarness cli = cli();
        assertEquals(0, cli.run("--check", "git", "status"));
        assertEquals("allow (rule: git status)\n", cli.out());
        assertEquals("aii: warning: " + file + ": skipping malformed line 2\n", cli.err());
    }

    @Test
    void anAllowFileOthersCanWriteIsNotUsed() throws IOException {
        Path file = allowFile("git status\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        CliHarness cli = cli();
        assertEquals(0, cli.run("--check", "git", "status"));
        assertEquals("ask (always would store: git status)\n", cli.out());
        assertEquals("aii: warning: " + file + " is writable by others; using built-in defaults\n", cli.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"prompt", "-i", "-x", "-f", "-m", "--list-allowed", "--reset-allowed"})
    void checkConflictsWithModesAndTheOtherStandaloneFlags(String with) {
        List<String> args = switch (with) {
            case "prompt" -> List.of("hello", "--check", "ls");
            case "-f" -> List.of("-f", "x.txt", "--check", "ls");
            default -> List.of(with, "--check", "ls");
        };
        CliHarness cli = cli();
        assertEquals(2, cli.run(args.toArray(String[]::new)));
        assertEquals("aii: " + CONFLICT + "\n", cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void aConflictUnderJsonIsOneJsonLine() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--check", "-x", "-j", "ls"));
        assertEquals("{\"error\":\"conflicting_input\",\"message\":\"" + CONFLICT + "\",\"exitCode\":2}\n", cli.err());
    }

    @Test
    void checkWithoutAProgramIsAUsageError() {
        CliHarness cli = cli();
        assertEquals(2, cli.run("--check"));
        assertEquals("aii: Missing required parameter for option '--check' (PROGRAM)\n"
                + "aii: run 'aii --help' for usage\n", cli.err());
        CliHarness dashes = cli();
        assertEquals(2, dashes.run("-j", "--check", "--"));
        assertEquals("{\"error\":\"usage_error\",\"message\":\"Missing required parameter for option '--check' "
                + "(PROGRAM)\\nrun 'aii --help' for usage\",\"exitCode\":2}\n", dashes.err());
    }

    @Test
    void afterDoubleDashCheckIsAWordOfThePrompt() {
        ScriptedModel model = new ScriptedModel().answerText("It checks.");
        CliHarness cli = cli().model(model).stdinDevNull();
        assertEquals(0, cli.run("--", "--check", "ls"));
        assertEquals(List.of("--check ls"), model.prompts);
    }

    @Test
    void checkArgumentsStayAsTheyAreNeverJoined() {
        CliHarness cli = cli();
        assertEquals(0, cli.run("-j", "--check", "ls", "-l", "my file", "", "--model", "x", "-m", "llama3.2"));
        assertTrue(cli.out().contains("\"arguments\":[\"-l\",\"my file\",\"\",\"--model\",\"x\",\"-m\","
                + "\"llama3.2\"]"), cli.out());
    }

    @Test
    void theHelpDescribesCheck() {
        CliHarness cli = cli().env("COLUMNS", "200");
        assertEquals(0, cli.run("--help"));
        assertTrue(cli.out().contains("\n       aii [-j] --check [--] PROGRAM [ARG...]\n"), cli.out());
        assertTrue(cli.out().lines().anyMatch(l -> l.trim().startsWith("--check ") && l.endsWith(
                " Show what -x would do with PROGRAM [ARG...] and exit; nothing runs")),
                cli.out());
        assertTrue(cli.out().contains("\n  AII_AUDIT_LOG "), cli.out());
    }
}
