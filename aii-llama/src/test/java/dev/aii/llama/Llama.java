package dev.aii.llama;

import dev.aii.testkit.gguf.TinyModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real servers of the suite, shared by all its test classes in one JVM:
 * the llama-server binary that {@code llama-server.sh} built (the build runs
 * it before the tests; a missing binary fails every test), the test models
 * written into {@code target/llama-models}, and one server per model and
 * flags, each behind its own recording proxy.
 */
final class Llama {

    /** A server and the proxy in front of it. */
    record Served(LlamaServer server, Proxy proxy) {

        /** {@code AII_BASE_URL}: through the proxy. */
        String baseUrl() {
            return proxy.baseUrl();
        }
    }

    private static final Path SCRIPT = Path.of(System.getProperty("aii.llama.script", "llama-server.sh")).toAbsolutePath();
    private static final Path WORK = Path.of(System.getProperty("aii.llama.work", "target/llama")).toAbsolutePath();

    private static Path binary;
    private static String template;
    private static final Map<String, Path> MODELS = new HashMap<>();
    private static final Map<String, Served> SERVERS = new HashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Llama::stopAll));
    }

    private Llama() {
    }

    /** A running server for {@code script} started with {@code flags}; the same one for the same arguments. */
    static synchronized Served serve(TinyModel.Script script, String... flags) throws Exception {
        String key = script.name() + " " + String.join(" ", flags);
        Served served = SERVERS.get(key);
        if (served != null && served.server().isAlive()) {
            served.proxy().reset();
            return served;
        }
        Path model = model(script);
        LlamaServer server = LlamaServer.start(binary(), model, script.name(), List.of(flags), WORK);
        served = new Served(server, new Proxy(server.port()));
        SERVERS.put(key, served);
        return served;
    }

    /** A new server for {@code script}, returned while it still loads its model (not shared; close it). */
    static Served loading(TinyModel.Script script) throws Exception {
        LlamaServer server = LlamaServer.startLoading(binary(), model(script), script.name(), WORK);
        return new Served(server, new Proxy(server.port()));
    }

    private static synchronized Path model(TinyModel.Script script) throws Exception {
        Path file = MODELS.get(script.name());
        if (file == null) {
            Files.createDirectories(WORK);
            file = WORK.resolve(script.name() + ".gguf");
            new TinyModel(script).write(file, template());
            MODELS.put(script.name(), file);
        }
        return file;
    }

    /** The binary, as {@code llama-server.sh --check} names it: built already, or the tests fail. */
    static synchronized Path binary() throws IOException, InterruptedException {
        if (binary == null) {
            Process p = new ProcessBuilder("sh", SCRIPT.toString(), "--check").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new AssertionError("llama-server is not built (" + out + "); the build makes it with "
                        + "sh " + SCRIPT + " (about 15 minutes the first time)");
            }
            binary = Path.of(out.lines().reduce((a, b) -> b).orElseThrow());
        }
        return binary;
    }

    /** llama.cpp's Qwen2.5 chat template (Hermes-style tool calls), kept by the build beside the binary. */
    private static String template() throws IOException, InterruptedException {
        if (template == null) {
            template = Files.readString(binary().getParent().getParent().resolve("share/Qwen-Qwen2.5-7B-Instruct.jinja"));
        }
        return template;
    }

    private static synchronized void stopAll() {
        List<Served> all = new ArrayList<>(SERVERS.values());
        for (Served s : all) {
            try {
                s.proxy().close();
            } catch (IOException e) {
                // shutting down anyway
            }
            s.server().close();
        }
    }
}
