package dev.aii.ffm.posix;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Every command the POSIX runner is running in this JVM, so that nothing they
 * start outlives them or the JVM. One per JVM, because what it relies on is
 * per process: on Linux, from the first command on, this process is the child
 * subreaper ({@code prctl(PR_SET_CHILD_SUBREAPER)}), so a command's processes
 * that leave its process group or lose their parent become this process's
 * children instead of init's, where {@link Escapees} finds them; a JVM
 * shutdown hook stops whatever still runs when the JVM exits.
 *
 * <p>Signals to a command go to its process group and to what it left
 * behind; processes are signalled only while their ids cannot name another
 * process (see {@link #signalMember}), and only the processes found are ever
 * reaped, by their own ids. All of it happens under this object's lock,
 * which also orders the supervisor's reaping with signals from other threads.
 */
public final class Lifetimes {

    /** How long the end of a command may take to stop what it left behind (processes stuck in the kernel aside). */
    private static final long FINISH_NANOS = 2_000_000_000L;

    private final LibC libc;
    private final List<Tracked> running = new ArrayList<>();
    private boolean started;
    private boolean adopting;
    private boolean suspended;
    private int selfPid;
    private int selfSession;

    public Lifetimes(LibC libc) {
        this.libc = Objects.requireNonNull(libc, "libc");
    }

    /**
     * Starts tracking a child that was just spawned ({@code spawnedAt}: the
     * {@link System#nanoTime()} before the spawn); the first call makes this
     * process the subreaper (Linux) and installs the shutdown hook. A command
     * started while commands are suspended is suspended at once.
     */
    synchronized Tracked register(int pid, Duration killGrace, Set<Tracked.Seen> before, long spawnedAt) {
        start();
        long ticks = ProcStat.of(pid).map(ProcStat::startTicks).orElse(-1L);
        Tracked t = new Tracked(pid, ticks, killGrace, before, spawnedAt);
        running.add(t);
        if (suspended) {
            t.clock.suspend();
            withCalls(calls -> deliver(calls, List.of(t), libc.os.sigStop()));
        }
        return t;
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        selfPid = (int) ProcessHandle.current().pid();
        Optional<ProcStat> self = ProcStat.of(selfPid);
        if (!libc.os.isMacos() && self.isPresent()) {
            selfSession = self.get().session();
            withCalls(calls -> adopting = calls.prctl(OsConstants.PR_SET_CHILD_SUBREAPER, 1L) == 0);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::terminateAll, "aii-stop-commands"));
    }

    /**
     * Reads once, changing nothing, what the first command reads before it
     * is spawned: this process's {@code /proc} stat line and its threads'
     * {@code children} files (Linux; nothing on macOS). Done while nothing
     * waits for it (the C library is bound as the model thinks), it spares
     * the first command about a millisecond of code running for the first
     * time (docs/benchmarks.md). The subreaper still comes with the first
     * command.
     */
    public void prepare() {
        if (libc.os.isMacos()) {
            return;
        }
        int self = (int) ProcessHandle.current().pid();
        ProcStat.of(self);
        ProcStat.childrenOf(self);
    }

    /**
     * This process's children now, to be taken just before a command is
     * spawned: a process that was already there is not the command's, even
     * when it started within the same clock tick (start times count in
     * hundredths of a second).
     */
    synchronized Set<Tracked.Seen> childrenNow() {
        start();
        if (!adopting) {
            return Set.of();
        }
        Set<Tracked.Seen> children = new HashSet<>();
        for (int child : ProcStat.childrenOf(selfPid)) {
            ProcStat.of(child).ifPresent(s -> children.add(Tracked.Seen.of(s)));
        }
        return children;
    }

    /** Whether commands' escaped processes are found (Linux, once this process is the subreaper). */
    public synchronized boolean adopting() {
        start();
        return adopting;
    }

    /**
     * Sends {@code signal} to the command's group and to what it left behind.
     * A terminating signal to a suspended command is followed by SIGCONT, so
     * that the command can act on it, and its clock runs again.
     */
    synchronized void signal(Tracked t, int signal) {
        if (t.reaped) {
            return;
        }
        withCalls(calls -> {
            deliver(calls, List.of(t), signal);
            if (t.clock.suspended() && signal != OsConstants.SIGKILL) {
                deliver(calls, List.of(t), libc.os.sigCont());
                t.clock.resume();
            }
        });
    }

    /**
     * Ends a command whose leader has exited (or was killed): kills its group
     * and what it left behind, reaps those that are this process's children,
     * until nothing is left or {@link #FINISH_NANOS} passed, then reaps the
     * leader and forgets the command.
     *
     * @return the leader's exit status, as {@link Child#reap()}
     */
    int finish(Tracked t, Child child) {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            synchronized (this) {
                calls.killpg(t.pid, OsConstants.SIGKILL);
            }
            for (int i = 0; i < 5000 && !child.hasExited(); i++) {
                pauseMillis(calls);
            }
            long deadline = System.nanoTime() + FINISH_NANOS;
            while (true) {
                synchronized (this) {
                    boolean clean = killAndReap(calls, t);
                    if (clean || System.nanoTime() - deadline > 0) {
                        if (child.hasExited()) {
                            return forget(t, child.reap());
                        }
                        break;
                    }
                }
                pauseMillis(calls);
            }
        }
        // Stuck in the kernel after SIGKILL: wait for it without holding up the other threads.
        int status = child.reap();
        synchronized (this) {
            return forget(t, status);
        }
    }

    private int forget(Tracked t, int status) {
        t.reaped = true;
        running.remove(t);
        return status;
    }

    /** One round of the end: true when nothing was left. */
    private boolean killAndReap(Calls calls, Tracked t) {
        calls.killpg(t.pid, OsConstants.SIGKILL);
        if (!adopting) {
            return true;
        }
        List<Escapees.Member> members = Escapees.of(List.of(t), running, selfPid, selfSession);
        signalMembers(calls, members, Set.of(t.pid), OsConstants.SIGKILL);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            for (Escapees.Member m : members) {
                if (m.adopted() && !m.stat().alive()) {
                    calls.waitpid(m.stat().pid(), status, OsConstants.WNOHANG);
                }
            }
        }
        return members.isEmpty();
    }

    /** Stops every running command (SIGSTOP), and their clocks, until {@link #resumeAll()}. */
    public synchronized void suspendAll() {
        suspended = true;
        List<Tracked> live = live();
        live.forEach(t -> t.clock.suspend());
        withCalls(calls -> deliver(calls, live, libc.os.sigStop()));
    }

    /** Continues every command {@link #suspendAll()} stopped (SIGCONT), and their clocks. */
    public synchronized void resumeAll() {
        suspended = false;
        List<Tracked> live = live();
        withCalls(calls -> deliver(calls, live, libc.os.sigCont()));
        live.forEach(t -> t.clock.resume());
    }

    /**
     * The shutdown hook: SIGTERM (and SIGCONT, for a suspended one) to every
     * running command and what it left behind, SIGKILL to what still runs
     * after the longest kill grace. Nothing is reaped: the JVM is exiting.
     */
    public void terminateAll() {
        long grace;
        List<Tracked> live;
        synchronized (this) {
            live = live();
            if (live.isEmpty()) {
                return;
            }
            suspended = false;
            grace = live.stream().mapToLong(t -> t.killGrace.toNanos()).max().orElse(0);
            withCalls(calls -> {
                deliver(calls, live, OsConstants.SIGTERM);
                deliver(calls, live, libc.os.sigCont());
            });
            live.forEach(t -> t.clock.resume());
        }
        long deadline = System.nanoTime() + grace;
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            MemorySegment info = arena.allocate(libc.os.siginfoSize(), 8);
            while (System.nanoTime() - deadline < 0 && anyAlive(calls, info, live)) {
                pauseMillis(calls);
            }
            synchronized (this) {
                for (int round = 0; round < 20 && anyAlive(calls, info, live()); round++) {
                    deliver(calls, live(), OsConstants.SIGKILL);
                    pauseMillis(calls);
                }
            }
        }
    }

    private synchronized boolean anyAlive(Calls calls, MemorySegment info, List<Tracked> commands) {
        for (Tracked t : commands) {
            if (!t.reaped && !leaderExited(calls, info, t)) {
                return true;
            }
        }
        List<Tracked> still = commands.stream().filter(t -> !t.reaped).toList();
        return adopting && !still.isEmpty()
                && Escapees.of(still, running, selfPid, selfSession).stream().anyMatch(m -> m.stat().alive());
    }

    private static boolean leaderExited(Calls calls, MemorySegment info, Tracked t) {
        try {
            return Child.exited(calls, info, t.pid);
        } catch (IllegalStateException e) {
            return true; // reaped by its supervisor a moment ago
        }
    }

    private List<Tracked> live() {
        return running.stream().filter(t -> !t.reaped).toList();
    }

    /** {@code signal} to the groups of {@code commands} and to every live process they left behind. */
    private void deliver(Calls calls, List<Tracked> commands, int signal) {
        Set<Integer> groups = new HashSet<>();
        for (Tracked t : commands) {
            calls.killpg(t.pid, signal);
            groups.add(t.pid);
        }
        if (adopting && !commands.isEmpty()) {
            signalMembers(calls, Escapees.of(commands, running, selfPid, selfSession), groups, signal);
        }
    }

    private void signalMembers(Calls calls, List<Escapees.Member> members, Set<Integer> groupsDone, int signal) {
        Set<Integer> groups = new HashSet<>(groupsDone);
        for (Escapees.Member m : members) {
            if (m.stat().alive() && !groups.contains(m.stat().pgrp())) {
                signalMember(calls, m, groups, signal);
            }
        }
    }

    /**
     * A child of this process is signalled by its id, and so is the group it
     * leads: until this process reaps it, neither id can be reused. A deeper
     * process may be reaped by its own parent at any moment, so it is named
     * by a pidfd, checked to be the process found; without pidfds (Linux
     * before 5.3) its start time is checked just before {@code kill}.
     */
    private void signalMember(Calls calls, Escapees.Member m, Set<Integer> groups, int signal) {
        int pid = m.stat().pid();
        if (m.adopted()) {
            if (m.stat().pgrp() == pid) {
                calls.killpg(pid, signal);
                groups.add(pid);
            } else {
                calls.kill(pid, signal);
            }
            return;
        }
        int pidfd = calls.pidfdOpen(pid);
        if (pidfd < 0) {
            if (calls.errno() == libc.os.errno(Errno.ENOSYS) && sameProcess(m.stat())) {
                calls.kill(pid, signal);
            }
            return;
        }
        try {
            if (sameProcess(m.stat())) {
                calls.pidfdSendSignal(pidfd, signal);
            }
        } finally {
            calls.close(pidfd);
        }
    }

    private static boolean sameProcess(ProcStat found) {
        return ProcStat.of(found.pid()).map(now -> now.startTicks() == found.startTicks()).orElse(false);
    }

    private void withCalls(Consumer<Calls> action) {
        try (Arena arena = Arena.ofConfined()) {
            action.accept(new Calls(libc, arena));
        }
    }

    /** Sleeps a millisecond in {@code poll}, which a pending interrupt of the thread does not cut short. */
    private static void pauseMillis(Calls calls) {
        calls.poll(-1, (short) 0, 1);
    }
}
