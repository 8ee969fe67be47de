package dev.aii.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Process groups as Linux's {@code /proc} shows them. */
final class ProcessGroups {

    private ProcessGroups() {
    }

    /** The process group of {@code pid}. */
    static long of(long pid) {
        return stat(pid).orElseThrow(() -> new AssertionError("no process " + pid)).group();
    }

    /** The live (not zombie) processes of {@code group}, waiting up to {@code limit} for them to go. */
    static List<Long> awaitEmpty(long group, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        List<Long> left = members(group);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = members(group);
        }
        return left;
    }

    private static List<Long> members(long group) {
        List<Long> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            entries.map(p -> p.getFileName().toString()).filter(n -> n.matches("[0-9]+"))
                    .map(Long::parseLong)
                    .forEach(pid -> stat(pid).filter(s -> s.group() == group && s.state() != 'Z' && s.state() != 'X')
                            .ifPresent(s -> found.add(pid)));
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc", e);
        }
        return found;
    }

    private record Stat(char state, long group) {
    }

    private static Optional<Stat> stat(long pid) {
        try {
            String text = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // After the command name, which is in parentheses and may hold anything: state ppid pgrp ...
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return Optional.of(new Stat(fields[0].charAt(0), Long.parseLong(fields[2])));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
