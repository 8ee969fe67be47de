package dev.aii.llamacpp;

import dev.aii.testkit.gguf.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The constructed models of the suite, written once per JVM into
 * {@code target/test-models}, with llama.cpp's Qwen2.5 template (Hermes tool
 * calls) from the source tree the shim was built against; and the
 * environment that points the backend at the libraries the build left.
 */
final class TestModels {

    static final Path NATIVES = Path.of(System.getProperty("aii.test.llamacpp.dir", "target/natives"));
    static final Path BUILD = Path.of(System.getProperty("aii.test.llamacpp.build", "target/llamacpp"));
    private static final Path DIR = BUILD.resolveSibling("test-models");
    private static final Map<String, Path> WRITTEN = new HashMap<>();

    private TestModels() {
    }

    /** llama.cpp's template {@code name} (a file of its models/templates). */
    static String template(String name) throws IOException {
        return Files.readString(BUILD.resolve("templates").resolve(name));
    }

    /** The template the test models carry. */
    static String qwen() throws IOException {
        return template("Qwen-Qwen2.5-7B-Instruct.jinja");
    }

    /** {@code script}'s model with the Qwen template. */
    static synchronized Path file(TinyModel.Script script) throws IOException {
        Path file = WRITTEN.get(script.name());
        if (file == null) {
            Files.createDirectories(DIR);
            file = DIR.resolve(script.name() + ".gguf");
            new TinyModel(script).write(file, qwen());
            WRITTEN.put(script.name(), file);
        }
        return file;
    }

    /** The directory of this platform's libraries. */
    static Path libraries() throws IOException {
        try (var dirs = Files.list(NATIVES)) {
            return dirs.filter(Files::isDirectory).findFirst()
                    .orElseThrow(() -> new AssertionError("no platform directory in " + NATIVES));
        }
    }

    /** The environment of a test: the libraries, one thread, nothing of the user's. */
    static Map<String, String> environment(String... more) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("AII_LLAMACPP_DIR", libraries().toString());
        env.put("AII_THREADS", "1");
        env.put("HOME", DIR.toAbsolutePath().toString());
        for (int i = 0; i + 1 < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }
}
