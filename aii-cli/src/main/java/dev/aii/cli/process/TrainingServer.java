package dev.aii.cli.process;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The model server of the prompt path's training run ({@link Training}): an
 * OpenAI-compatible server on a loopback port that lists one model and
 * answers every chat request at once, with a {@code run_command} call of
 * {@code pwd} when tools are offered and no tool result came back yet, else
 * with a short text, streamed as servers stream it (server-sent events in
 * chunked transfer encoding). Everything else is 404. It exists so that the
 * run takes, in one JVM, the code a real answer takes; it is no test double
 * (aii-testkit has the server the tests use).
 */
final class TrainingServer implements AutoCloseable {

    static final String MODEL = "training-model";

    private final ServerSocket socket;

    private TrainingServer(ServerSocket socket) {
        this.socket = socket;
    }

    /** Starts serving on an ephemeral loopback port, on daemon threads. */
    static TrainingServer start() throws IOException {
        TrainingServer server = new TrainingServer(new ServerSocket(0, 8, InetAddress.getLoopbackAddress()));
        Thread accepting = new Thread(server::accept, "aii-training-server");
        accepting.setDaemon(true);
        accepting.start();
        return server;
    }

    /** {@code http://127.0.0.1:<port>/v1}. */
    String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                Thread serving = new Thread(() -> serve(connection), "aii-training-connection");
                serving.setDaemon(true);
                serving.start();
            } catch (IOException e) {
                return;   // closed
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            InputStream in = new BufferedInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String lower = head.toLowerCase(Locale.ROOT);
                byte[] body = in.readNBytes(contentLength(lower));
                String requestLine = head.substring(0, head.indexOf('\r'));
                respond(requestLine, new String(body, StandardCharsets.UTF_8), out);
                if (lower.contains("\r\nconnection: close")) {
                    return;
                }
            }
        } catch (IOException e) {
            // The client went away: nothing to answer.
        }
    }

    private static void respond(String requestLine, String body, OutputStream out) throws IOException {
        if (requestLine.startsWith("GET ") && requestLine.contains("/v1/models ")) {
            send(out, "200 OK", "application/json", "{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL
                    + "\",\"object\":\"model\",\"created\":0,\"owned_by\":\"aii\"}]}");
        } else if (requestLine.startsWith("POST ") && requestLine.contains("/v1/chat/completions ")) {
            boolean callTool = body.contains("\"tools\"") && !body.contains("\"role\":\"tool\"");
            String delta = callTool
                    ? "{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_0\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"run_command\",\"arguments\":"
                            + "\"{\\\"executable\\\":\\\"pwd\\\",\\\"arguments\\\":[]}\"}}]}"
                    : "{\"role\":\"assistant\",\"content\":\"Hello.\\nHere it is.\"}";
            String finish = callTool ? "tool_calls" : "stop";
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            chunk(out, event("{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":null}"));
            chunk(out, event("{\"index\":0,\"delta\":{},\"finish_reason\":\"" + finish + "\"}"));
            chunk(out, "data: [DONE]\n\n");
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } else {
            send(out, "404 Not Found", "text/plain", "not here");
        }
    }

    private static String event(String choice) {
        return "data: {\"id\":\"chatcmpl-0\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"" + MODEL
                + "\",\"choices\":[" + choice + "]}\n\n";
    }

    private static void chunk(OutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static void send(OutputStream out, String status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + "\r\nContent-Type: " + type + "\r\nContent-Length: " + bytes.length
                + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
    }

    /** The request line and headers up to the blank line, or null at the end of the connection. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int c;
        while ((c = in.read()) >= 0) {
            head.write(c);
            matched = (c == '\r' && (matched == 0 || matched == 2)) || (c == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : c == '\r' ? 1 : 0;
            if (matched == 4) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static int contentLength(String lowerHead) {
        int at = lowerHead.indexOf("\r\ncontent-length:");
        if (at < 0) {
            return 0;
        }
        int end = lowerHead.indexOf('\r', at + 2);
        return Integer.parseInt(lowerHead.substring(at + "\r\ncontent-length:".length(), end).strip());
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
