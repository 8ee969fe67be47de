package dev.aii.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A 50 MB line without a line feed, fed to the repetition detector in a JVM
 * whose heap is 16 MB: it must get through (keeping one object per character,
 * as the detector once did, needs gigabytes), and still see the repetition
 * that follows. The heap bound makes the check exact without measuring time
 * or memory in this JVM.
 */
class RepetitionMemoryTest {

    @Test
    void aFiftyMegabyteLineFitsInASixteenMegabyteHeap() throws Exception {
        String classes = Path.of("target/classes").toAbsolutePath() + File.pathSeparator
                + Path.of("target/test-classes").toAbsolutePath();
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx16m", "-XX:+UseSerialGC", "-Xshare:auto", "-cp", classes, LongLineMain.class.getName(), "50000000"))
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the child JVM did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertEquals("fed 50000000 repeating true\n", out);
    }
}
