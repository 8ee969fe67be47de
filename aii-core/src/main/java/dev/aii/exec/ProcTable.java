package dev.aii.exec;

import dev.aii.procfs.StatLine;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every process at one moment, from Linux {@code /proc/<pid>/stat}: one scan
 * that gives parents, process groups and start times together, where the
 * JDK's {@link ProcessHandle} would read each process again for each
 * question.
 */
final class ProcTable {

    private static final Path PROC = Path.of("/proc");

    /** One process: its parent, process group, state letter and start in clock ticks since boot. */
    static final class Entry {
        final long pid;
        final long ppid;
        final long pgrp;
        final char state;
        final long startTicks;

        Entry(long pid, long ppid, long pgrp, char state, long startTicks) {
            this.pid = pid;
            this.ppid = ppid;
            this.pgrp = pgrp;
            this.state = state;
            this.startTicks = startTicks;
        }

        /** Whether it still runs: a zombie waits only to be reaped. */
        boolean alive() {
            return state != 'Z' && state != 'X';
        }
    }

    private final Map<Long, Entry> byPid;
    private final Map<Long, List<Long>> children;

    private ProcTable(Map<Long, Entry> byPid) {
        this.byPid = byPid;
        this.children = new HashMap<>();
        for (Entry e : byPid.values()) {
            children.computeIfAbsent(e.ppid, k -> new ArrayList<>()).add(e.pid);
        }
    }

    /** The processes now; empty where there is no {@code /proc} of Linux's kind. */
    static Optional<ProcTable> snapshot() {
        if (!Files.isRegularFile(PROC.resolve("self").resolve("stat"))) {
            return Optional.empty();
        }
        Map<Long, Entry> entries = new HashMap<>();
        try (DirectoryStream<Path> list = Files.newDirectoryStream(PROC)) {
            for (Path dir : list) {
                String name = dir.getFileName().toString();
                if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
                    read(dir.resolve("stat")).ifPresent(e -> entries.put(e.pid, e));
                }
            }
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
        return Optional.of(new ProcTable(entries));
    }

    /** This JVM's own entry, read directly. */
    static Optional<Entry> self() {
        return read(PROC.resolve("self").resolve("stat"));
    }

    /** One process's entry, read directly. */
    static Optional<Entry> of(long pid) {
        return read(PROC.resolve(Long.toString(pid)).resolve("stat"));
    }

    Optional<Entry> get(long pid) {
        return Optional.ofNullable(byPid.get(pid));
    }

    List<Long> childrenOf(long pid) {
        return children.getOrDefault(pid, Collections.emptyList());
    }

    Iterable<Entry> all() {
        return byPid.values();
    }

    private static Optional<Entry> read(Path stat) {
        return StatLine.read(stat).map(l -> new Entry(l.pid(), l.ppid(), l.pgrp(), l.state(), l.startTicks()));
    }
}
