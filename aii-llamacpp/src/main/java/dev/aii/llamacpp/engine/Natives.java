package dev.aii.llamacpp.engine;

import dev.aii.llamacpp.bindings.aiillama_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Finds and loads llama.cpp's libraries and the shim, once per JVM. When
 * {@code AII_LLAMACPP_DIR} is set, the directory it names is the only place
 * tried; otherwise {@code llamacpp/} beside the jar of this module and in its
 * {@code ../lib}. The shim's RUNPATH finds libllama and ggml beside it, and
 * ggml's backends are loaded from the same directory. A failure names every
 * place tried.
 */
public final class Natives {

    /** The environment variable naming the directory of the libraries. */
    public static final String ENVIRONMENT_VARIABLE = "AII_LLAMACPP_DIR";

    private static Path loaded;
    private static List<String> failedBefore;

    private Natives() {
    }

    /** The shim's file name on this system. */
    static String shimFileName() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        return os.startsWith("mac") || os.contains("darwin") ? "libaiillama.dylib" : "libaiillama.so";
    }

    /**
     * Loads the libraries (the first call does; later calls return what it did).
     *
     * @param echoLog whether llama.cpp's log goes to stderr too
     * @return the directory the libraries came from
     * @throws NativeFailure naming every place tried, when none worked
     */
    public static synchronized Path load(Map<String, String> environment, boolean echoLog) throws NativeFailure {
        if (loaded != null) {
            return loaded;
        }
        if (failedBefore != null) {
            throw failure(failedBefore);
        }
        List<String> tried = new ArrayList<>();
        for (Path dir : places(environment)) {
            Optional<String> why = tryLoad(dir, echoLog);
            if (why.isEmpty()) {
                loaded = dir;
                return dir;
            }
            tried.add(dir + ": " + why.get());
            if (why.get().startsWith("loaded, but")) {
                break;      // a library is loaded for good: another directory would mix two builds
            }
        }
        failedBefore = List.copyOf(tried);
        throw failure(tried);
    }

    private static NativeFailure failure(List<String> tried) {
        StringBuilder message = new StringBuilder("Cannot load llama.cpp's libraries");
        tried.forEach(line -> message.append("\ntried ").append(line));
        return new NativeFailure(Status.INTERNAL, message.toString(), String.join("; ", tried));
    }

    /** The directories to try, in order. */
    static List<Path> places(Map<String, String> environment) {
        String configured = environment.get(ENVIRONMENT_VARIABLE);
        if (configured != null && !configured.isEmpty()) {
            return List.of(Path.of(configured).toAbsolutePath().normalize());
        }
        List<Path> places = new ArrayList<>();
        jarDirectory().ifPresent(dir -> {
            places.add(dir.resolve("llamacpp").normalize());
            Path lib = dir.resolve("../lib/llamacpp").normalize();
            if (!places.contains(lib)) {
                places.add(lib);
            }
        });
        return places;
    }

    private static Optional<String> tryLoad(Path dir, boolean echoLog) {
        Path shim = dir.resolve(shimFileName());
        if (!Files.isRegularFile(shim)) {
            return Optional.of(Files.isDirectory(dir) ? "no " + shimFileName() + " in it" : "no such directory");
        }
        try {
            System.load(shim.toString());
        } catch (UnsatisfiedLinkError | SecurityException e) {
            return Optional.of(String.valueOf(e.getMessage()));
        }
        try {
            int version = aiillama_h.aiillama_abi_version();
            if (version != aiillama_h.AIILLAMA_ABI_VERSION()) {
                return Optional.of("loaded, but its shim has ABI version " + version + ", this aii needs "
                        + aiillama_h.AIILLAMA_ABI_VERSION());
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment backends = arena.allocateFrom(dir.toString());
                Text.Status status = Text.call(arena, (buffer, capacity, length) ->
                        aiillama_h.aiillama_init(backends, echoLog ? 1 : 0, buffer, capacity, length));
                if (status.code() != aiillama_h.AIILLAMA_OK()) {
                    return Optional.of("loaded, but ggml found no backend: " + status.text());
                }
            }
        } catch (Throwable e) {
            return Optional.of("loaded, but its functions are missing (" + e + ")");
        }
        return Optional.empty();
    }

    private static Optional<Path> jarDirectory() {
        try {
            var source = Natives.class.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return Optional.empty();
            }
            Path location = Path.of(source.getLocation().toURI());
            return Optional.ofNullable(Files.isDirectory(location) ? location : location.getParent());
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
