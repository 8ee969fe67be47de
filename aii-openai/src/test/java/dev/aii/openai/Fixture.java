package dev.aii.openai;

import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.FakeOpenAiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Backends pointed at a fake server, with timeouts short enough for tests. */
final class Fixture {

    /** Long enough never to fire by accident on a busy machine, short enough to test the idle path. */
    static final Duration TEST_IDLE = Duration.ofSeconds(2);

    private Fixture() {
    }

    static OpenAiBackend backend(FakeOpenAiServer server) {
        return backend(server, Map.of());
    }

    /** A backend with {@code AII_BASE_URL} at the server plus {@code env}. */
    static OpenAiBackend backend(FakeOpenAiServer server, Map<String, String> env) {
        return backend(server, env, Timeouts.defaults());
    }

    static OpenAiBackend backend(FakeOpenAiServer server, Map<String, String> env, Timeouts timeouts) {
        Map<String, String> all = new HashMap<>(env);
        all.put("AII_BASE_URL", server.baseUrl());
        return new OpenAiBackend(OpenAiConfig.fromEnvironment(all).orElseThrow(), timeouts);
    }

    static OpenAiBackend backend(String baseUrl, Timeouts timeouts) {
        return new OpenAiBackend(OpenAiConfig.fromEnvironment(Map.of("AII_BASE_URL", baseUrl)).orElseThrow(), timeouts);
    }

    static SessionOptions tools(ToolSpec... specs) {
        return new SessionOptions(Optional.empty(), List.of(specs));
    }

    /** Sends one prompt and returns the pieces the sink received. */
    static List<String> respond(Session session, String prompt) throws ModelException {
        List<String> pieces = new ArrayList<>();
        session.respond(prompt, pieces::add);
        return pieces;
    }
}
