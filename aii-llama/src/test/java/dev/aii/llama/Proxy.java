package dev.aii.llama;

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
import java.util.concurrent.CountDownLatch;
import java.util.function.ToIntFunction;

/**
 * A recording TCP proxy on loopback between aii and llama-server: what aii
 * sends and what the server answers go through byte for byte, and are kept
 * per connection. For the chat stream it can also play a broken network: cut
 * the connection at a point of the server's answer, or hold the answer back.
 */
final class Proxy implements AutoCloseable {

    /** One connection: what the client sent and what it was given, as far as it got. */
    static final class Connection {
        final ByteArrayOutputStream request = new ByteArrayOutputStream();
        final ByteArrayOutputStream response = new ByteArrayOutputStream();

        synchronized String requestText() {
            return request.toString(StandardCharsets.UTF_8);
        }

        synchronized byte[] responseBytes() {
            return response.toByteArray();
        }

        boolean isChat() {
            return requestText().startsWith("POST /v1/chat/completions ");
        }
    }

    /**
     * Where to cut a chat answer: given the answer's bytes so far, the number
     * of bytes to let through before the connection is closed, or -1 while
     * that cannot be told yet.
     */
    interface Cut extends ToIntFunction<byte[]> {
    }

    private final ServerSocket socket;
    private final int upstreamPort;
    private final List<Connection> connections = Collections.synchronizedList(new ArrayList<>());
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Cut cut;
    private final java.util.concurrent.atomic.AtomicInteger cuts = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean hold;
    private volatile Duration pace = Duration.ZERO;

    Proxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("proxy-accept").start(this::accept);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
    }

    /** Forgets what was recorded and any fault: the next run starts clean. */
    void reset() {
        connections.clear();
        cut = null;
        hold = false;
        pace = Duration.ZERO;
    }

    /** Cuts every chat answer as {@code where} says. */
    void cut(Cut where) {
        cut(where, Integer.MAX_VALUE);
    }

    /** Cuts the next {@code times} chat answers as {@code where} says; later ones pass. */
    void cut(Cut where, int times) {
        this.cuts.set(times);
        this.cut = where;
    }

    /** Holds every chat answer back: the server answers, the client hears nothing. */
    void hold() {
        this.hold = true;
    }

    /** Waits {@code delay} before passing on each piece the server sends in a chat answer. */
    void pace(Duration delay) {
        this.pace = delay;
    }

    List<Connection> connections() {
        synchronized (connections) {
            return List.copyOf(connections);
        }
    }

    /** Every request aii sent, in order, parsed. */
    List<Recorded> requests() {
        List<Recorded> all = new ArrayList<>();
        for (Connection c : connections()) {
            all.addAll(Recorded.parse(c.requestText()));
        }
        return all;
    }

    List<Recorded> chatRequests() {
        return requests().stream().filter(r -> r.path().equals("/v1/chat/completions")).toList();
    }

    private void accept() {
        while (true) {
            try {
                Socket client = socket.accept();
                open.add(client);
                Thread.ofPlatform().daemon().name("proxy-connection").start(() -> serve(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        Connection c = new Connection();
        connections.add(c);
        try (client; Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            open.add(upstream);
            Thread up = Thread.ofPlatform().daemon().name("proxy-up").start(() -> pump(client, upstream, c));
            down(upstream, client, c);
            up.join(1000);
        } catch (IOException | InterruptedException e) {
            // one side went away: the connection is over
        }
    }

    /** Client to server: passed on as it comes, recorded. */
    private static void pump(Socket client, Socket upstream, Connection c) {
        byte[] buffer = new byte[65536];
        try (InputStream in = client.getInputStream(); OutputStream out = upstream.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (c) {
                    c.request.write(buffer, 0, n);
                }
                out.write(buffer, 0, n);
                out.flush();
            }
            upstream.shutdownOutput();
        } catch (IOException e) {
            // closed
        }
    }

    /** Server to client: passed on, unless this is a chat answer to cut, hold back or slow down. */
    private void down(Socket upstream, Socket client, Connection c) throws IOException, InterruptedException {
        byte[] buffer = new byte[65536];
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        InputStream in = upstream.getInputStream();
        OutputStream out = client.getOutputStream();
        int forwarded = 0;
        Cut where = null;
        boolean decided = false;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            seen.write(buffer, 0, n);
            boolean chat = c.isChat();
            if (chat && hold) {
                closing.await();
                return;
            }
            if (chat && !pace.isZero() && closing.await(pace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                return;
            }
            byte[] all = seen.toByteArray();
            int limit = all.length;
            if (!decided) {
                decided = true;
                where = chat && cut != null && cuts.getAndDecrement() > 0 ? cut : null;
            }
            int at = where == null ? -1 : where.applyAsInt(all);
            if (at >= 0) {
                limit = Math.min(limit, at);
            }
            if (limit > forwarded) {
                out.write(all, forwarded, limit - forwarded);
                out.flush();
                synchronized (c) {
                    c.response.write(all, forwarded, limit - forwarded);
                }
                forwarded = limit;
            }
            if (at >= 0 && forwarded >= at) {
                client.shutdownOutput();
                return;
            }
        }
        client.shutdownOutput();
    }

    @Override
    public void close() throws IOException {
        closing.countDown();
        socket.close();
        synchronized (open) {
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
