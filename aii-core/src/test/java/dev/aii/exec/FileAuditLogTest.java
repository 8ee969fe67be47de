package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.aii.config.SystemEnvironment;
import dev.aii.policy.Builtins;
import dev.aii.policy.ExecPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The audit log file: its lines, its mode, and appends from several writers. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FileAuditLogTest {

    private static final Instant WHEN = Instant.parse("2026-01-02T03:04:05.678Z");

    @TempDir
    Path dir;

    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

    private static AuditRecord denied(String argv) {
        return new AuditRecord(WHEN, Optional.of(argv), Optional.of("/bin/date"), "/w", AuditRecord.Outcome.DENIED,
                "no terminal", Optional.empty(), Optional.empty(), OptionalLong.empty(),
                List.of("this form of date can set the system clock"));
    }

    private static AuditRecord ran(String exit) {
        return new AuditRecord(WHEN, Optional.of("ls -d /"), Optional.of("/usr/bin/ls"), "/w", AuditRecord.Outcome.RAN,
                "default rule", Optional.of(exit), Optional.of(Duration.ofMillis(12)), OptionalLong.of(2), List.of());
    }

    @Test
    void eachRecordIsOneJsonLineWithEveryField() throws IOException {
        Path log = dir.resolve("audit.jsonl");
        AuditLog audit = AuditLog.appendingTo(log, warnings::add);
        audit.record(denied("date -s 'not a date'"));
        audit.record(ran("0"));
        audit.record(ran("timeout"));
        assertEquals("{\"time\":\"2026-01-02T03:04:05.678Z\",\"argv\":\"date -s 'not a date'\",\"path\":\"/bin/date\","
                + "\"workingDirectory\":\"/w\",\"decision\":\"denied\",\"why\":\"no terminal\",\"exit\":null,"
                + "\"durationMs\":null,\"outputBytes\":null,\"guarded\":[\"this form of date can set the system clock\"]}\n"
                + "{\"time\":\"2026-01-02T03:04:05.678Z\",\"argv\":\"ls -d /\",\"path\":\"/usr/bin/ls\","
                + "\"workingDirectory\":\"/w\",\"decision\":\"ran\",\"why\":\"default rule\",\"exit\":0,"
                + "\"durationMs\":12,\"outputBytes\":2,\"guarded\":[]}\n"
                + "{\"time\":\"2026-01-02T03:04:05.678Z\",\"argv\":\"ls -d /\",\"path\":\"/usr/bin/ls\","
                + "\"workingDirectory\":\"/w\",\"decision\":\"ran\",\"why\":\"default rule\",\"exit\":\"timeout\","
                + "\"durationMs\":12,\"outputBytes\":2,\"guarded\":[]}\n", Files.readString(log));
        assertEquals(List.of(), warnings);
    }

    @Test
    void theFileIsCreatedOwnerOnlyAndAppendedTo() throws IOException {
        Path log = dir.resolve("audit.jsonl");
        AuditLog.appendingTo(log, warnings::add).record(ran("0"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        AuditLog.appendingTo(log, warnings::add).record(ran("1"));
        List<String> lines = Files.readAllLines(log);
        assertEquals(2, lines.size());
        assertEquals(0L, parse(lines.get(0)).get("exit"));
        assertEquals(1L, parse(lines.get(1)).get("exit"));
    }

    @Test
    void twoThreadsAppendingAtOnceWriteWholeLines() throws Exception {
        Path log = dir.resolve("audit.jsonl");
        AuditLog audit = AuditLog.appendingTo(log, warnings::add);
        int perThread = 400;
        String a = "a".repeat(3000);
        String b = "b".repeat(5000);
        Thread first = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < perThread; i++) {
                audit.record(denied(a));
            }
        });
        Thread second = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < perThread; i++) {
                audit.record(denied(b));
            }
        });
        first.join();
        second.join();
        List<String> lines = Files.readAllLines(log);
        assertEquals(2 * perThread, lines.size());
        assertEquals(perThread, lines.stream().filter(l -> a.equals(parse(l).get("argv"))).count());
        assertEquals(perThread, lines.stream().filter(l -> b.equals(parse(l).get("argv"))).count());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aLogThatCannotBeWrittenWarnsOnceAndNeverThrows() {
        Path log = dir.resolve("missing/audit.jsonl");
        AuditLog audit = AuditLog.appendingTo(log, warnings::add);
        audit.record(ran("0"));
        audit.record(ran("0"));
        assertEquals(List.of("could not write audit log " + log + ": No such file or directory"), warnings);
        assertFalse(Files.exists(log));
    }

    @Test
    void theToolWritesWhatHappenedButNeverTheOutput() throws IOException {
        Path log = dir.resolve("audit.jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ExecOutput output = ExecOutput.to(new PrintStream(err, true, StandardCharsets.UTF_8), false, () -> { });
        RunCommandTool tool = RunCommandTool.builder()
                .policy(ExecPolicy.of(Builtins.defaults(), SystemEnvironment.of(Map.of("PATH", ToolFixture.PATH),
                        dir)))
                .approver(new TerminalApprover(FakeTerminal.absent(), output))
                .runner(new ProcessBuilderRunner())
                .output(output)
                .auditLog(AuditLog.appendingTo(log, output::warning))
                .clock(Clock.fixed(WHEN, ZoneOffset.UTC))
                .build();
        AnswerScope answer = tool.startAnswer();
        Path secret = Files.writeString(dir.resolve("secret.txt"), "the secret output\n");
        assertEquals("exit 0\nthe secret output\n", answer.call(ToolFixture.json("cat", secret.toString())));
        String line = Files.readString(log);
        assertFalse(line.contains("secret output"), line);
        Map<String, Object> fields = parse(line.strip());
        assertEquals(List.of("time", "argv", "path", "workingDirectory", "decision", "why", "exit", "durationMs",
                "outputBytes", "guarded"), List.copyOf(fields.keySet()));
        assertEquals("2026-01-02T03:04:05.678Z", fields.get("time"));
        assertEquals("cat " + secret, fields.get("argv"));
        assertTrue(((String) fields.get("path")).endsWith("/cat"), line);
        assertEquals(dir.toString(), fields.get("workingDirectory"));
        assertEquals("ran", fields.get("decision"));
        assertEquals("default rule", fields.get("why"));
        assertEquals(0L, fields.get("exit"));
        assertTrue((Long) fields.get("durationMs") >= 0, line);
        assertEquals(18L, fields.get("outputBytes"));
        assertEquals(List.of(), fields.get("guarded"));
    }

    /** One line of the log as a map, in field order: strings, longs, nulls and lists of strings. */
    static Map<String, Object> parse(String line) {
        Map<String, Object> fields = new LinkedHashMap<>();
        try (JsonParser p = new JsonFactory().createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new AssertionError("not an object: " + line);
            }
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
            if (p.nextToken() != null) {
                throw new AssertionError("more than one object: " + line);
            }
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
        return fields;
    }
}
