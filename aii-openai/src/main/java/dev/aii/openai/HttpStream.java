package dev.aii.openai;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One streaming POST over a connection of its own (HTTP/1.1,
 * {@code Connection: close}), read through a {@link BodyDecoder} so that no
 * byte the server sent is lost when the connection breaks. Each read waits at
 * most the idle time; {@link #close()} from another thread stops a read in
 * progress.
 */
final class HttpStream implements AutoCloseable {

    /** The longest response head accepted. */
    private static final int MAX_HEAD = 64 * 1024;

    private volatile Socket socket;
    private InputStream in;
    private int status;
    private final Map<String, List<String>> headers = new LinkedHashMap<>();
    private BodyDecoder body;
    private boolean framed;

    private volatile boolean closed;

    /** A stream not yet connected; {@link #close()} works from now on. */
    HttpStream() {
        this.socket = new Socket();
    }

    /**
     * A stream whose connecting, writing and reading an interrupt of the
     * thread stops (a {@link java.nio.channels.ClosedByInterruptException}),
     * as a socket channel's are.
     */
    static HttpStream interruptible() throws IOException {
        return new HttpStream(java.nio.channels.SocketChannel.open().socket());
    }

    private HttpStream(Socket socket) {
        this.socket = socket;
    }

    /**
     * Connects and sends the request; {@link #awaitHead} then waits for the
     * answer. A {@link #close()} meanwhile makes this fail.
     */
    void post(URI uri, Map<String, String> requestHeaders, RequestBody body, Duration connectTimeout)
            throws IOException {
        send("POST", uri, requestHeaders, body, connectTimeout);
    }

    /**
     * Connects and sends a request with {@code method}, with a body when
     * {@code body} is not null.
     */
    void send(String method, URI uri, Map<String, String> requestHeaders, RequestBody body, Duration connectTimeout)
            throws IOException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IOException("not an http:// or https:// URL: " + uri);
        }
        if (uri.getHost() == null) {
            throw new IOException("no host in " + uri);
        }
        boolean tls = scheme.equals("https");
        int port = uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80;
        try {
            socket.connect(new InetSocketAddress(uri.getHost(), port), (int) Math.min(Integer.MAX_VALUE,
                    Math.max(1, connectTimeout.toMillis())));
            socket.setTcpNoDelay(true);
            if (tls) {
                // The handshake is part of connecting: a server that never answers it gets the connect time.
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, connectTimeout.toMillis())));
                SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                        .createSocket(socket, uri.getHost(), port, true);
                SSLParameters parameters = ssl.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                ssl.setSSLParameters(parameters);
                socket = ssl;
                if (closed) {
                    ssl.close();
                }
            }
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            write(method, uri, port, tls, requestHeaders, body);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void write(String method, URI uri, int port, boolean tls, Map<String, String> requestHeaders,
            RequestBody body) throws IOException {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        boolean defaultPort = port == (tls ? 443 : 80);
        String host = uri.getHost().contains(":") && !uri.getHost().startsWith("[") ? "[" + uri.getHost() + "]" : uri.getHost();
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(defaultPort ? "" : ":" + port).append("\r\n");
        requestHeaders.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(body.length()).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        try {
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                body.writeTo(out);
            }
            out.flush();
        } catch (IOException e) {
            // A server may answer (413, 400) and close before reading all of a large body: its answer still counts.
            if (socket.isClosed()) {
                throw e;
            }
        }
    }

    /**
     * Waits up to {@code wait} for the status line and headers (an interim
     * 1xx answer is skipped).
     *
     * @throws SocketTimeoutException when nothing came in time
     */
    void awaitHead(Duration wait) throws IOException {
        setWait(wait);
        do {
            headers.clear();
            readHead();
        } while (status >= 100 && status < 200);
        List<String> encoding = headers.getOrDefault("transfer-encoding", List.of());
        Optional<String> length = header("Content-Length");
        framed = true;
        if (encoding.stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).contains("chunked"))) {
            body = BodyDecoder.chunked(in);
        } else if (length.isPresent() && length.get().strip().matches("[0-9]{1,18}")) {
            body = BodyDecoder.ofLength(in, Long.parseLong(length.get().strip()));
        } else {
            body = BodyDecoder.untilClose(in);
            framed = false;
        }
    }

    private void readHead() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<String> lines = new ArrayList<>();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException(lines.isEmpty() && bytes.size() == 0
                        ? "the server closed the connection without answering"
                        : "the connection closed in the middle of the response head");
            }
            if (b == '\n') {
                String line = bytes.toString(StandardCharsets.ISO_8859_1);
                bytes.reset();
                if (line.endsWith("\r")) {
                    line = line.substring(0, line.length() - 1);
                }
                if (line.isEmpty()) {
                    if (lines.isEmpty()) {
                        continue;   // stray blank lines before a status line
                    }
                    break;
                }
                lines.add(line);
            } else {
                bytes.write(b);
            }
            if (bytes.size() + lines.stream().mapToInt(String::length).sum() > MAX_HEAD) {
                throw new IOException("the response head is longer than " + MAX_HEAD + " bytes");
            }
        }
        String[] statusLine = lines.get(0).split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/") || !statusLine[1].matches("[0-9]{3}")) {
            throw new IOException("not an HTTP response: " + ServerErrors.excerpt(lines.get(0)));
        }
        status = Integer.parseInt(statusLine[1]);
        for (String line : lines.subList(1, lines.size())) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(line.substring(colon + 1).strip());
            }
        }
    }

    int status() {
        return status;
    }

    /** Whether the body's end is marked (chunked, or a length), rather than the connection's close. */
    boolean framed() {
        return framed;
    }

    Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /**
     * Body bytes: at least one, or -1 at the end. Waits at most the time of
     * the last {@link #setWait}.
     *
     * @throws SocketTimeoutException when nothing came in time
     */
    int read(byte[] buffer) throws IOException {
        return body.read(buffer);
    }

    /** How long each later read may wait. */
    void setWait(Duration wait) throws IOException {
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, wait.toMillis())));
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing is how a read is stopped; a failure to close changes nothing
        }
    }
}
