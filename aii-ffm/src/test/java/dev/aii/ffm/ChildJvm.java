package dev.aii.ffm;

import dev.aii.testkit.PtyDriver;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line of a second JVM that runs {@link Scenarios} with this
 * module's classes on its class path, for what a test JVM cannot show about
 * itself: a pseudo-terminal, no controlling terminal, no native access, a
 * small heap, ignored signals.
 */
final class ChildJvm {

    private ChildJvm() {
    }

    /** {@code java <options> -cp <this module, its dependencies, its tests> dev.aii.ffm.Scenarios <args>}. */
    static List<String> command(List<String> options, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xshare:auto");
        command.addAll(options);
        command.add("-cp");
        command.add(classPath());
        command.add(Scenarios.class.getName());
        command.addAll(List.of(args));
        return command;
    }

    /** With native access granted to the class path, as the CLI grants it to its modules. */
    static List<String> withNativeAccess(String... args) {
        return command(List.of("--enable-native-access=ALL-UNNAMED"), args);
    }

    /**
     * The second JVM, with native access, on a new pseudo-terminal that is its
     * controlling terminal (its line discipline turns a typed Ctrl-C into SIGINT).
     */
    static PtyDriver onPty(Path directory, String... args) throws IOException {
        return PtyDriver.start("exec " + shellLine(withNativeAccess(args)), Map.of(), directory);
    }

    private static String classPath() {
        List<String> entries = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property, "");
            for (String entry : value.split(File.pathSeparator)) {
                if (!entry.isEmpty() && !entries.contains(entry)) {
                    entries.add(entry);
                }
            }
        }
        try {
            entries.add(0, Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return String.join(File.pathSeparator, entries);
    }

    /** {@code s} as one word for {@code /bin/sh}. */
    static String shellWord(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** A command line as one string for {@code /bin/sh -c}. */
    static String shellLine(List<String> words) {
        return String.join(" ", words.stream().map(ChildJvm::shellWord).toList());
    }
}
