package dev.aii.config;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts {@link AllowFileChild} in a new JVM with the same code as this one. */
public final class ChildJvm {

    private ChildJvm() {
    }

    /** The command line, after {@code prefix} (e.g. a program that changes the child's privileges). */
    static List<String> command(List<String> prefix, String... args) {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null) {
            command.addAll(List.of("--module-path", modulePath,
                    "--patch-module", "dev.aii.core=" + testClasses(),
                    "-m", "dev.aii.core/" + AllowFileChild.class.getName()));
        } else {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), AllowFileChild.class.getName()));
        }
        command.addAll(List.of(args));
        return command;
    }

    /** Starts it; see {@link AllowFileChild} for the commands. */
    public static Process start(List<String> prefix, String... args) throws IOException {
        return new ProcessBuilder(command(prefix, args)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** The directory the test classes were loaded from (patched into the module under test). */
    private static Path testClasses() {
        String resource = AllowFileChild.class.getSimpleName() + ".class";
        try {
            Path classFile = Path.of(AllowFileChild.class.getResource(resource).toURI());
            int depth = AllowFileChild.class.getPackageName().split("\\.").length;
            Path dir = classFile.getParent();
            for (int i = 0; i < depth; i++) {
                dir = dir.getParent();
            }
            return dir;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
