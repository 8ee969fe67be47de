package dev.aii.openai;

import dev.aii.model.Availability;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.TextSink;
import java.time.Duration;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A {@link LanguageModel} served by an OpenAI-compatible chat completions
 * server: Ollama, llama.cpp's {@code llama-server}, LM Studio, vLLM, apfel.
 *
 * {@snippet :
 * OpenAiConfig config = OpenAiConfig.fromEnvironment(System.getenv()).orElseThrow();
 * try (OpenAiBackend model = OpenAiBackend.create(config)) {
 *     Availability availability = model.availability();   // GET <base>/models
 *     if (availability.isAvailable()) {
 *         try (Session session = model.openSession(SessionOptions.plain())) {
 *             session.respond("Hello", System.out::print);
 *         }
 *     }
 * }
 * }
 */
public final class OpenAiBackend implements LanguageModel {

    /** The context window assumed when neither the environment nor the server names one. */
    public static final int DEFAULT_CONTEXT_SIZE = 4096;

    private final OpenAiConfig config;
    private final Timeouts timeouts;
    private final Endpoints endpoints;
    private final ServerHttp http;
    private final ContextProbe probe;
    private final Tokenizer tokenizer;

    private final Object lock = new Object();
    private ModelListing listing;
    private String model;
    private int contextSize;

    OpenAiBackend(OpenAiConfig config, Timeouts timeouts) {
        this.config = Objects.requireNonNull(config, "config");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.endpoints = new Endpoints(config.baseUrl());
        this.http = new ServerHttp(timeouts.connect(), config.apiKey());
        this.probe = new ContextProbe(http, endpoints, timeouts);
        this.tokenizer = new Tokenizer(http, endpoints, timeouts);
    }

    /** A backend for the server {@code config} names; nothing is sent before the first call. */
    public static OpenAiBackend create(OpenAiConfig config) {
        StreamPrimer.prime();
        return new OpenAiBackend(config, Timeouts.defaults().withIdle(config.timeout()));
    }

    public OpenAiConfig config() {
        return config;
    }

    /** The host of the base URL, as the warning about non-loopback servers names it. */
    public String host() {
        return config.host();
    }

    /**
     * Whether the base URL names this machine ({@code localhost}, 127.0.0.0/8,
     * {@code ::1}). When it does not and the model may run commands, their
     * output leaves the machine, which the command line warns about.
     */
    public boolean isLoopback() {
        return config.isLoopback();
    }

    /**
     * Lists the server's models within 5 s and picks one: {@code AII_MODEL}
     * when listed, else the only model.
     */
    @Override
    public Availability availability() {
        return availability(piece -> { });
    }

