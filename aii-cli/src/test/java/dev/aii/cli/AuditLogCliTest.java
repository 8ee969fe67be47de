package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.aii.testkit.ScriptedTerminal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code AII_AUDIT_LOG}: one JSON line per tool call. */
class AuditLogCliTest {

    @TempDir
    Path home;

    private static ScriptedModel.Step call(String json) {
        return new ScriptedModel.Step.CallTool(json);
    }

    private CliHarness cli(ScriptedModel model) {
        return new CliHarness(home).model(model).stdinTerminal().terminal(ScriptedTerminal.absent());
    }

    @Test
    void everyCallIsOneLineWithItsFacts() throws IOException {
        Path log = home.resolve("audit.jsonl");
        ScriptedModel model = new ScriptedModel().answer(
                call("{\"executable\":\"pwd\",\"arguments\":[]}"),
                call("{\"executable\":\"date\",\"arguments\":[\"-s\",\"2020-01-01\"]}"),
                call("{\"executable\":\"gti\",\"arguments\":[\"status\"]}"));
        Instant before = Instant.now().minusSeconds(1);
        CliHarness cli = cli(model).env("AII_AUDIT_LOG", log.toString());
        assertEquals(0, cli.run("-x", "do things"));
        Instant after = Instant.now().plusSeconds(1);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        List<String> lines = Files.readAllLines(log);
        assertEquals(3, lines.size(), lines.toString());
        String cwd = Path.of("").toAbsolutePath().toString();

        Map<String, Object> ran = parse(lines.get(0));
        Instant time = Instant.parse((String) ran.get("time"));
        assertTrue(!time.isBefore(before) && !time.isAfter(after), time.toString());
        assertTrue(((String) ran.get("time")).endsWith("Z"), lines.get(0));
        assertEquals("pwd", ran.get("argv"));
        assertTrue(((String) ran.get("path")).endsWith("/pwd"), lines.get(0));
        assertEquals(cwd, ran.get("workingDirectory"));
        assertEquals("ran", ran.get("decision"));
        assertEquals("default rule", ran.get("why"));
        assertEquals(0L, ran.get("exit"));
        assertTrue((Long) ran.get("durationMs") >= 0 && (Long) ran.get("durationMs") < Duration.ofMinutes(1).toMillis());
        assertEquals((long) (cwd + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8).length, ran.get("outputBytes"));
        assertEquals(List.of(), ran.get("guarded"));
        assertFalse(lines.get(0).contains("\"" + cwd + "\\n\""), "the output is not logged");

        Map<String, Object> guarded = parse(lines.get(1));
        assertEquals("date -s 2020-01-01", guarded.get("argv"));
        assertEquals("denied", guarded.get("decision"));
        assertEquals("no terminal", guarded.get("why"));
        assertEquals(null, guarded.get("exit"));
        assertEquals(null, guarded.get("durationMs"));
        assertEquals(null, guarded.get("outputBytes"));
        assertEquals(List.of("this form of date can set the system clock"), guarded.get("guarded"));

        Map<String, Object> notFound = parse(lines.get(2));
        assertEquals("gti status", notFound.get("argv"));
        assertEquals(null, notFound.get("path"));
        assertEquals("error", notFound.get("decision"));
        assertEquals("not found", notFound.get("why"));
    }

    @Test
    void noVariableNoLog() throws IOException {
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        CliHarness cli = cli(model).workingDirectory(home);
        assertEquals(0, cli.run("-x", "where?"));
        try (var files = Files.list(home)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void aRelativePathIsInTheWorkingDirectory() throws IOException {
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        CliHarness cli = cli(model).env("AII_AUDIT_LOG", "logs.jsonl").workingDirectory(home);
        assertEquals(0, cli.run("-x", "where?"));
        assertEquals(1, Files.readAllLines(home.resolve("logs.jsonl")).size());
    }

    @Test
    void aLeadingTildeIsTheHomeDirectory() throws IOException {
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        Path work = Files.createDirectory(home.resolve("work"));
        CliHarness cli = cli(model).env("AII_AUDIT_LOG", "~/audit.jsonl").workingDirectory(work);
        assertEquals(0, cli.run("-x", "where?"));
        assertEquals(1, Files.readAllLines(home.resolve("audit.jsonl")).size());
        assertFalse(Files.exists(work.resolve("~")));
    }

    @Test
    void aLogThatCannotBeWrittenIsOneWarningAndTheCommandsStillRun() {
        Path log = home.resolve("no/such/dir/audit.jsonl");
        ScriptedModel model = new ScriptedModel().answer(
                call("{\"executable\":\"pwd\",\"arguments\":[]}"),
                call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        CliHarness cli = cli(model).env("AII_AUDIT_LOG", log.toString());
        assertEquals(0, cli.run("-x", "where?"));
        assertEquals(2, model.toolResults.stream().filter(r -> r.startsWith("exit 0\n")).count());
        assertEquals("aii: $ pwd\naii: warning: could not write audit log " + log + ": No such file or directory\n"
                + "aii: $ pwd\n", cli.err());
    }

    @Test
    void underJsonTheWarningIsLeftOut() {
        Path log = home.resolve("no/such/dir/audit.jsonl");
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        CliHarness cli = cli(model).env("AII_AUDIT_LOG", log.toString());
        assertEquals(0, cli.run("-x", "-j", "where?"));
        assertEquals("", cli.err());
    }

    private static Map<String, Object> parse(String line) {
        Map<String, Object> fields = new LinkedHashMap<>();
        try (JsonParser p = new JsonFactory().createParser(line)) {
            assertEquals(JsonToken.START_OBJECT, p.nextToken(), line);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                fields.put(name, switch (value) {
                    case VALUE_STRING -> p.getText();
                    case VALUE_NUMBER_INT -> p.getLongValue();
                    case VALUE_NULL -> null;
                    case START_ARRAY -> {
                        List<String> items = new ArrayList<>();
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            items.add(p.getText());
                        }
                        yield items;
                    }
                    default -> throw new AssertionError("unexpected " + value + " in " + line);
                });
            }
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
        return fields;
    }
}
