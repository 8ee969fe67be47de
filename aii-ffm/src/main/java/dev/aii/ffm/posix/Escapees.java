package dev.aii.ffm.posix;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds, on Linux, what commands started that is no longer in their process
 * group, once this process is the child subreaper: a process that left the
 * group ({@code setpgid}) or the session ({@code setsid}), or whose parent
 * exited (a double fork), is then a child of this process, or a descendant of
 * one. A child of this process belongs to a command when
 * <ul>
 * <li>it is in the command's session or process group (both are the leader's
 *     process id, which cannot be reused while the leader is unreaped), or
 * <li>it is outside this process's own session, was not yet a child of
 *     this process when the command was spawned, started no earlier than the
 *     command, and no other running command could have started it too (then
 *     it is left until the last of them ends).
 * </ul>
 * Everything below such a child, and below a leader still running, belongs
 * to the command as well. Processes the JVM started itself are in the JVM's
 * session and are never taken. The one thing this cannot tell apart: a
 * process the JVM started while a command ran, which then left the JVM's
 * session itself (with {@code setsid}), or an orphan of such a process, is
 * taken for the command's.
 */
final class Escapees {

    /**
     * One process found.
     *
     * @param adopted whether it is a child of this process (so its id, and a group it leads, stay its own until this
     *                process reaps it); anything deeper may be reaped by its own parent at any time
     */
    record Member(ProcStat stat, boolean adopted) {
    }

    private Escapees() {
    }

    /**
     * The processes that belong to one of {@code targets}, this process's
     * children first; zombies included (an adopted zombie is for this process
     * to reap).
     */
    static List<Member> of(Collection<Tracked> targets, Collection<Tracked> running, int selfPid, int selfSession) {
        Set<Integer> leaders = running.stream().filter(t -> !t.reaped).map(t -> t.pid).collect(Collectors.toSet());
        Map<Integer, Member> found = new LinkedHashMap<>();
        Deque<Integer> walk = new ArrayDeque<>();
        for (int child : ProcStat.childrenOf(selfPid)) {
            if (leaders.contains(child)) {
                continue;
            }
            Optional<ProcStat> stat = ProcStat.of(child);
            if (stat.isPresent() && belongs(stat.get(), targets, running, selfSession)) {
                found.put(child, new Member(stat.get(), true));
                walk.addAll(ProcStat.childrenOf(child));
            }
        }
        for (Tracked t : targets) {
            if (!t.reaped) {
                walk.addAll(ProcStat.childrenOf(t.pid));
            }
        }
        while (!walk.isEmpty()) {
            int pid = walk.removeFirst();
            if (pid == selfPid || found.containsKey(pid) || leaders.contains(pid)) {
                continue;
            }
            Optional<ProcStat> stat = ProcStat.of(pid);
            if (stat.isPresent()) {
                found.put(pid, new Member(stat.get(), stat.get().ppid() == selfPid));
                walk.addAll(ProcStat.childrenOf(pid));
            }
        }
        return new ArrayList<>(found.values());
    }

    /** Whether a child of this process that leads no command belongs to one of {@code targets}. */
    static boolean belongs(ProcStat child, Collection<Tracked> targets, Collection<Tracked> running, int selfSession) {
        for (Tracked t : running) {
            if (!t.reaped && (child.session() == t.pid || child.pgrp() == t.pid)) {
                return targets.contains(t);
            }
        }
        if (child.session() == selfSession) {
            return false;
        }
        Tracked.Seen seen = Tracked.Seen.of(child);
        List<Tracked> couldHaveStartedIt = running.stream()
                .filter(t -> !t.reaped && t.startTicks >= 0 && t.startTicks <= child.startTicks()
                        && !t.before.contains(seen))
                .toList();
        return !couldHaveStartedIt.isEmpty() && targets.containsAll(couldHaveStartedIt);
    }
}
