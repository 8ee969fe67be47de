package dev.aii.ffm;

import dev.aii.ffm.fm.Host;
import dev.aii.ffm.fm.Languages;
import dev.aii.ffm.fm.Reason;
import dev.aii.ffm.fm.Shim;
import dev.aii.ffm.fm.ShimLoader;
import dev.aii.model.Availability;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * Apple's on-device Foundation Models (macOS 26+) as a {@link LanguageModel},
 * reached through the shim library {@code libfmshim}.
 *
 * <p>The library is the file {@code AII_SHIM_LIBRARY} names, when it is set
 * (and then only that file); otherwise it is looked for next to the installed
 * jars (the directory of aii-ffm's jar and its {@code ../lib}), then on
 * {@code java.library.path}. It is loaded on first use. On a system other
 * than macOS the backend is unavailable unless {@code AII_SHIM_LIBRARY} is
 * set. Native calls need {@code --enable-native-access=dev.aii.ffm}.
 *
 * <p>The context size is the framework's; when it reports none (a shim built
 * without the macOS 26.4 SDK) or 0 (macOS 27 while its model gets ready), the
 * size is unknown: {@link #contextSize()} gives the window of the running
 * macOS's model ({@value #FALLBACK_CONTEXT_SIZE} tokens on macOS 26,
 * {@value #FALLBACK_CONTEXT_SIZE_MACOS_27} from macOS 27 on) and
 * {@link #countTokens} counts nothing, so that no prompt is ever refused on a
 * guess. A size once reported is kept for the life of the backend.
 *
 * <p>Sessions stream into the sink only text that extends what it already
 * received: when the framework rewrites its answer (a RESET), a new segment
 * is passed on whole, and a rewrite of text already passed on is not repeated
 * (only what goes beyond it follows). The sink and the tool run on the thread
 * that called {@code respond}; a callback the shim makes from any other thread
 * reaches neither and fails the answer with {@code internal_error}. An
 * exception thrown by the sink ends the answer and is rethrown unchanged.
 *
 * {@snippet :
 * try (LanguageModel model = FoundationModelsBackend.fromEnvironment(System.getenv())) {
 *     model.availability().problem().ifPresent(problem -> { throw new IllegalStateException(problem); });
 *     try (Session session = model.openSession(SessionOptions.plain())) {
 *         session.respond("Say hello", System.out::print);
 *     }
 * }
 * }
 */
public final class FoundationModelsBackend implements LanguageModel {

    /** The context window shown when the framework does not report one: the window of macOS 26's model. */
    public static final int FALLBACK_CONTEXT_SIZE = 4096;

    /** The context window shown from macOS 27 on when the framework does not report one yet. */
    public static final int FALLBACK_CONTEXT_SIZE_MACOS_27 = 8192;

    private final Map<String, String> environment;
    private final Host host;
    private boolean attempted;
    private Shim shim;
    private ModelException problem;
    private int reportedContextSize;

    FoundationModelsBackend(Map<String, String> environment, Host host) {
        this.environment = Map.copyOf(environment);
        this.host = Objects.requireNonNull(host, "host");
    }

    /** The backend configured by {@code environment} ({@code AII_SHIM_LIBRARY}), on this JVM's host. */
    public static FoundationModelsBackend fromEnvironment(Map<String, String> environment) {
        return new FoundationModelsBackend(environment, Host.current());
    }

    @Override
    public Availability availability() {
        Reason reason;
        try {
            reason = shim().availability();
        } catch (ModelException why) {
            return Availability.unavailable(why);
        }
        return switch (reason) {
            case AVAILABLE -> Availability.available();
            case DEVICE_NOT_ELIGIBLE -> Availability.unavailable(host.isMacOs()
                    ? ModelException.notSupportedOnThisDevice(reason.caseName())
                    : ModelException.notSupportedOnThisSystem());
            case NOT_ENABLED -> Availability.unavailable(ModelException.notEnabled(reason.caseName()));
            case MODEL_NOT_READY -> Availability.unavailable(ModelException.downloading(reason.caseName()));
            case UNKNOWN -> Availability.unavailable(ModelException.unknownUnavailability(reason.caseName()));
        };
    }

    @Override
    public int contextSize() {
        OptionalInt reported = reportedContextSize();
        if (reported.isPresent()) {
            return reported.getAsInt();
        }
        return host.versionAtLeast(27, 0) ? FALLBACK_CONTEXT_SIZE_MACOS_27 : FALLBACK_CONTEXT_SIZE;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Empty while the framework reports no context size: a count is only
     * worth making against a window that is known.
     */
    @Override
    public OptionalInt countTokens(String text) throws ModelException {
        Objects.requireNonNull(text, "text");
        Optional<Shim> shim = loadedShim();
        OptionalInt contextSize = reportedContextSize();
        if (shim.isEmpty() || contextSize.isEmpty()) {
            return OptionalInt.empty();
        }
        OptionalLong count = shim.get().tokenCount(text, contextSize.getAsInt());
        return count.isEmpty() ? OptionalInt.empty() : OptionalInt.of((int) Math.min(Integer.MAX_VALUE, count.getAsLong()));
    }

    /**
     * The framework's variant name (macOS 27+), else {@code AFM macOS 26.4} on
     * macOS 26.4 and later, else {@code AFM macOS 26.0–26.3}.
     */
    @Override
    public String variant() {
        Optional<String> named = loadedShim().flatMap(Shim::variant).filter(v -> !v.isBlank());
        if (named.isPresent()) {
            return named.get();
        }
        return host.versionAtLeast(26, 4) ? "AFM macOS 26.4" : "AFM macOS 26.0\u201326.3";
    }

    @Override
    public Optional<List<String>> supportedLanguages() {
        return loadedShim().flatMap(Shim::supportedLanguagesJson).flatMap(Languages::fromJson);
    }

    @Override
    public Session openSession(SessionOptions options) throws ModelException {
        Objects.requireNonNull(options, "options");
        if (options.tools().size() > 1) {
            throw ModelException.internal("A Foundation Models session offers at most one tool",
                    options.tools().stream().map(ToolSpec::name).collect(Collectors.joining(", ")), null);
        }
        return shim().openSession(options.instructions(), options.tools().stream().findFirst(), contextSize());
    }

    /** The framework's context size, asked until it reports one and then kept; empty while unknown. */
    private synchronized OptionalInt reportedContextSize() {
        if (reportedContextSize == 0) {
            OptionalLong size = loadedShim().map(Shim::contextSize).orElse(OptionalLong.empty());
            if (size.isPresent() && size.getAsLong() > 0) {
                reportedContextSize = (int) Math.min(Integer.MAX_VALUE, size.getAsLong());
            }
        }
        return reportedContextSize > 0 ? OptionalInt.of(reportedContextSize) : OptionalInt.empty();
    }

    private Optional<Shim> loadedShim() {
        try {
            return Optional.of(shim());
        } catch (ModelException why) {
            return Optional.empty();
        }
    }

    /** The shim, loaded on first use; the reason there is none otherwise. */
    private synchronized Shim shim() throws ModelException {
        if (!attempted) {
            attempted = true;
            try {
                shim = load();
            } catch (ModelException e) {
                problem = e;
            }
        }
        if (shim == null) {
            throw problem;
        }
        return shim;
    }

    private Shim load() throws ModelException {
        if (ShimLoader.configured(environment).isEmpty()) {
            if (!host.isMacOs()) {
                throw ModelException.notSupportedOnThisSystem();
            }
            if (!host.versionAtLeast(26, 0)) {
                throw ModelException.notSupportedOnThisDevice(
                        "macOS " + host.osVersion() + " has no Foundation Models; it needs macOS 26 or newer");
            }
        }
        // start-up idiom: instanceof, not a pattern switch (DEVELOPERS.md)
        ShimLoader.Result outcome = ShimLoader.load(environment, host);
        if (outcome instanceof ShimLoader.Loaded ok) {
            return ok.shim();
        }
        throw ((ShimLoader.Failed) outcome).problem();
    }
}
