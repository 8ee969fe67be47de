package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code bin/aii}, as a process of its own, on the Foundation Models
 * backend over the gcc-built C stub of the shim ({@code AII_SHIM_LIBRARY}),
 * which scripts itself from {@code FMSHIM_STUB_*} variables when it loads.
 */
class FoundationModelsCliIT {

    private static final String LANGUAGES = "[\"zh-Hans-CN\",\"en-US\",\"fr-FR\",\"en-GB\",\"de-DE\",\"zh-Hant-TW\"]";

    @TempDir
    Path home;

    @Test
    void modelInfoPrintsExactlyTheThreeLinesFromTheShim() throws Exception {
        AiiRun run = AiiRun.of(home, Map.of(
                "FMSHIM_STUB_CONTEXT_SIZE", "8192",
                "FMSHIM_STUB_VARIANT", "AFM 3 Core",
                "FMSHIM_STUB_LANGUAGES", LANGUAGES), "-m").finish();
        assertEquals("Context window: 8192 tokens\n"
                + "Model variant: AFM 3 Core\n"
                + "Supported languages (6): de-DE, en-GB, en-US, fr-FR, zh-CN, zh-TW\n", run.stdout());
        assertEquals("", run.stderr());
        assertEquals(0, run.exitCode());
    }

    @Test
    void withoutAFrameworkVariantModelInfoShowsTheAfmLabelOfTheSystemVersion() throws Exception {
        AiiRun run = AiiRun.of(home, Map.of("FMSHIM_STUB_CONTEXT_SIZE", "unsupported"), "-m").finish();
        assertEquals("Context window: " + expectedFallbackContextSize() + " tokens\n"
                + "Model variant: " + expectedAfmLabel() + "\n"
                + "Supported languages (1): en-US\n", run.stdout());
        assertEquals(0, run.exitCode());
    }

    @Test
    void aPromptOverTheReportedContextSizeIsRefusedBeforeTheModelIsAsked() throws Exception {
        // The stub counts one token per byte.
        AiiRun run = AiiRun.of(home, Map.of("FMSHIM_STUB_CONTEXT_SIZE", "4096", "FMSHIM_STUB_ANSWER", "never"),
                "x".repeat(5000)).finish();
        assertEquals("", run.stdout());
        assertEquals("aii: Input is 5000 tokens, exceeding the 4096-token context window\n"
                + "aii: try a shorter input or trim --file/stdin content\n", run.stderr());
        assertEquals(4, run.exitCode());
    }

    @Test
    void aContextSizeOfZeroIsUnknownSoNoPromptIsRefusedOnAGuess() throws Exception {
        // macOS 27 reports 0 until its model is ready, when the window is 8192.
        AiiRun run = AiiRun.of(home, Map.of("FMSHIM_STUB_CONTEXT_SIZE", "0", "FMSHIM_STUB_ANSWER", "answered"),
                "x".repeat(5000)).finish();
        assertEquals("answered\n", run.stdout());
        assertEquals("", run.stderr());
        assertEquals(0, run.exitCode());

        AiiRun info = AiiRun.of(home, Map.of("FMSHIM_STUB_CONTEXT_SIZE", "0"), "-m").finish();
        assertEquals("Context window: " + expectedFallbackContextSize() + " tokens", info.stdout().lines().findFirst().orElseThrow());
    }

    @Test
    void aOneShotAnswerStreamsToStdoutBeforeTheAnswerEnds() throws Exception {
        Path gate = home.resolve("gate");
        AiiRun run = AiiRun.of(home, Map.of(
                "FMSHIM_STUB_ECHO_PROMPT", "You asked: ",
                "FMSHIM_STUB_ANSWER", "\nH\u00e9llo, w\u00f6rld \u2713 \u65e5\u672c\n",
                "FMSHIM_STUB_WAIT_FOR_FILE", gate.toString(),
                "FMSHIM_STUB_THEN_ANSWER", "Bye."), "what is up?");
        assertEquals("You asked: what is up?", run.stdoutLine());
        assertEquals("H\u00e9llo, w\u00f6rld \u2713 \u65e5\u672c", run.stdoutLine());
        // The stub holds the rest of the answer back until the gate exists: these lines were streamed.
        assertTrue(run.process().isAlive(), "the answer is still being generated");
        Files.writeString(gate, "");
        run.finish();
        assertEquals("Bye.\n", run.stdout());
        assertEquals("", run.stderr());
        assertEquals(0, run.exitCode());
    }

