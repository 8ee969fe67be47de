package dev.aii.ffm.fm;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What the backend needs to know about the machine: the operating system and
 * where the installed jars are.
 *
 * @param osName the {@code os.name} system property
 * @param osVersion the {@code os.version} system property, e.g. {@code 26.4.1}; on macOS
 *     a compatibility version (16.x for 26.x, as under {@code SYSTEM_VERSION_COMPAT=1}) is
 *     read as the version it stands for
 * @param jarDirectory the directory holding aii-ffm's jar (or its classes), when known
 */
public record Host(String osName, String osVersion, Optional<Path> jarDirectory) {

    /** The first macOS numbered after its year (macOS 26, 2025). */
    private static final int FIRST_YEAR_MAJOR = 26;
    /** The version macOS 26 gives programs that ask for compatibility. */
    private static final int FIRST_COMPAT_MAJOR = 16;

    public Host {
        Objects.requireNonNull(osName, "osName");
        Objects.requireNonNull(osVersion, "osVersion");
        jarDirectory = jarDirectory == null ? Optional.empty() : jarDirectory;
    }

    /** This JVM's host. */
    public static Host current() {
        return new Host(System.getProperty("os.name", ""), System.getProperty("os.version", ""), codeDirectory());
    }

    public boolean isMacOs() {
        String os = osName.toLowerCase(Locale.ROOT);
        return os.startsWith("mac") || os.contains("darwin");
    }

    /** Whether {@link #osVersion} is at least {@code major.minor}; an unreadable version counts as older. */
    public boolean versionAtLeast(int major, int minor) {
        String[] parts = osVersion.split("\\.");
        int ma = number(parts, 0);
        int mi = number(parts, 1);
        if (isMacOs() && ma >= FIRST_COMPAT_MAJOR && ma < FIRST_YEAR_MAJOR) {
            // macOS went from 15 to 26; 16 to 25 are only what it tells programs that ask for
            // compatibility (SYSTEM_VERSION_COMPAT=1, or built with an older SDK): 16.4 is 26.4.
            ma += FIRST_YEAR_MAJOR - FIRST_COMPAT_MAJOR;
        }
        return ma > major || (ma == major && mi >= minor);
    }

    private static int number(String[] parts, int index) {
        if (index >= parts.length) {
            return 0;
        }
        try {
            return Integer.parseInt(parts[index].replaceAll("[^0-9].*$", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static Optional<Path> codeDirectory() {
        CodeSource source = Host.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        try {
            return directoryOf(source.getLocation().toURI());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * The directory of a jar or classes directory; none for a module linked
     * into the runtime ({@code jrt:}, a prebuilt image), which has no
     * directory a library could sit in.
     */
    static Optional<Path> directoryOf(URI location) {
        if (!"file".equals(location.getScheme())) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(location);
            return Optional.ofNullable(Files.isDirectory(path) ? path : path.getParent());
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return Optional.empty();
        }
    }
}
