package dev.aii.exec;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Ends a child process and everything it started that can still be found:
 * SIGTERM to all, again and again for the new ones (a fork loop keeps making
 * them) until none is left or the kill grace is over, then SIGKILL the same
 * way. The child is signalled first, so that a loop in it stops growing.
 *
 * <p>A process is found while its parent lives ({@link ProcessHandle#descendants()},
 * or on Linux one scan of {@code /proc} per round), and keeps being signalled
 * once found. On Linux a process whose parent died first is found too: it
 * stays in the JVM's process group (the JDK starts commands in it), started
 * after the command, and now has a parent outside the group (init, or a
 * subreaper such as {@code systemd --user}). What leaves the group, or loses
 * its parent, elsewhere, cannot be found without native calls.
 */
final class ProcessTree {

    private static final long ROUND_MILLIS = 10;
    /** How long SIGKILL rounds go on after the grace, for processes forked while the last round ran. */
    private static final long KILL_ROUNDS_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private ProcessTree() {
    }

    /**
     * Terminates {@code process} and its descendants within about the kill
     * grace. An interrupt of the calling thread does not cut it short; it is
     * kept for the caller.
     *
     * @param startTicks the child's start in Linux clock ticks ({@code /proc/<pid>/stat}), -1 when unknown
     */
    static void terminate(Process process, long startTicks, Duration killGrace) {
        boolean interrupted = Thread.interrupted();
        try {
            Family family = new Family(process.toHandle(), startTicks);
            long deadline = System.nanoTime() + nanos(killGrace);
            int alive = family.round(false);
            while (alive > 0 && System.nanoTime() - deadline < 0) {
                interrupted |= pause();
                alive = family.round(false);
            }
            long end = System.nanoTime() + KILL_ROUNDS_NANOS;
            do {
                alive = family.round(true);
                interrupted |= pause();
            } while (alive > 0 && System.nanoTime() - end < 0);
            // SIGKILL cannot be caught; the bound only guards against a process stuck in the kernel.
            process.waitFor(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The child's start in clock ticks, read at once after it started (-1 without Linux {@code /proc}). */
    static long startTicks(Process process) {
        return ProcTable.of(process.pid()).map(e -> e.startTicks).orElse(-1L);
    }

    /** What has been found of one command's processes so far. */
    private static final class Family {
        private final ProcessHandle root;
        private final long rootStart;
        private final Optional<ProcTable.Entry> self = ProcTable.self();
        /** Processes found, by pid, with their start (so a reused pid is not taken for them). */
        private final Map<Long, Long> found = new HashMap<>();
        private final Map<Long, ProcessHandle> handles = new HashMap<>();
        private final Set<Long> termed = new HashSet<>();

        Family(ProcessHandle root, long rootStart) {
            this.root = root;
            this.rootStart = rootStart;
            if (rootStart >= 0) {
                found.put(root.pid(), rootStart);
            }
        }

        /** Signals every live process found now (SIGTERM once each, or SIGKILL); returns how many there were. */
        int round(boolean forcibly) {
            Optional<ProcTable> table = ProcTable.snapshot();
            List<ProcessHandle> live = table.isPresent() ? fromTable(table.get()) : fromJdk();
            for (ProcessHandle h : live) {
                if (forcibly) {
                    h.destroyForcibly();
                } else if (termed.add(h.pid())) {
                    h.destroy();
                }
            }
            return live.size();
        }

        private List<ProcessHandle> fromJdk() {
            List<ProcessHandle> live = new ArrayList<>();
            if (root.isAlive()) {
                live.add(root);
                root.descendants().forEach(live::add);
            }
            for (ProcessHandle h : handles.values()) {
                if (h.isAlive() && !live.contains(h)) {
                    live.add(h);
                }
            }
            live.forEach(h -> handles.put(h.pid(), h));
            return live;
        }

        private List<ProcessHandle> fromTable(ProcTable table) {
            Deque<Long> walk = new ArrayDeque<>();
            walk.add(root.pid());
            walk.addAll(found.keySet());
            walk.addAll(orphans(table));
            Set<Long> visited = new HashSet<>();
            List<ProcessHandle> live = new ArrayList<>();
            while (!walk.isEmpty()) {
                long pid = walk.removeFirst();
                Optional<ProcTable.Entry> entry = table.get(pid);
                if (!visited.add(pid) || entry.isEmpty() || !sameAsFound(entry.get())) {
                    continue;
                }
                found.put(pid, entry.get().startTicks);
                walk.addAll(table.childrenOf(pid));
                if (entry.get().alive()) {
                    handle(pid).ifPresent(live::add);
                }
            }
            return live;
        }

        /** Whether the entry is the process found before under its pid, or a new one. */
        private boolean sameAsFound(ProcTable.Entry entry) {
            Long start = found.get(entry.pid);
            return start == null || start == entry.startTicks;
        }

        /** Processes of the JVM's group whose parent is outside it and that started since the command. */
        private List<Long> orphans(ProcTable table) {
            List<Long> orphans = new ArrayList<>();
            if (self.isEmpty() || rootStart < 0) {
                return orphans;
            }
            long group = self.get().pgrp;
            for (ProcTable.Entry e : table.all()) {
                if (e.pgrp == group && e.pid != self.get().pid && e.startTicks >= rootStart && e.alive()) {
                    Optional<ProcTable.Entry> parent = table.get(e.ppid);
                    if (parent.isEmpty() || parent.get().pgrp != group) {
                        orphans.add(e.pid);
                    }
                }
            }
            return orphans;
        }

        private Optional<ProcessHandle> handle(long pid) {
            ProcessHandle known = handles.get(pid);
            if (known != null) {
                return Optional.of(known);
            }
            Optional<ProcessHandle> h = pid == root.pid() ? Optional.of(root) : ProcessHandle.of(pid);
            h.ifPresent(x -> handles.put(pid, x));
            return h;
        }
    }

    /** Waits a round; returns whether the thread was interrupted meanwhile (kept for the caller). */
    private static boolean pause() {
        try {
            Thread.sleep(ROUND_MILLIS);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    private static long nanos(Duration d) {
        try {
            return Math.min(d.toNanos(), Long.MAX_VALUE / 8);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 8;
        }
    }
}