    @Test
    void execRunsTheModelsToolCallThroughRunCommandAndStreamsWhatItGaveBack() throws Exception {
        Path notes = Files.writeString(home.resolve("notes.txt"), "hello from a file\n");
        assertTrue(notes.toString().matches("[A-Za-z0-9_./-]+"), "a path shown without quotes: " + notes);
        AiiRun run = AiiRun.of(home, Map.of(
                "FMSHIM_STUB_TOOL_CALL", "{\"executable\":\"cat\",\"arguments\":[\"" + notes + "\"]}",
                "FMSHIM_STUB_TOOL_RESULT_PREFIX", "The tool said: ",
                "FMSHIM_STUB_ANSWER", "Done."), "-x", "show my notes").finish();
        assertEquals("The tool said: exit 0\nhello from a file\nDone.\n", run.stdout());
        assertEquals("aii: $ cat " + notes + "\n", run.stderr());
        assertEquals(0, run.exitCode());
    }

    @Test
    void appleIntelligenceNotEnabledExitsThreeWithTheExactMessage() throws Exception {
        AiiRun run = AiiRun.of(home, Map.of("FMSHIM_STUB_AVAILABILITY", "not_enabled"), "hello").finish();
        assertEquals("", run.stdout());
        assertEquals("aii: Apple Intelligence is not enabled\n"
                + "aii: enable it in System Settings \u2192 Apple Intelligence & Siri\n", run.stderr());
        assertEquals(3, run.exitCode());
    }

    @Test
    void notEnabledUnderJsonIsOneLineWithTheFrameworksReasonAsDetail() throws Exception {
        AiiRun run = AiiRun.of(home, Map.of("FMSHIM_STUB_AVAILABILITY", "not_enabled"), "--json", "-m").finish();
        assertEquals("", run.stdout());
        assertEquals("{\"error\":\"unavailable_not_enabled\",\"message\":\"Apple Intelligence is not enabled\\n"
                + "enable it in System Settings \u2192 Apple Intelligence & Siri\","
                + "\"detail\":\"appleIntelligenceNotEnabled\",\"exitCode\":3}\n", run.stderr());
        assertEquals(3, run.exitCode());
    }

    @Test
    void aGenerationErrorKeepsTheTextAlreadyReceivedAndExitsFour() throws Exception {
        AiiRun run = AiiRun.of(home, Map.of(
                "FMSHIM_STUB_ANSWER", "Partial answer",
                "FMSHIM_STUB_FAIL", "22:guardrailViolation: blocked"), "hello").finish();
        assertEquals("Partial answer", run.stdout());
        assertEquals("aii: Prompt blocked by safety filters\n", run.stderr());
        assertEquals(4, run.exitCode());
    }

