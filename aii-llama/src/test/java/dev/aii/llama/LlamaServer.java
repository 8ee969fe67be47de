package dev.aii.llama;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code llama-server} on a loopback port, serving one of the test
 * models: started with the flags the scenario needs, ready once
 * {@code GET /health} answers 200, its log in a file beside the model.
 */
final class LlamaServer implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path log;
    private final String alias;

    private LlamaServer(Process process, int port, Path log, String alias) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.alias = alias;
    }

    /**
     * Starts {@code binary} on {@code model}, named {@code alias}, with
     * {@code flags} after the common ones ({@code --jinja} unless the flags
     * say {@code --no-jinja}, one thread).
     */
    static LlamaServer start(Path binary, Path model, String alias, List<String> flags, Path logDir)
            throws IOException, InterruptedException {
        int port = freePort();
        List<String> argv = new ArrayList<>(List.of(binary.toString(), "-m", model.toString(), "--alias", alias,
                "--host", "127.0.0.1", "--port", Integer.toString(port), "-t", "1", "--no-webui"));
        if (!flags.contains("--no-jinja")) {
            argv.add("--jinja");
        }
        argv.addAll(flags);
        Path log = logDir.resolve(alias + "-" + port + ".log");
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LlamaServer server = new LlamaServer(process, port, log, alias);
        server.await(200, String.join(" ", argv));
        return server;
    }

    /** Starts as {@link #start} does, but returns as soon as the server answers 503 while it loads its model. */
    static LlamaServer startLoading(Path binary, Path model, String alias, Path logDir)
            throws IOException, InterruptedException {
        int port = freePort();
        List<String> argv = List.of(binary.toString(), "-m", model.toString(), "--alias", alias,
                "--host", "127.0.0.1", "--port", Integer.toString(port), "-t", "1", "--no-webui", "--jinja");
        Path log = logDir.resolve(alias + "-" + port + ".log");
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LlamaServer server = new LlamaServer(process, port, log, alias);
        server.await(503, String.join(" ", argv));
        return server;
    }

    private void await(int status, String command) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new AssertionError("llama-server ended with " + process.exitValue() + ": " + command + "\n"
                            + Files.readString(log));
                }
                try {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(rootUrl() + "/health"))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == status) {
                        return;
                    }
                    if (r.statusCode() == 200) {
                        throw new AssertionError("llama-server was ready before it could be seen loading: " + command);
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                Thread.sleep(50);
            }
        }
        close();
        throw new AssertionError("llama-server did not answer " + status + " within " + READY + ": " + command + "\n"
                + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    String rootUrl() {
        return "http://127.0.0.1:" + port;
    }

    String alias() {
        return alias;
    }

    Path log() {
        return log;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
