package dev.aii.ffm.posix;

import dev.aii.procfs.StatLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One process as Linux {@code /proc/<pid>/stat} shows it, and the few reads
 * of {@code /proc} the runner needs to find what a command left behind.
 *
 * @param pid the process id
 * @param state the state letter ({@code R}, {@code S}, {@code T}, {@code Z}, ...)
 * @param ppid the parent's process id
 * @param pgrp the process group id
 * @param session the session id
 * @param startTicks when it started, in clock ticks since boot: with the pid, names one process for good
 */
public record ProcStat(int pid, char state, int ppid, int pgrp, int session, long startTicks) {

    private static final Path PROC = Path.of("/proc");

    /** Whether it still runs: a zombie has only to be reaped. */
    public boolean alive() {
        return state != 'Z' && state != 'X';
    }

    /** The process {@code pid} now, or empty when there is none (or no {@code /proc}). */
    public static Optional<ProcStat> of(int pid) {
        return read(PROC.resolve(Integer.toString(pid)).resolve("stat"));
    }

    static Optional<ProcStat> read(Path statFile) {
        return StatLine.read(statFile).flatMap(ProcStat::from);
    }

    /** Parses {@code pid (comm) state ppid pgrp session ...}; the command name may hold anything, parentheses too. */
    static Optional<ProcStat> parse(String text) {
        return StatLine.parse(text).flatMap(ProcStat::from);
    }

    /** The line's fields, or empty when an id does not fit an int (no Linux pid does). */
    private static Optional<ProcStat> from(StatLine line) {
        try {
            return Optional.of(new ProcStat(Math.toIntExact(line.pid()), line.state(), Math.toIntExact(line.ppid()),
                    Math.toIntExact(line.pgrp()), Math.toIntExact(line.session()), line.startTicks()));
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    /**
     * The children of {@code pid}, from every thread's {@code children} file;
     * where the kernel has none of those files, from a scan of all processes.
     */
    public static List<Integer> childrenOf(int pid) {
        Path tasks = PROC.resolve(Integer.toString(pid)).resolve("task");
        Set<Integer> children = new LinkedHashSet<>();
        boolean anyFile = false;
        try (DirectoryStream<Path> list = Files.newDirectoryStream(tasks)) {
            for (Path task : list) {
                try {
                    children.addAll(pids(Files.readString(task.resolve("children"), StandardCharsets.ISO_8859_1)));
                    anyFile = true;
                } catch (NoSuchFileException e) {
                    // A thread that just ended, or a kernel without CONFIG_PROC_CHILDREN.
                }
            }
        } catch (IOException | SecurityException e) {
            return List.of();
        }
        return anyFile ? List.copyOf(children) : scanForChildren(pid);
    }

    private static List<Integer> scanForChildren(int parent) {
        List<Integer> children = new ArrayList<>();
        try (DirectoryStream<Path> list = Files.newDirectoryStream(PROC)) {
            for (Path dir : list) {
                String name = dir.getFileName().toString();
                if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
                    read(dir.resolve("stat")).filter(s -> s.ppid() == parent).ifPresent(s -> children.add(s.pid()));
                }
            }
        } catch (IOException | SecurityException e) {
            return List.of();
        }
        return children;
    }

    private static List<Integer> pids(String text) {
        List<Integer> pids = new ArrayList<>();
        for (String word : text.trim().split("\\s+")) {
            if (!word.isEmpty()) {
                pids.add(Integer.parseInt(word));
            }
        }
        return pids;
    }
}
