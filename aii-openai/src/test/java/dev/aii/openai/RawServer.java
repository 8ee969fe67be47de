package dev.aii.openai;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A loopback server that answers each connection's first request with
 * scripted raw bytes: whatever status line, headers, chunk framing and
 * timing a test needs, down to a connection closed in the middle of a chunk
 * header or reset. It records each request (head and body) as text.
 */
final class RawServer implements AutoCloseable {

    /** What to do on one connection, step by step. */
    static final class Script {
        private final List<Object> steps = new ArrayList<>();
        private Ending ending = Ending.CLOSE;

        enum Ending { CLOSE, RESET, STALL }

        Script bytes(byte[] b) {
            steps.add(b.clone());
            return this;
        }

        Script text(String s) {
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        Script pause(Duration d) {
            steps.add(d);
            return this;
        }

        /** Ends by resetting the connection (RST) instead of closing it. */
        Script reset() {
            ending = Ending.RESET;
            return this;
        }

        /** Ends by keeping the connection open, silent, until the server closes. */
        Script stall() {
            ending = Ending.STALL;
            return this;
        }
    }

    private final ServerSocket socket;
    private final BlockingQueue<Script> scripts = new LinkedBlockingQueue<>();
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile boolean closed;

    private RawServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("raw-server").start(this::accept);
    }

    static RawServer start() throws IOException {
        return new RawServer();
    }

    RawServer enqueue(Script... next) {
        scripts.addAll(List.of(next));
        return this;
    }

    String baseUrl() {
        return rootUrl() + "/v1";
    }

    String rootUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    List<String> requests() {
        return List.copyOf(requests);
    }

    /** A backend that talks to this server for model {@code m} with a fixed context, so only chats come here. */
    OpenAiBackend backend(Timeouts timeouts) {
        return new OpenAiBackend(OpenAiConfig.fromEnvironment(Map.of("AII_BASE_URL", baseUrl(), "AII_MODEL", "m",
                "AII_CONTEXT_SIZE", "4096")).orElseThrow(), timeouts);
    }

    /** A whole HTTP/1.1 response head: status line, the headers, a blank line. */
    static String head(int status, String... headers) {
        StringBuilder b = new StringBuilder("HTTP/1.1 " + status + " " + reason(status) + "\r\n");
        for (String h : headers) {
            b.append(h).append("\r\n");
        }
        return b.append("\r\n").toString();
    }

    /** {@code payload} as one chunk of chunked transfer coding. */
    static String chunk(String payload) {
        int n = payload.getBytes(StandardCharsets.UTF_8).length;
        return Integer.toHexString(n) + "\r\n" + payload + "\r\n";
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 307 -> "Temporary Redirect";
            case 400 -> "Bad Request";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = socket.accept();
                open.add(s);
                Thread.ofPlatform().daemon().name("raw-connection").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            requests.add(readRequest(s.getInputStream()));
            Script script = scripts.poll(10, TimeUnit.SECONDS);
            if (script == null) {
                return;
            }
            OutputStream out = s.getOutputStream();
            for (Object step : script.steps) {
                if (step instanceof byte[] b) {
                    out.write(b);
                    out.flush();
                } else if (step instanceof Duration d) {
                    if (closing.await(d.toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                }
            }
            switch (script.ending) {
                case RESET -> s.setSoLinger(true, 0);
                case STALL -> closing.await();
                case CLOSE -> s.shutdownOutput();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away: nothing more to serve
        }
    }

    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                return head.toString(StandardCharsets.UTF_8);
            }
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
        String text = head.toString(StandardCharsets.UTF_8);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        closing.countDown();
        socket.close();
        synchronized (open) {
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
