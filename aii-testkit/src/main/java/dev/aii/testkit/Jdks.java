package dev.aii.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a JDK of a given feature version on this machine, for the tests that
 * prove a program runs on an older Java than the build's: {@code AII_JDK<N>}
 * when set, else the usual install places (Debian and Ubuntu, Red Hat,
 * macOS, SDKMAN, IntelliJ), recognised by the {@code release} file.
 */
public final class Jdks {

    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"?(?:1\\.)?(\\d+)");

    private Jdks() {
    }

    /**
     * The home of a JDK (with {@code javac}) whose feature version is {@code feature}.
     *
     * @throws AssertionError naming every place looked at, and how to install one, when there is none
     */
    public static Path home(int feature) {
        List<String> looked = new ArrayList<>();
        String variable = "AII_JDK" + feature;
        String fixed = System.getenv(variable);
        if (fixed != null && !fixed.isEmpty()) {
            Path home = Path.of(fixed);
            if (isJdk(home, feature)) {
                return home;
            }
            throw new AssertionError(variable + "=" + fixed + " is not the home of a JDK " + feature
                    + " (it needs a release file saying JAVA_VERSION=\"" + feature + "...\", bin/java and bin/javac)");
        }
        String user = System.getProperty("user.home");
        List<Path> parents = List.of(Path.of("/usr/lib/jvm"), Path.of("/usr/java"), Path.of("/opt/java"),
                Path.of("/Library/Java/JavaVirtualMachines"), Path.of(user, "Library/Java/JavaVirtualMachines"),
                Path.of(user, ".sdkman/candidates/java"), Path.of(user, ".jdks"));
        for (Path parent : parents) {
            for (Path dir : children(parent)) {
                for (Path home : List.of(dir, dir.resolve("Contents/Home"))) {
                    if (isJdk(home, feature)) {
                        return home;
                    }
                }
                looked.add(dir + versionNote(dir));
            }
            if (!Files.isDirectory(parent)) {
                looked.add(parent + " (absent)");
            }
        }
        throw new AssertionError("no JDK " + feature + " found, and the tests that run programs on Java " + feature
                + " need one. Looked at " + variable + " (unset) and:\n  " + String.join("\n  ", looked)
                + "\nInstall one (Debian and Ubuntu: apt-get install openjdk-" + feature + "-jdk-headless) or set "
                + variable + " to its home directory.");
    }

    /** The feature version a JDK's {@code release} file states. */
    static Optional<Integer> feature(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean isJdk(Path home, int feature) {
        return feature(home).equals(Optional.of(feature))
                && Files.isExecutable(home.resolve("bin/java")) && Files.isExecutable(home.resolve("bin/javac"));
    }

    private static String versionNote(Path dir) {
        Optional<Integer> found = feature(dir).or(() -> feature(dir.resolve("Contents/Home")));
        return found.map(f -> " (Java " + f + ")").orElse(" (no release file)");
    }

    /** The entries of {@code dir}, sorted so that the choice never depends on the file system's order. */
    private static List<Path> children(Path dir) {
        List<Path> out = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                entries.forEach(out::add);
            } catch (IOException e) {
                // unreadable: nothing there for us
            }
        }
        out.sort(null);
        return out;
    }
}
