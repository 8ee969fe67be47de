package dev.aii.ffm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The live processes of a process group, read from Linux {@code /proc} (zombies are dead: they wait only to be reaped). */
final class ProcessTable {

    private ProcessTable() {
    }

    /**
     * Waits, up to {@code max}, for the group to have no live process: a process killed a moment ago may
     * still be on its way out.
     *
     * @return the live members at the end, empty when the group died
     */
    static List<String> awaitNoLiveMembers(int pgid, Duration max) throws IOException, InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        List<String> live = liveMembers(pgid);
        while (!live.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(20);
            live = liveMembers(pgid);
        }
        return live;
    }

    /**
     * Waits until {@code marker} holds a process group id (a script wrote {@code $$} into it) and that group has
     * a live process named {@code comm}.
     */
    static void awaitMember(Path marker, String comm, Duration max) throws IOException, InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < end) {
            String text = Files.exists(marker) ? Files.readString(marker) : "";
            if (text.endsWith("\n")
                    && liveMembers(Integer.parseInt(text.strip())).stream().anyMatch(m -> m.endsWith(" " + comm))) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no " + comm + " in the group named by " + marker + " within " + max);
    }

    /** One line {@code <pid> <state> <comm>} for every live process whose process group is {@code pgid}. */
    static List<String> liveMembers(int pgid) throws IOException {
        List<String> live = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path dir : entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                String stat;
                try {
                    stat = Files.readString(dir.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses, so split after the last ')'.
                int close = stat.lastIndexOf(')');
                String[] rest = stat.substring(close + 2).split(" ");
                String state = rest[0];
                int pgrp = Integer.parseInt(rest[2]);
                if (pgrp == pgid && !state.equals("Z") && !state.equals("X")) {
                    live.add(dir.getFileName() + " " + state + " " + stat.substring(stat.indexOf('(') + 1, close));
                }
            }
        }
        return live;
    }
}
