package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.Render;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command the user approved opens the terminal by its device name, leaves
 * it in a hostile state (a two-line scroll region, origin mode, line-drawing
 * characters, concealed text, an escape sequence left open, ...) and draws
 * a harmless prompt of its own. The next, real prompt is rendered by a
 * terminal emulator (pyte), and the lines just above {@code > } on the
 * screen must name what really runs.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HostileTerminalTest {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    /** A prompt of the command's own, for {@code ls -l docs}. */
    private static final String FAKE = "aii: run this command?\r\n  ls -l docs\r\n  [y] yes once   [N] no\r\n> ";

    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    Path dir;

    @Test
    void aTwoLineScrollRegionDoesNotHideThePrompt() throws Exception {
        assertThePromptNamesWhatRuns("\u001b[1;2r\u001b[1;1H" + FAKE);
    }

    @Test
    void originModeDoesNotMoveThePrompt() throws Exception {
        assertThePromptNamesWhatRuns("\u001b[?6h\u001b[3;4r" + FAKE);
    }

    @Test
    void generatedHostileStatesNeverHideWhatRuns() throws Exception {
        long seed = seed();
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 1; i <= 6; i++) {
            String hostile = hostile(random);
            try {
                assertThePromptNamesWhatRuns(hostile);
            } catch (AssertionError e) {
                throw new AssertionError("try " + i + " with seed " + seed + " (replay: -Daii.test.seed=" + seed
                        + "), state " + Render.escape(hostile) + ": " + e.getMessage(), e);
            }
        }
    }

    private static long seed() {
        String fixed = System.getProperty("aii.test.seed");
        long seed = fixed == null || fixed.isBlank() ? new SecureRandom().nextLong() : Long.parseLong(fixed.strip());
        System.out.println("HostileTerminalTest seed " + seed);
        return seed;
    }

    /** Some of the states that move or hide text, in a random order, then the fake prompt, maybe left unfinished. */
    private static String hostile(SplittableRandom r) {
        List<String> states = new ArrayList<>(List.of(
                "\u001b[" + (1 + r.nextInt(20)) + ";" + (2 + r.nextInt(22)) + "r",   // a scroll region
                "\u001b[?6h",                                                       // origin mode
                "\u001b[4h",                                                        // insert mode
                "\u001b)0\u000e",                                                   // line drawing in G1, shifted out
                "\u001b(0",                                                         // line drawing in G0
                "\u001b[8m",                                                        // concealed
                "\u001b[30;40m",                                                    // black on black
                "\u001b[?5h",                                                       // reverse video
                "\u001b[?7l",                                                       // no wrap
                "\u001b[?25l",                                                      // no cursor
                "\u001b%@",                                                         // ISO 2022, not UTF-8
                "\u001b[" + (1 + r.nextInt(24)) + ";" + (1 + r.nextInt(80)) + "H",  // the cursor anywhere
                "\u001b7",                                                          // a saved cursor
                "\u001b[?1049h"));                                                  // the alternate screen
        StringBuilder out = new StringBuilder();
        int count = 1 + r.nextInt(states.size());
        for (int i = 0; i < count; i++) {
            out.append(states.remove(r.nextInt(states.size())));
        }
        out.append(FAKE);
        String[] unfinished = {"", "\u001b[", "\u001b]0;", "\u001bP", "\u001b[?"};
        out.append(unfinished[r.nextInt(unfinished.length)]);
        return out.toString();
    }

    private void assertThePromptNamesWhatRuns(String hostile) throws Exception {
        Path state = dir.resolve("state");
        Files.writeString(state, hostile, StandardCharsets.UTF_8);
        Path script = dir.resolve("hostile.sh");
        Files.writeString(script, "cat " + Render.quote(state.toString()) + " > \"$AII_TEST_TTY\"\n");
        Files.createDirectories(dir.resolve("victim"));
        String calls = "[{\"executable\":\"/bin/sh\",\"arguments\":[\"" + script + "\"]},"
                + "{\"executable\":\"rm\",\"arguments\":[\"-rf\",\"victim\"]}]";
        List<String> java = new ArrayList<>(javaCommand());
        java.add(dir.resolve("allow").toString());
        java.add(calls);
        String line = "AII_TEST_TTY=$(tty); export AII_TEST_TTY; exec " + java.stream().map(Render::quote).collect(Collectors.joining(" "))
                + " < /dev/null > " + Render.quote(dir.resolve("result").toString()) + " 2>/dev/null";
        try (PtyDriver pty = PtyDriver.start(line, Map.of("PATH", "/usr/bin:/bin"), dir)) {
            pty.awaitOutput("> ", LIMIT);
            pty.type("y\n");
            pty.awaitOutput("  rm -rf victim", LIMIT);
            pty.awaitOutput("[N] no\r\n> ", LIMIT);
            List<String> screen = render(pty.output());
            String[] cursor = screen.getLast().split(" ");
            int row = Integer.parseInt(cursor[1]);
            String shown = String.join("\n", screen);
            assertTrue(row >= 3 && screen.get(row).equals(">"), shown);
            assertEquals(List.of("aii: run this command?", "  rm -rf victim", "  [y] yes once   [N] no"),
                    screen.subList(row - 3, row), shown);
            pty.type("n\n");
            assertEquals(0, pty.awaitExit(LIMIT), pty.output());
        }
        assertTrue(Files.isDirectory(dir.resolve("victim")));
        // the hostile command ran, and the real prompt's answer was no
        assertEquals("exit 0\n\nDenied: the user declined to run this command. Do not retry it.\n",
                Files.readString(dir.resolve("result")));
    }

    /** The screen as pyte shows the bytes, and last its cursor line. */
    private static List<String> render(String shown) throws Exception {
        Process p = new ProcessBuilder(PYTHON, Path.of("src/test/resources/dev/aii/testkit/render.py").toString())
                .redirectErrorStream(true).start();
        try (var in = p.getOutputStream()) {
            in.write(shown.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "pyte did not finish");
        assertEquals(0, p.exitValue(), "pyte (Debian's python3-pyte) failed: " + out);
        return List.of(out.split("\n", -1)).subList(0, out.split("\n", -1).length - 1);
    }

    private static List<String> javaCommand() {
        String classPath = Stream.of(System.getProperty("jdk.module.path", ""), System.getProperty("java.class.path", ""))
                .flatMap(p -> Stream.of(p.split(File.pathSeparator)))
                .filter(p -> !p.isEmpty())
                .collect(Collectors.joining(File.pathSeparator));
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-cp", classPath, ApprovalMain.class.getName());
    }
}
