package dev.aii.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * A loopback OpenAI-compatible server that plays scripted answers and
 * records every request: {@code GET /v1/models}, {@code POST
 * /v1/chat/completions} (one {@link Reply} per request, in order: streamed
 * when the request says {@code "stream": true}, else as one JSON object), and on
 * demand llama.cpp's {@code GET /props} and {@code POST /tokenize} and
 * Ollama's {@code POST /api/show}; anything else is 404.
 *
 * {@snippet :
 * try (FakeOpenAiServer server = FakeOpenAiServer.start()) {   // lists one model, "fake-model"
 *     server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", "{\"executable\":\"df\",\"arguments\":[\"-h\"]}"),
 *                    Reply.text("Plenty of room."));
 *     // run aii with AII_BASE_URL=server.baseUrl() ...
 *     assertEquals(List.of("exit 0\n..."), server.lastChatRequest().toolResults());
 * }
 * }
 *
 * <p>A chat request with no reply left gets HTTP 500 with a body saying so.
 */
public final class FakeOpenAiServer implements AutoCloseable {

    /** The model the server lists unless told otherwise. */
    public static final String DEFAULT_MODEL = "fake-model";

    private static final String CHAT = "/v1/chat/completions";

    private final ObjectMapper mapper = JsonMapper.builder().build();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    private final Map<String, Duration> delays = new ConcurrentHashMap<>();
    private final AtomicInteger callIds = new AtomicInteger();
    private final AtomicInteger completions = new AtomicInteger();
    private volatile Answer models;
    private volatile Answer props;
    private volatile Answer ollamaShow;
    private volatile ToIntFunction<String> tokenizer;
    private volatile Answer tokenize;
    private volatile java.util.function.Consumer<String> frameListener = frame -> { };

    private record Answer(int status, String body) {
    }

    private FakeOpenAiServer(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        models(DEFAULT_MODEL);
    }

    /** Starts a server on an ephemeral loopback port. */
    public static FakeOpenAiServer start() throws IOException {
        FakeOpenAiServer fake = new FakeOpenAiServer(0);
        fake.server.start();
        return fake;
    }

