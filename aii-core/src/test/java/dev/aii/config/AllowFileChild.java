package dev.aii.config;

import dev.aii.policy.Rule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A second JVM for the allow-file tests: {@code load <file>} prints what
 * loading found; {@code add <file> <label> <count>} says {@code ready}, waits
 * for a line on stdin, then adds {@code echo <label>-<i>} for each i;
 * {@code hold <lock file>} takes the lock as aii does, says {@code locked},
 * and keeps it until a line (or the end) arrives on stdin.
 */
public final class AllowFileChild {

    private AllowFileChild() {
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        AllowFile file = AllowFile.at(Path.of(args[1]));
        switch (args[0]) {
            case "load" -> {
                AllowFile.Loaded loaded = file.load();
                out.println(loaded.source());
                loaded.warnings().forEach(out::println);
            }
            case "add" -> {
                out.println("ready");
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                int count = Integer.parseInt(args[3]);
                for (int i = 0; i < count; i++) {
                    file.add(Rule.of("echo", args[2] + "-" + i));
                }
                out.println("done");
            }
            case "hold" -> {
                try (FileChannel channel = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                     FileLock lock = channel.lock()) {
                    out.println("locked");
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                }
                out.println("released");
            }
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }
}