    /**
     * As {@link #availability()}; a server that answers 503 (llama.cpp while
     * it loads its model) or 429 with {@code Retry-After} is waited for, as
     * chat requests wait, and {@code notes} hears of each wait.
     */
    @Override
    public Availability availability(TextSink notes) {
        Patience patience = new Patience(timeouts.patience());
        while (true) {
            Listed listed = listModels();
            Availability a = listed.availability();
            Optional<ServerBusy> busy = listed.busy();
            Optional<Duration> wait = busy.flatMap(patience::next);
            if (wait.isEmpty()) {
                return a;
            }
            notes.waiting(busy.get().reason(), wait.get());
            try {
                Thread.sleep(wait.get().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return a;
            }
        }
    }

    /** What one {@code GET /models} found, and whether the server said it was busy. */
    private record Listed(Availability availability, Optional<ServerBusy> busy) {

        Listed(Availability availability) {
            this(availability, Optional.empty());
        }
    }

    private Listed listModels() {
        ServerHttp.Answer answer;
        try {
            answer = http.get(endpoints.models(), timeouts.availability());
        } catch (Redirects.Refused e) {
            return new Listed(Availability.unavailable(ChatStream.refusedRedirect(e)));
        } catch (IOException e) {
            ModelException problem = ModelException.serverUnreachable(config.baseUrl(),
                    "GET " + endpoints.models() + ": " + ServerErrors.describe(e, timeouts.availability()));
            return new Listed(Availability.unavailable(BaseUrlHints.ofFailure(config.baseUrl(), e)
                    .map(problem::withHint).orElse(problem)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Listed(Availability.unavailable(ModelException.serverUnreachable(config.baseUrl(),
                    "GET " + endpoints.models() + ": interrupted")));
        } catch (IllegalArgumentException e) {
            // No scheme (localhost:11434/v1), another scheme, a space: the URL names no server to reach.
            ModelException problem = ModelException.serverUnreachable(config.baseUrl(),
                    "GET " + config.baseUrl() + "/models: not an http:// or https:// URL: " + e.getMessage());
            return new Listed(Availability.unavailable(BaseUrlHints.ofUrl(config.baseUrl())
                    .map(problem::withHint).orElse(problem)));
        }
        if (!answer.ok()) {
            Optional<String> said = ServerErrors.serverMessage(answer.body());
            ModelException problem = ModelException.serverUnreachable(config.baseUrl(),
                    "GET " + endpoints.models() + ": HTTP " + answer.status() + ": " + ServerErrors.excerpt(answer.body()));
            Optional<String> hint = answer.status() == 404 ? notFoundHint() : Optional.empty();
            problem = hint.map(problem::withHint).orElse(problem).withServerMessage(said.orElse(null));
            return new Listed(Availability.unavailable(problem), ServerBusy.of(answer.status(), answer.retryAfter(),
                    problem, "HTTP " + answer.status() + said.map(m -> ": " + ServerErrors.excerpt(m)).orElse(""),
                    java.time.Clock.systemUTC()));
        }
        Optional<ModelListing> parsed = ModelListing.parse(answer.body());
        if (parsed.isEmpty()) {
            return new Listed(Availability.unavailable(ModelException.serverUnreachable(config.baseUrl(),
                    "GET " + endpoints.models() + ": not an OpenAI model list: " + ServerErrors.excerpt(answer.body()))));
        }
        try {
            String chosen = parsed.get().choose(config.model(), config.baseUrl());
            synchronized (lock) {
                listing = parsed.get();
                model = chosen;
            }
            return new Listed(Availability.available());
        } catch (ModelException e) {
            return new Listed(Availability.unavailable(e));
        }
    }

    /**
     * Why {@code <base>/models} is not found: the base URL names the chat
     * endpoint, or lacks the {@code /v1} under which the server lists its
     * models (asked once, within {@link LocalServers#ANSWER_LIMIT}).
     */
    private Optional<String> notFoundHint() {
        Optional<String> fromUrl = BaseUrlHints.ofUrl(config.baseUrl());
        if (fromUrl.isPresent()) {
            return fromUrl;
        }
        return LocalServers.listsModels(http, java.net.URI.create(config.baseUrl() + "/v1/models"))
                ? Optional.of(BaseUrlHints.didYouMean(config.baseUrl() + "/v1")) : Optional.empty();
    }

    /**
     * {@code AII_CONTEXT_SIZE}; else what the server states: its model entry
     * ({@code context_window}, {@code max_model_len}, {@code context_length}),
     * llama.cpp's {@code /props}, Ollama's {@code /api/show}; else
     * {@value #DEFAULT_CONTEXT_SIZE}. Asked once, then remembered.
     */
    @Override
    public int contextSize() {
        if (config.contextSize().isPresent()) {
            return config.contextSize().getAsInt();
        }
        synchronized (lock) {
            if (contextSize == 0) {
                contextSize = discoverContextSize();
            }
            return contextSize;
        }
    }

    private int discoverContextSize() {
        Optional<String> name = resolvedModel();
        if (name.isPresent() && listing != null) {
            OptionalInt stated = listing.contextSizeOf(name.get());
            if (stated.isPresent()) {
                return stated.getAsInt();
            }
        }
        OptionalInt found = probe.llamaCpp();
        if (found.isEmpty() && name.isPresent()) {
            found = probe.ollama(name.get());
        }
        return found.orElse(DEFAULT_CONTEXT_SIZE);
    }

    /**
     * Through llama.cpp's {@code /tokenize}; empty, and not asked again, when
     * the server has none. Only a server whose {@code /props} answered as
     * llama.cpp's does is asked, so that a large prompt is not posted to a
     * server that cannot count it.
     */
    @Override
    public OptionalInt countTokens(String text) throws ModelException {
        if (!probe.isLlamaCpp()) {
            return OptionalInt.empty();
        }
        return tokenizer.count(text);
    }

    /** {@code <model> via <base URL>}. */
    @Override
    public String variant() {
        return resolvedModel().orElse(ModelListing.UNCHOSEN) + " via " + config.baseUrl();
    }

    /** OpenAI-compatible servers do not say which languages their model supports. */
    @Override
    public Optional<List<String>> supportedLanguages() {
        return Optional.empty();
    }

    @Override
    public Session openSession(SessionOptions options) throws ModelException {
        Objects.requireNonNull(options, "options");
        Optional<String> name = chosenModel().or(config::model);
        if (name.isEmpty()) {
            Availability availability = availability();
            if (!availability.isAvailable()) {
                throw availability.problem().orElseThrow();
            }
            name = chosenModel();
        }
        return new ChatSession(http, endpoints, timeouts, this::contextSize, name.orElseThrow(), options);
    }

    /** The model chosen by {@link #availability()}, else {@code AII_MODEL}; listing the models when neither is known. */
    private Optional<String> resolvedModel() {
        Optional<String> known = chosenModel().or(config::model);
        if (known.isPresent()) {
            return known;
        }
        availability();
        return chosenModel();
    }

    /**
     * The model {@link #availability()} chose ({@code AII_MODEL}, or the
     * server's only model); empty until it has chosen one.
     */
    public Optional<String> chosenModel() {
        synchronized (lock) {
            return Optional.ofNullable(model);
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