    @Test
    void ctrlCStopsTheAnswerThroughTheShimsCancelAndExits130() throws Exception {
        AiiRun run = AiiRun.of(home, Map.of(
                "FMSHIM_STUB_ANSWER", "Thinking\n",
                "FMSHIM_STUB_WAIT_FOR_FILE", home.resolve("never").toString(),
                "FMSHIM_STUB_THEN_ANSWER", "never shown"), List.of("hello"), true);
        assertEquals("Thinking", run.stdoutLine());
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(run.process().pid())).inheritIO().start();
        assertEquals(0, kill.waitFor());
        run.finish();
        assertEquals("", run.stdout());
        assertEquals("", run.stderr());
        assertEquals(130, run.exitCode());
    }

    @Test
    void aShimLibraryVariableNamingAMissingFileIsAnErrorNamingItAndNothingElseIsLoaded() throws Exception {
        // target/lib beside the jars could hold a shim: it must not be used instead of the one asked for.
        String name = isMacOs() ? "libfmshim.dylib" : "libfmshim.so";
        Path missing = home.resolve("missing").resolve(name);
        AiiRun run = AiiRun.of(home, Map.of(), missing, "hello").finish();
        assertEquals("", run.stdout());
        assertEquals("aii: Cannot load the Foundation Models shim library " + name + "\n"
                + "aii: tried AII_SHIM_LIBRARY=" + missing + ": no such file\n", run.stderr());
        assertEquals(1, run.exitCode());
    }

    /** What the backend shows without a framework variant: the label of the running system's version. */
    private static String expectedAfmLabel() {
        // On a system other than macOS, os.version is no macOS version and counts as before 26.4.
        String[] version = System.getProperty("os.version").split("\\.");
        boolean mac = isMacOs();
        int major = mac ? Integer.parseInt(version[0].replaceAll("\\D.*", "")) : 0;
        int minor = mac && version.length > 1 ? Integer.parseInt(version[1].replaceAll("\\D.*", "")) : 0;
        return major > 26 || (major == 26 && minor >= 4) ? "AFM macOS 26.4" : "AFM macOS 26.0\u201326.3";
    }

    /** The context window shown when the framework reports none: 4096 (macOS 26's model), 8192 from macOS 27. */
    private static int expectedFallbackContextSize() {
        if (!isMacOs()) {
            return 4096;
        }
        int major = Integer.parseInt(System.getProperty("os.version").split("\\.")[0].replaceAll("\\D.*", ""));
        // 16 and 17 are what macOS 26 and 27 say under SYSTEM_VERSION_COMPAT.
        return major >= 27 || (major >= 17 && major < 26) ? 8192 : 4096;
    }

    private static boolean isMacOs() {
        return System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).startsWith("mac");
    }

    /** One run of the launcher: stdin from /dev/null, stdout read as it comes, stderr collected. */
    private static final class AiiRun {

        private static final Path LAUNCHER = Path.of(System.getProperty("aii.launcher"));
        private static final Path STUB = Path.of(System.getProperty("aii.it.fmshim.stub"));

        private final Process process;
        private final BufferedReader stdout;
        private final CompletableFuture<String> stderr;
        private final StringBuilder rest = new StringBuilder();

        private AiiRun(Process process) {
            this.process = process;
            this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        }

        static AiiRun of(Path home, Map<String, String> script, String... args) throws IOException {
            return start(home, script, STUB, List.of(args), false);
        }

        static AiiRun of(Path home, Map<String, String> script, Path shim, String... args) throws IOException {
            return start(home, script, shim, List.of(args), false);
        }

        /** With {@code interruptible}, SIGINT is handled even when whatever started the tests ignores it. */
        static AiiRun of(Path home, Map<String, String> script, List<String> args, boolean interruptible)
                throws IOException {
            return start(home, script, STUB, args, interruptible);
        }

        private static AiiRun start(Path home, Map<String, String> script, Path shim, List<String> args,
                boolean interruptible) throws IOException {
            assertTrue(Files.isRegularFile(STUB), "the C stub is built by aii-ffm's test build: " + STUB);
            assertTrue(Files.isExecutable(LAUNCHER), "the launcher: " + LAUNCHER);
            ProcessBuilder builder = new ProcessBuilder();
            if (interruptible && System.getProperty("os.name").equals("Linux")) {
                // A JVM keeps SIGINT ignored when it starts with it ignored (as under a background job);
                // coreutils env resets it and execs, so the process is still the JVM.
                builder.command().addAll(List.of("/usr/bin/env", "--default-signal=INT"));
            }
            builder.command().add(LAUNCHER.toString());
            builder.command().addAll(args);
            Map<String, String> env = builder.environment();
            // Only what the test sets: no AII_BASE_URL or FMSHIM_STUB_* of the machine leaks in.
            env.clear();
            env.put("PATH", "/usr/bin:/bin");
            env.put("HOME", home.toString());
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.put("AII_SHIM_LIBRARY", shim.toString());
            env.putAll(script);
            builder.redirectInput(new File("/dev/null"));
            builder.directory(home.toFile());
            return new AiiRun(builder.start());
        }

        Process process() {
            return process;
        }

        /** The next line of stdout, waiting for it. */
        String stdoutLine() throws IOException {
            String line = stdout.readLine();
            assertTrue(line != null, "stdout ended early; stderr: " + (process.isAlive() ? "" : stderr.join()));
            return line;
        }

        /** Waits for the end (at most 60 s, only to catch a hang); stdout then holds what was not read by line. */
        AiiRun finish() throws Exception {
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
                char[] buffer = new char[4096];
                StringBuilder text = new StringBuilder();
                try {
                    for (int n; (n = stdout.read(buffer)) >= 0; ) {
                        text.append(buffer, 0, n);
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return text.toString();
            });
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("aii did not end within 60 s");
            }
            rest.append(out.get(60, TimeUnit.SECONDS));
            return this;
        }

        String stdout() {
            return rest.toString();
        }

        String stderr() {
            return stderr.join();
        }

        int exitCode() {
            return process.exitValue();
        }

        private static String readAll(InputStream in) {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