    /**
     * Starts a server on {@code port} of 127.0.0.1, e.g. Ollama's 11434, for
     * tests of what finds a server there.
     *
     * @throws IllegalStateException naming the port when something else holds it: such a test cannot run
     *         beside a real server, and must say so rather than pass
     */
    public static FakeOpenAiServer startOn(int port) throws IOException {
        FakeOpenAiServer fake;
        try {
            fake = new FakeOpenAiServer(port);
        } catch (java.net.BindException e) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is in use (a model server such as Ollama "
                    + "or llama-server running?); this test needs it free: " + e.getMessage(), e);
        }
        fake.server.start();
        return fake;
    }

    /** {@code http://127.0.0.1:<port>/v1}: what {@code AII_BASE_URL} should be. */
    public String baseUrl() {
        return rootUrl() + "/v1";
    }

    /** {@code http://127.0.0.1:<port>}: where the native endpoints are. */
    public String rootUrl() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * A base URL on a loopback port where nothing listens (it was free a
     * moment ago): for "server down" tests.
     */
    public static String unreachableBaseUrl() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
        }
    }

    /** {@code AII_BASE_URL} pointing here, for a child process's environment. */
    public Map<String, String> environment() {
        return Map.of("AII_BASE_URL", baseUrl());
    }

    // --- scripting ---------------------------------------------------------------------------

    /** Adds answers for the next chat requests, one each, in order. */
    public synchronized FakeOpenAiServer enqueue(Reply... next) {
        for (Reply r : next) {
            replies.addLast(Objects.requireNonNull(r, "reply"));
        }
        return this;
    }

    /** The models {@code GET /v1/models} lists (none is fine). */
    public FakeOpenAiServer models(String... ids) {
        ObjectNode list = mapper.createObjectNode().put("object", "list");
        ArrayNode data = list.putArray("data");
        for (String id : ids) {
            data.addObject().put("id", id).put("object", "model").put("created", 1_767_225_600L).put("owned_by", "fake");
        }
        models = new Answer(200, write(list));
        return this;
    }

    /** What {@code GET /v1/models} answers, exactly. */
    public FakeOpenAiServer modelsAnswer(int status, String body) {
        models = new Answer(status, Objects.requireNonNull(body, "body"));
        return this;
    }

    /** Serves llama.cpp's {@code GET /props} with this context size. */
    public FakeOpenAiServer props(int contextSize) {
        ObjectNode json = mapper.createObjectNode();
        json.putObject("default_generation_settings").put("n_ctx", contextSize).put("model", "fake.gguf");
        json.put("total_slots", 1).put("build_info", "fake");
        return propsAnswer(200, write(json));
    }

    /** What {@code GET /props} answers, exactly. */
    public FakeOpenAiServer propsAnswer(int status, String body) {
        props = new Answer(status, Objects.requireNonNull(body, "body"));
        return this;
    }

    /** Serves Ollama's {@code POST /api/show} stating this architecture and trained context length. */
    public FakeOpenAiServer ollamaShow(String architecture, int contextLength) {
        ObjectNode json = mapper.createObjectNode();
        json.put("modelfile", "FROM fake").put("parameters", "stop                           \"<|eot_id|>\"");
        json.putObject("details").put("family", architecture);
        json.putObject("model_info").put("general.architecture", architecture)
                .put(architecture + ".context_length", contextLength).put(architecture + ".embedding_length", 4096);
        return ollamaShowAnswer(200, write(json));
    }

    /** What {@code POST /api/show} answers, exactly. */
    public FakeOpenAiServer ollamaShowAnswer(int status, String body) {
        ollamaShow = new Answer(status, Objects.requireNonNull(body, "body"));
        return this;
    }

    /** Serves llama.cpp's {@code POST /tokenize}: {@code count} says how many tokens a text is. */
    public FakeOpenAiServer tokenizer(ToIntFunction<String> count) {
        tokenizer = Objects.requireNonNull(count, "count");
        return this;
    }

    /** What {@code POST /tokenize} answers, exactly, whatever the text. */
    public FakeOpenAiServer tokenizeAnswer(int status, String body) {
        tokenize = new Answer(status, Objects.requireNonNull(body, "body"));
        return this;
    }

    /**
     * Calls {@code listener} with each frame of a streamed chat answer just
     * before its bytes are written: a timing hook for measurements (e.g. the
     * time from the first text frame to the client's output).
     */
    public FakeOpenAiServer onFrame(java.util.function.Consumer<String> listener) {
        frameListener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** Waits this long before answering any request for {@code path}, e.g. {@code /v1/models}. */
    public FakeOpenAiServer delay(String path, Duration wait) {
        delays.put(path, wait);
        return this;
    }

    // --- what was received -------------------------------------------------------------------

    /** Every request so far, in the order they arrived. */
    public synchronized List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** The requests for one path. */
    public List<RecordedRequest> requests(String path) {
        return requests().stream().filter(r -> r.path().equals(path)).toList();
    }

    /** The chat completion requests so far: one per round of the model. */
    public List<RecordedRequest> chatRequests() {
        return requests(CHAT);
    }

    /**
     * Waits until at least {@code count} chat requests have arrived, e.g.
     * before pressing Ctrl-C in a terminal test.
     *
     * @throws AssertionError when they have not arrived within {@code timeout}
     */
    public List<RecordedRequest> awaitChatRequests(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (requests.stream().filter(r -> r.path().equals(CHAT)).count() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("expected " + count + " chat requests within " + timeout + ", got "
                            + requests.stream().filter(r -> r.path().equals(CHAT)).count());
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
        return chatRequests();
    }

    public RecordedRequest lastChatRequest() {
        List<RecordedRequest> chats = chatRequests();
        if (chats.isEmpty()) {
            throw new AssertionError("no chat request was received");
        }
        return chats.getLast();
    }

    // --- serving -----------------------------------------------------------------------------

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Map<String, List<String>> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
            synchronized (this) {
                requests.add(new RecordedRequest(method, path, headers, body));
                notifyAll();
            }
            Duration wait = delays.get(path);
            if (wait != null && closing.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
            switch (method + " " + path) {
                case "GET /v1/models" -> send(exchange, models);
                case "GET /props" -> send(exchange, props);
                case "POST /api/show" -> send(exchange, ollamaShow);
                case "POST /tokenize" -> tokenize(exchange, body);
                case "POST " + CHAT -> chat(exchange, body);
                default -> send(exchange, null);
            }
        } catch (IOException e) {
            // the client went away, which is what several scripts are about
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void tokenize(HttpExchange exchange, String body) throws IOException {
        ToIntFunction<String> count = tokenizer;
        if (count == null) {
            send(exchange, tokenize);
            return;
        }
        String content = parse(body).path("content").asText("");
        ObjectNode json = mapper.createObjectNode();
        ArrayNode tokens = json.putArray("tokens");
        for (int i = 0, n = count.applyAsInt(content); i < n; i++) {
            tokens.add(1000 + i);
        }
        send(exchange, new Answer(200, write(json)));
    }

    private void chat(HttpExchange exchange, String body) throws IOException, InterruptedException {
        Reply reply;
        synchronized (this) {
            reply = replies.pollFirst();
        }
        if (reply == null) {
            send(exchange, new Answer(500,
                    "{\"error\":{\"message\":\"FakeOpenAiServer: no scripted reply left\",\"type\":\"server_error\"}}"));
            return;
        }
        if (reply.body != null) {
            send(exchange, new Answer(reply.status, reply.body));
            return;
        }
        JsonNode request = parse(body);
        String model = request.path("model").asText(DEFAULT_MODEL);
        String id = "chatcmpl-fake-" + completions.incrementAndGet();
        if (!request.path("stream").asBoolean(false)) {
            answerWhole(exchange, reply, model, id);
            return;
        }
        ChunkWriter writer = new ChunkWriter(mapper, reply.wire, model, id, () -> "fake_call_" + callIds.incrementAndGet());
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        // a declared length that is never reached makes the server cut the connection when the exchange closes
        exchange.sendResponseHeaders(200, reply.ending == Reply.Ending.ABORT ? 1 << 24 : 0);
        OutputStream out = exchange.getResponseBody();
        for (Reply.Step step : reply.steps) {
            switch (step) {
                case Reply.Text t -> write(out, writer.text(t.text()));
                case Reply.Calls c -> write(out, writer.calls(c.calls()));
                case Reply.Finish f -> write(out, writer.finish(f.reason()));
                case Reply.Event e -> write(out, List.of("data: " + e.data() + "\n\n"));
                case Reply.Raw r -> write(out, List.of(r.text()));
                case Reply.Pause p -> {
                    if (closing.await(p.duration().toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                }
                case Reply.Hold h -> {
                    if (!h.gate().awaitRelease(closing)) {
                        return;
                    }
                }
            }
        }
        switch (reply.ending) {
            case DONE -> write(out, writer.done());
            case STALL -> closing.await();
            case DROP, ABORT -> {
            }
        }
    }

    /** A request without {@code "stream": true} gets the reply as one JSON object, after the reply's pauses. */
    private void answerWhole(HttpExchange exchange, Reply reply, String model, String id)
            throws IOException, InterruptedException {
        for (Reply.Step step : reply.steps) {
            if (step instanceof Reply.Pause p && closing.await(p.duration().toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        }
        Optional<String> whole = CompletionWriter.whole(mapper, reply, model, id,
                () -> "fake_call_" + callIds.incrementAndGet());
        send(exchange, whole.map(json -> new Answer(200, json)).orElse(new Answer(500,
                "{\"error\":{\"message\":\"FakeOpenAiServer: this scripted reply can only be streamed\","
                        + "\"type\":\"server_error\"}}")));
    }

    private void write(OutputStream out, List<String> frames) throws IOException {
        for (String frame : frames) {
            frameListener.accept(frame);
            out.write(frame.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    private static void send(HttpExchange exchange, Answer answer) throws IOException {
        Answer a = answer == null ? new Answer(404, "404 page not found") : answer;
        byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
        boolean json = a.body().startsWith("{") || a.body().startsWith("[");
        exchange.getResponseHeaders().set("Content-Type", json ? "application/json" : "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(a.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    private JsonNode parse(String body) {
        try {
            JsonNode node = mapper.readTree(body);
            return node == null ? mapper.createObjectNode() : node;
        } catch (JsonProcessingException e) {
            return mapper.createObjectNode();
        }
    }

    private String write(JsonNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Ends stalled and paused answers, then stops the server. */
    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
