package dev.aii.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Java program given as source (the examples of the guides), compiled and
 * run by a JDK of the test's choice as a separate process.
 *
 * {@snippet :
 * Path jdk17 = Jdks.home(17);
 * JavaProgram demo = JavaProgram.fromGuide(Path.of("../docs/embedding.md"), "GateDemo");
 * Path classes = demo.compile(jdk17, work, classpath);
 * JavaProgram.Result result = demo.run(jdk17, cwd, classes, classpath, Map.of(), "allow");
 * }
 */
public final class JavaProgram {

    private static final Pattern CLASS = Pattern.compile("(?m)^public (?:final )?class (\\w+)");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");

    private final String className;
    private final String source;

    /** What a run left: its exit status and its two output streams, as UTF-8 text. */
    public record Result(int exit, String out, String err) {
    }

    private JavaProgram(String className, String source) {
        this.className = className;
        this.source = source;
    }

    /**
     * The {@code ```java} block of {@code guide} that declares {@code public class <className>}
     * ({@code className} with its package, if the block has one: {@code demo.SpringDemo}).
     *
     * @throws AssertionError when the guide has no such block
     */
    public static JavaProgram fromGuide(Path guide, String className) throws IOException {
        String text = Files.readString(guide);
        int at = 0;
        while ((at = text.indexOf("```java\n", at)) >= 0) {
            int start = at + "```java\n".length();
            int end = text.indexOf("\n```\n", start);
            String block = text.substring(start, end + 1);
            Matcher m = CLASS.matcher(block);
            Matcher p = PACKAGE.matcher(block);
            if (m.find() && (p.find() ? p.group(1) + "." + m.group(1) : m.group(1)).equals(className)) {
                return new JavaProgram(className, block);
            }
            at = end;
        }
        throw new AssertionError(guide + " has no ```java block declaring public class " + className);
    }

    public String className() {
        return className;
    }

    public String source() {
        return source;
    }

    /** Compiles the program with {@code jdk}'s javac against {@code classpath}; returns the classes directory. */
    public Path compile(Path jdk, Path work, List<Path> classpath) throws IOException, InterruptedException {
        Path file = work.resolve("src").resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        Path classes = Files.createDirectories(work.resolve("classes"));
        Result compiled = exec(work, Map.of(), List.of(jdk.resolve("bin/javac").toString(), "-encoding", "UTF-8",
                "-d", classes.toString(), "-cp", join(classpath), file.toString()));
        if (compiled.exit() != 0) {
            throw new AssertionError("javac of " + jdk + " failed on " + className + ":\n" + compiled.err());
        }
        return classes;
    }

    /** Runs the compiled program with {@code jdk}'s java, in {@code cwd}, with these variables added. */
    public Result run(Path jdk, Path cwd, Path classes, List<Path> classpath, Map<String, String> env,
            String... args) throws IOException, InterruptedException {
        List<Path> path = new ArrayList<>();
        path.add(classes);
        path.addAll(classpath);
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/java").toString(), "-cp", join(path), className));
        command.addAll(List.of(args));
        return exec(cwd, env, command);
    }

    /** Runs {@code command} in {@code dir}, stdin empty, and waits for it (two minutes at most, to catch a hang). */
    public static Result exec(Path dir, Map<String, String> env, List<String> command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().putAll(env);
        Process p = builder.start();
        p.getOutputStream().close();
        byte[][] captured = new byte[2][];
        Thread out = Thread.ofPlatform().start(() -> captured[0] = readAll(p.getInputStream()));
        Thread err = Thread.ofPlatform().start(() -> captured[1] = readAll(p.getErrorStream()));
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("did not finish within 2 minutes: " + String.join(" ", command));
        }
        out.join();
        err.join();
        return new Result(p.exitValue(), new String(captured[0], StandardCharsets.UTF_8),
                new String(captured[1], StandardCharsets.UTF_8));
    }

    /**
     * The class path this test JVM was started with, as separate entries
     * (Surefire's own booter jar left out): what an example needs beside its classes.
     */
    public static List<Path> testClassPath() {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<Path> out = new ArrayList<>();
        for (String entry : path.split(File.pathSeparator)) {
            if (!entry.isEmpty() && !entry.contains("surefire")) {
                out.add(Path.of(entry));
            }
        }
        return out;
    }

    private static String join(List<Path> paths) {
        return String.join(File.pathSeparator, paths.stream().map(Path::toString).toList());
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
