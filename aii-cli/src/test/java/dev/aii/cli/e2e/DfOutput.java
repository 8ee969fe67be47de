package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.testkit.Programs;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What {@code df -h} says, run the way aii runs a command (stdin
 * {@code /dev/null}, stdout and stderr in one pipe, aii's environment and
 * directory), as the tool result the model gets for it.
 *
 * <p>Other programs on the machine write to its disks while a test runs, so
 * the figures may move between two runs of {@code df}: the result must be
 * exactly what {@code df -h} said just before or just after aii ran it, or,
 * when the disks changed meanwhile, the same table (header, file systems,
 * sizes' places, mount points) with other figures.
 *
 * @param result {@code exit <status>} and a LF, then the output, cut after 2048 bytes as aii cuts it
 */
record DfOutput(String result) {

    private static final int CAP = 2048;
    private static final Pattern FIGURE = Pattern.compile("[0-9][0-9.,]*[KMGTPEZYRQ]?%?|-");

    static DfOutput now(AiiProcess aii) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(Programs.path("df"), "-h")
                .directory(aii.directory().toFile())
                .redirectInput(new File("/dev/null"))
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(aii.environment());
        Process df = builder.start();
        byte[] out = df.getInputStream().readAllBytes();
        if (!df.waitFor(30, TimeUnit.SECONDS)) {
            df.destroyForcibly();
            throw new AssertionError("df -h did not end");
        }
        return new DfOutput("exit " + df.exitValue() + "\n" + capped(out));
    }

    /** The output as aii reports it: the first 2048 bytes, decoded leniently, and a note when there was more. */
    private static String capped(byte[] out) {
        if (out.length <= CAP) {
            return new String(out, StandardCharsets.UTF_8);
        }
        return new String(Arrays.copyOf(out, CAP), StandardCharsets.UTF_8)
                + "\n[output truncated: " + out.length + " bytes, showing first " + CAP + "]";
    }

    static void assertSameTable(DfOutput before, DfOutput after, String actual) {
        if (actual.equals(before.result()) || actual.equals(after.result())) {
            return;
        }
        assertEquals(masked(before.result()), masked(actual),
                "the tool result is not what df -h says: before " + before.result() + "\nafter " + after.result());
    }

    /** Each line as its words, every figure replaced by {@code #}. */
    private static List<String> masked(String text) {
        return text.lines()
                .map(line -> Arrays.stream(line.trim().split("\\s+"))
                        .map(word -> FIGURE.matcher(word).matches() ? "#" : word)
                        .collect(Collectors.joining(" ")))
                .toList();
    }
}
