package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the process ends. aii runs its own exit actions and ends by
 * Runtime.halt, skipping the logging lookup that System.exit makes (with -x
 * and after SIGTERM too; LifetimeE2E shows that nothing is left running);
 * with AII_JAVA_OPTS (a flight recording) it ends by System.exit, whose hooks
 * then run. The JDK logs every System.exit to the
 * logger {@code java.lang.Runtime} at DEBUG: a logging configuration handed
 * to the JVM through JDK_JAVA_OPTIONS (read by the java launcher itself, so
 * AII_JAVA_OPTS stays unset) shows which way each run ended.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ProcessEndE2E {

    private static final String LOGGED_EXIT = "Runtime.exit() called with status: ";

    @TempDir
    Path tmp;

    private AiiProcess loggingExits() throws Exception {
        Path config = tmp.resolve("logging.properties");
        Files.writeString(config, """
                handlers=java.util.logging.ConsoleHandler
                java.util.logging.ConsoleHandler.level=ALL
                java.lang.Runtime.level=ALL
                """);
        return new AiiProcess(tmp).env("JDK_JAVA_OPTIONS", "-Djava.util.logging.config.file=" + config);
    }

    @Test
    void theShortCommandsEndWithoutSystemExit() throws Exception {
        AiiProcess aii = loggingExits();
        Result version = aii.run("--version");
        assertEquals(0, version.exit());
        assertEquals("aii 0.9.0\n", version.out());
        assertFalse(version.err().contains("Runtime.exit"), version.err());
        Result help = aii.runShell("{aii} --help | cat");
        assertTrue(help.out().startsWith("Usage: aii [-ijx]"), help.out());
        assertTrue(help.out().endsWith("leaves.\n"), "the help is whole through a pipe: " + help.out());
        assertEquals(aii.run("--help").out(), help.out());
        assertFalse(help.err().contains("Runtime.exit"), help.err());
        Result usage = aii.run("--bogus");
        assertEquals(2, usage.exit());
        assertFalse(usage.err().contains("Runtime.exit"), usage.err());
        Result check = aii.run("--check", "git", "log", "--output=/tmp/x");
        assertFalse(check.err().contains("Runtime.exit"), check.err());
    }

    @Test
    void aPromptWithoutExecEndsWithoutSystemExit() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.text("Hi."));
            Result r = loggingExits().server(server).run("Say hi");
            assertEquals(0, r.exit());
            assertEquals("Hi.\n", r.out());
            assertFalse(r.err().contains("Runtime.exit"), r.err());
        }
    }

    @Test
    void withExecAiiRunsItsOwnExitActionsAndEndsWithoutSystemExit() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("pwd")), Reply.text("Done."));
            AiiProcess aii = loggingExits().server(server);
            // stdout a pipe: the stdout watch runs, and is ended at exit
            Result r = aii.runShell("{aii} -x 'Where am I?' | cat");
            assertEquals("Done.\n", r.out());
            assertTrue(r.err().contains("$ pwd"), r.err());
            assertFalse(r.err().contains("Runtime.exit"), r.err());
            assertTrue(server.lastChatRequest().toolResults().toString().contains(aii.directory().toString()),
                    "the command ran and its output went back to the model: " + server.lastChatRequest().toolResults());
        }
    }

    @Test
    void aSignalEndsAiiTheSameWayOnceTheCommandIsStopped() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("sleep", "20")), Reply.text("Done."));
            AiiProcess aii = loggingExits().server(server).allow("sleep\n");
            Running running = aii.start("-x", "Wait");
            running.awaitStderr("$ sleep 20");
            new ProcessBuilder("kill", "-TERM", Long.toString(running.java().pid())).inheritIO().start().waitFor();
            Result r = running.awaitExit();
            assertEquals(143, r.exit(), r.err());
            assertFalse(r.err().contains("Runtime.exit"), r.err());
        }
    }

    @Test
    void withJavaOptionsTheJvmsOwnHooksRun() throws Exception {
        Result r = loggingExits().env("AII_JAVA_OPTS", "-Daii.test=1").run("--version");
        assertEquals(0, r.exit());
        assertTrue(r.err().contains(LOGGED_EXIT + "0"), r.err());
        // A flight recording is written by a hook when the JVM exits.
        Path recording = tmp.resolve("version.jfr");
        Result recorded = new AiiProcess(tmp)
                .env("AII_JAVA_OPTS", "-XX:StartFlightRecording:filename=" + recording)
                .run("--version");
        assertEquals(0, recorded.exit(), recorded.err());
        assertTrue(Files.size(recording) > 0, "the recording was written");
    }
}
