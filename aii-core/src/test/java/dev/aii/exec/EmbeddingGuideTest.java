package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import dev.aii.policy.ExecPolicy;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/embedding.md compiles, runs and prints what the guide says it prints. */
class EmbeddingGuideTest {

    private static final Path GUIDE = Path.of("..", "docs", "embedding.md");

    @TempDir
    Path work;

    @Test
    void theGuidesExampleCompilesRunsAndPrintsWhatTheGuideShows() throws Exception {
        String guide = Files.readString(GUIDE);
        int after = guide.lastIndexOf("```java\n", guide.indexOf("public class GateDemo"));
        String source = block(guide, "```java\n", after);
        int stdoutBlock = guide.indexOf("```text\n", after);
        String expectedOut = block(guide, "```text\n", stdoutBlock);
        String expectedErr = block(guide, "```text\n", guide.indexOf("```text\n", stdoutBlock + 1));

        Path src = Files.createDirectories(work.resolve("src"));
        Files.writeString(src.resolve("GateDemo.java"), source);
        Path classes = Files.createDirectories(work.resolve("classes"));
        String classpath = String.join(File.pathSeparator, location(ExecPolicy.class), location(JsonFactory.class));
        Path javaHome = Path.of(System.getProperty("java.home"));

        Result compiled = run(work, javaHome.resolve("bin/javac").toString(), "-d", classes.toString(),
                "-cp", classpath, src.resolve("GateDemo.java").toString());
        assertEquals(0, compiled.exit, compiled.err);

        Path cwd = Files.createDirectories(work.resolve("cwd"));
        Result ran = run(cwd, javaHome.resolve("bin/java").toString(),
                "-cp", classes + File.pathSeparator + classpath, "GateDemo", work.resolve("allow").toString());
        assertEquals(0, ran.exit, ran.err);
        assertEquals(expectedOut, ran.out);
        assertEquals(expectedErr, ran.err);
        assertEquals(false, Files.exists(cwd.resolve("notes.txt")), "the declined touch must not have run");
    }

    /** The content of the fenced block that opens with {@code fence} at or after {@code from}. */
    private static String block(String text, String fence, int from) {
        int start = text.indexOf(fence, from) + fence.length();
        int end = text.indexOf("```\n", start);
        return text.substring(start, end);
    }

    private static String location(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(dir.toFile()).start();
        p.getOutputStream().close();
        byte[][] captured = new byte[2][];
        Thread readOut = Thread.ofPlatform().start(() -> captured[0] = readAll(p.getInputStream()));
        Thread readErr = Thread.ofPlatform().start(() -> captured[1] = readAll(p.getErrorStream()));
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + String.join(" ", command));
        }
        readOut.join();
        readErr.join();
        return new Result(p.exitValue(), new String(captured[0], StandardCharsets.UTF_8),
                new String(captured[1], StandardCharsets.UTF_8));
    }

    private static byte[] readAll(java.io.InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            return new byte[0];
        }
    }
}
