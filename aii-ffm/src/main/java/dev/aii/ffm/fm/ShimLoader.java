package dev.aii.ffm.fm;

import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.model.ModelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds and loads the shim library. When {@code AII_SHIM_LIBRARY} is set, the
 * file it names is the only place tried: a missing or unusable file there is
 * an error naming it, never a reason to load some other shim. Otherwise the
 * places are the directory of aii-ffm's jar and its {@code ../lib}, then the
 * JVM's library search ({@code java.library.path}). The first library that
 * loads is checked for the ABI version of {@code fmshim.h}. A failure names
 * every place tried.
 *
 * <p>Libraries are loaded with {@link System#load}, which the generated
 * bindings find through the loader lookup; a loaded library stays loaded for
 * the life of the JVM (Swift libraries cannot be unloaded safely anyway), so
 * the first shim loaded in a JVM is the one every backend of that JVM uses.
 */
public final class ShimLoader {

    /** The environment variable naming the library. */
    public static final String ENVIRONMENT_VARIABLE = "AII_SHIM_LIBRARY";

    private ShimLoader() {
    }

    /** What loading gave. */
    public sealed interface Result {
    }

    /** The shim is loaded and speaks this ABI. */
    public record Loaded(Shim shim) implements Result {

        public Loaded {
            Objects.requireNonNull(shim, "shim");
        }
    }

    /**
     * No usable shim.
     *
     * @param tried one line per place, {@code <place>: <why not>}
     */
    public record Failed(String libraryName, List<String> tried) implements Result {

        public Failed {
            Objects.requireNonNull(libraryName, "libraryName");
            tried = List.copyOf(tried);
        }

        /** The error to report: the first line says what failed, one more line per place tried. */
        public ModelException problem() {
            StringBuilder message = new StringBuilder("Cannot load the Foundation Models shim library " + libraryName);
            tried.forEach(line -> message.append("\ntried ").append(line));
            return ModelException.internal(message.toString(), String.join("; ", tried), null);
        }
    }

    /** The file name of the library on this host: {@code libfmshim.dylib} on macOS, else {@code libfmshim.so}. */
    public static String libraryFileName(Host host) {
        return host.isMacOs() ? "libfmshim.dylib" : "libfmshim.so";
    }

    /** Tries every place in order and returns the first shim that loads and speaks this ABI. */
    public static Result load(Map<String, String> environment, Host host) {
        String name = libraryFileName(host);
        List<String> tried = new ArrayList<>();
        for (Place place : places(environment, host, name)) {
            Optional<String> failure = place.load();
            if (failure.isPresent()) {
                tried.add(place.label() + ": " + failure.get());
                continue;
            }
            return checkAbi(place, tried, name);
        }
        return new Failed(name, tried);
    }

    /** The library {@code AII_SHIM_LIBRARY} names; empty when it is unset or empty. */
    public static Optional<String> configured(Map<String, String> environment) {
        return Optional.ofNullable(environment.get(ENVIRONMENT_VARIABLE)).filter(value -> !value.isEmpty());
    }

    /** The places to try, in order. */
    static List<Place> places(Map<String, String> environment, Host host, String name) {
        List<Place> places = new ArrayList<>();
        Optional<String> configured = configured(environment);
        if (configured.isPresent()) {
            // Asked for this file: falling back to another shim would run something the user did not choose.
            places.add(new Place(ENVIRONMENT_VARIABLE + "=" + configured.get(), Optional.of(Path.of(configured.get()))));
            return places;
        }
        host.jarDirectory().ifPresent(dir -> {
            Place beside = file(dir.resolve(name));
            Place lib = file(dir.resolve("..").resolve("lib").resolve(name));
            places.add(beside);
            // When the jars are in a lib directory already (an installation, target/lib), both are one place.
            if (!lib.equals(beside)) {
                places.add(lib);
            }
        });
        places.add(new Place("java.library.path (" + System.getProperty("java.library.path", "") + ")",
                Optional.empty()));
        return places;
    }

    private static Place file(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return new Place(absolute.toString(), Optional.of(absolute));
    }

    private static Result checkAbi(Place place, List<String> tried, String name) {
        int version;
        try {
            version = fmshim_h.fmshim_abi_version();
        } catch (Throwable e) {
            // The bindings find their symbols on first use; a library without them fails here.
            tried.add(place.label() + ": does not export the fmshim functions (" + e + ")");
            return new Failed(name, tried);
        }
        if (version != fmshim_h.FMSHIM_ABI_VERSION()) {
            tried.add(place.label() + ": has ABI version " + version + ", this aii needs "
                    + fmshim_h.FMSHIM_ABI_VERSION());
            return new Failed(name, tried);
        }
        return new Loaded(new Shim());
    }

    /**
     * One place to look.
     *
     * @param label how messages name it
     * @param path the file, or empty for the JVM's library search
     */
    record Place(String label, Optional<Path> path) {

        /** Loads the library; empty on success, else why not. */
        Optional<String> load() {
            try {
                if (path.isEmpty()) {
                    System.loadLibrary("fmshim");
                    return Optional.empty();
                }
                Path absolute = path.get().toAbsolutePath().normalize();
                if (!Files.exists(absolute)) {
                    return Optional.of("no such file");
                }
                if (!Files.isRegularFile(absolute)) {
                    return Optional.of("not a file");
                }
                System.load(absolute.toString());
                return Optional.empty();
            } catch (UnsatisfiedLinkError | SecurityException e) {
                return Optional.of(String.valueOf(e.getMessage()));
            }
        }
    }
}
