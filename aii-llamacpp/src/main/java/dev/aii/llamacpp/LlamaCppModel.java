package dev.aii.llamacpp;

import dev.aii.llamacpp.chat.InProcessSession;
import dev.aii.llamacpp.chat.KvCache;
import dev.aii.llamacpp.engine.Chat;
import dev.aii.llamacpp.engine.Context;
import dev.aii.llamacpp.engine.Model;
import dev.aii.llamacpp.engine.NativeFailure;
import dev.aii.llamacpp.engine.Natives;
import dev.aii.llamacpp.engine.Threads;
import dev.aii.llamacpp.engine.Turn;
import dev.aii.model.Availability;
import dev.aii.model.ErrorCode;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A GGUF model run in this process by llama.cpp, as a {@link LanguageModel}.
 * The first {@link #availability()} loads the libraries, the model, its chat
 * template and a context; what cannot be loaded is its answer. The context is
 * the model's trained one, at most {@value #DEFAULT_CONTEXT_CAP} tokens, unless
 * {@code AII_CONTEXT_SIZE} says otherwise (or Ollama's {@code num_ctx} does).
 *
 * {@snippet :
 * try (LlamaCppModel model = LlamaCppModel.open(ModelFile.of(Path.of("qwen.gguf")), System.getenv())) {
 *     model.availability().problem().ifPresent(p -> { throw new IllegalStateException(p); });
 *     try (Session session = model.openSession(SessionOptions.plain())) {
 *         session.respond("Hello", System.out::print);
 *     }
 * }
 * }
 */
public final class LlamaCppModel implements LanguageModel {

    /** The largest context chosen by default, whatever the model was trained with. */
    public static final int DEFAULT_CONTEXT_CAP = 8192;

    private static final String TRIAL = "[{\"role\":\"user\",\"content\":\"Hello\"}]";

    private final ModelFile file;
    private final Map<String, String> environment;
    private Availability availability;
    private Model model;
    private Chat chat;
    private Context context;
    private KvCache cache;

    private LlamaCppModel(ModelFile file, Map<String, String> environment) {
        this.file = file;
        this.environment = Map.copyOf(environment);
    }

    /** The model in {@code file}; nothing is loaded before {@link #availability()}. */
    public static LlamaCppModel open(ModelFile file, Map<String, String> environment) {
        return new LlamaCppModel(Objects.requireNonNull(file, "file"), Objects.requireNonNull(environment, "environment"));
    }

    public ModelFile file() {
        return file;
    }

    @Override
    public synchronized Availability availability() {
        if (availability == null) {
            availability = load();
        }
        return availability;
    }

    private Availability load() {
        if (!Files.isRegularFile(file.path())) {
            return Availability.unavailable(new ModelException(ErrorCode.UNAVAILABLE_MODEL, "Cannot load the model "
                    + Problems.shown(file) + "\n" + (Files.isDirectory(file.path()) ? "it is a directory, not a file"
                            : "there is no such file"), "no regular file at " + file.path()));
        }
        try {
            Natives.load(environment, "1".equals(environment.get("AII_DEBUG")));
        } catch (NativeFailure e) {
            return Availability.unavailable(ModelException.internal(e.getMessage(), e.detail(), e));
        }
        try {
            model = Model.load(file.path());
            chat = Chat.of(model);
            try (Turn trial = chat.render(TRIAL, Optional.empty())) {
                // A template that cannot render one message is found now, before any prompt is lost to it.
            }
            context = Context.create(model, contextTokens(model.trainedContext()), Threads.choose(environment));
            cache = new KvCache(context);
            return Availability.available();
        } catch (NativeFailure e) {
            close();
            return Availability.unavailable(Problems.cannotLoad(file, e));
        }
    }

    /** The context to make: AII_CONTEXT_SIZE, else the source's, else the trained one capped. */
    int contextTokens(int trained) {
        OptionalInt asked = positive(environment.get("AII_CONTEXT_SIZE"));
        if (asked.isPresent()) {
            return asked.getAsInt();
        }
        if (file.contextSize().isPresent()) {
            return file.contextSize().getAsInt();
        }
        return trained > 0 ? Math.min(trained, DEFAULT_CONTEXT_CAP) : DEFAULT_CONTEXT_CAP;
    }

    private static OptionalInt positive(String value) {
        try {
            int n = value == null ? 0 : Integer.parseInt(value.strip());
            return n > 0 ? OptionalInt.of(n) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    @Override
    public synchronized int contextSize() {
        return context != null ? context.size() : contextTokens(0);
    }

    @Override
    public synchronized OptionalInt countTokens(String text) {
        return model == null ? OptionalInt.empty() : OptionalInt.of(model.tokenize(text, false).size());
    }

    /** The file, llama.cpp's description of it (architecture, size, quantisation), and that it runs here. */
    @Override
    public synchronized String variant() {
        String described = model == null ? "" : model.description();
        return Problems.shown(file) + " (" + (described.isEmpty() ? "GGUF" : described) + ", in process)";
    }

    @Override
    public Optional<List<String>> supportedLanguages() {
        return Optional.empty();
    }

    @Override
    public synchronized Session openSession(SessionOptions options) throws ModelException {
        Optional<ModelException> problem = availability().problem();
        if (problem.isPresent()) {
            throw problem.get();
        }
        if (!options.tools().isEmpty() && !chat.supportsTools()) {
            throw new ModelException(ErrorCode.UNAVAILABLE_MODEL, "The model " + Problems.shown(file)
                    + " cannot call tools: its chat template has no tool calls\n"
                    + "leave -x out for this model, or run one that calls tools", "the chat template does not "
                            + "render tools (llama.cpp's template capabilities)");
        }
        return new InProcessSession(cache, chat, options, file.stops());
    }

    @Override
    public synchronized void close() {
        if (context != null) {
            context.close();
            context = null;
        }
        if (chat != null) {
            chat.close();
            chat = null;
        }
        if (model != null) {
            model.close();
            model = null;
        }
    }
}
