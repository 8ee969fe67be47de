package dev.aii.ffm.posix;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CapturedOutput;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import java.lang.foreign.Arena;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** One command from spawn to reaping: the launch half of {@code PosixCommandRunner}; {@link Supervisor} is the rest. */
public final class CommandRun {

    private CommandRun() {
    }

    /** See {@link dev.aii.exec.CommandRunner#run}. */
    public static RunResult run(LibC libc, Lifetimes lifetimes, String path, List<String> arguments, Limits limits,
                                Cancellation cancellation) {
        return run(libc, lifetimes, path, arguments, Map.of(), limits, cancellation);
    }

    /** See {@link dev.aii.exec.CommandRunner#run(String, List, Map, Limits, Cancellation)}. */
    public static RunResult run(LibC libc, Lifetimes lifetimes, String path, List<String> arguments,
                                Map<String, String> environment, Limits limits, Cancellation cancellation) {
        if (cancellation.isCancelled()) {
            return new RunResult.Interrupted(new CapturedOutput(new byte[0], 0));
        }
        List<String> strings = new ArrayList<>(arguments.size() + 1);
        strings.add(path);
        strings.addAll(arguments);
        Charset charset = argumentCharset();
        List<byte[]> argv = new ArrayList<>(strings.size());
        for (String s : strings) {
            if (s.indexOf('\0') >= 0) {
                return new RunResult.LaunchFailed("argument contains a NUL character");
            }
            argv.add(s.getBytes(charset));
        }
        List<byte[]> envp = null;
        if (!environment.isEmpty()) {
            // The JVM's environment with the overrides set over it, in the child only.
            Map<String, String> merged = new TreeMap<>(System.getenv());
            merged.putAll(environment);
            envp = new ArrayList<>(merged.size());
            for (Map.Entry<String, String> e : merged.entrySet()) {
                String entry = e.getKey() + "=" + e.getValue();
                if (entry.indexOf('\0') >= 0) {
                    return new RunResult.LaunchFailed("environment contains a NUL character");
                }
                envp.add(entry.getBytes(charset));
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            int[] pipe = calls.pipeCloexec();
            if (pipe == null) {
                return new RunResult.LaunchFailed(calls.errnoText());
            }
            int readEnd = pipe[0];
            int writeEnd = pipe[1];
            if (writeEnd < 3) {
                // With stdin, stdout or stderr of the JVM closed, the pipe can land on 0..2, where
                // dup2 onto itself would keep close-on-exec and lose the child's output.
                int moved = calls.fcntl(writeEnd, calls.os().fDupfdCloexec(), 3);
                calls.close(writeEnd);
                if (moved < 0) {
                    calls.close(readEnd);
                    return new RunResult.LaunchFailed(calls.errnoText());
                }
                writeEnd = moved;
            }
            Set<Tracked.Seen> before;
            long spawnedAt;
            Spawner.Outcome outcome;
            try {
                before = lifetimes.childrenNow();
                spawnedAt = System.nanoTime();
                outcome = Spawner.spawn(calls, arena, argv, envp, writeEnd);
            } catch (RuntimeException | Error e) {
                calls.close(readEnd);
                throw e;
            } finally {
                calls.close(writeEnd);
            }
            if (outcome.error() != 0) {
                calls.close(readEnd);
                return new RunResult.LaunchFailed(Errno.describe(calls.os(), outcome.error()));
            }
            Child child = new Child(calls, arena, outcome.pid());
            Tracked tracked;
            try {
                tracked = lifetimes.register(outcome.pid(), limits.killGrace(), before, spawnedAt);
            } catch (RuntimeException | Error e) {
                calls.close(readEnd);
                calls.killpg(outcome.pid(), OsConstants.SIGKILL);
                child.reap();
                throw e;
            }
            return new Supervisor(calls, arena, child, lifetimes, tracked, readEnd, limits, cancellation).run();
        }
    }

    /**
     * How arguments become bytes: the platform's file-name encoding, as the
     * JDK uses for its own processes, except that a locale that cannot encode
     * beyond ASCII (the C locale) gets UTF-8, which agrees with it on ASCII and
     * is what file names on such systems almost always are.
     */
    static Charset argumentCharset() {
        String name = System.getProperty("sun.jnu.encoding", "UTF-8");
        try {
            Charset cs = Charset.forName(name);
            return cs.equals(StandardCharsets.US_ASCII) ? StandardCharsets.UTF_8 : cs;
        } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
