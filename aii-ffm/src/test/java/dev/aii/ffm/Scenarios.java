package dev.aii.ffm;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.exec.Terminal;
import dev.aii.ffm.posix.Calls;
import dev.aii.ffm.posix.Errno;
import dev.aii.ffm.posix.LibC;
import dev.aii.ffm.posix.OsConstants;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Small programs run in a second JVM by the tests (see {@link ChildJvm}), each
 * printing marker lines that the test waits for and checks.
 */
public final class Scenarios {

    /** {@code PR_GET_CHILD_SUBREAPER} (Linux {@code prctl}): whether this process is the child subreaper. */
    private static final int PR_GET_CHILD_SUBREAPER = 37;

    private Scenarios() {
    }

    @SuppressWarnings("restricted")
    public static void main(String[] args) throws Throwable {
        switch (args[0]) {
            case "cat-tty-posix" -> {
                say("JVM-HAS-TTY " + jvmHasTerminal());
                say("RESULT " + describe(new PosixCommandRunner().run(
                        "/bin/cat", List.of("/dev/tty"), Limits.DEFAULT, new Cancellation())));
            }
            case "cat-tty-processbuilder" -> {
                Process p = new ProcessBuilder("/bin/cat", "/dev/tty")
                        .redirectInput(new File("/dev/null")).redirectErrorStream(true).start();
                say("READY");
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    say("PB-READ [" + r.readLine() + "]");
                } finally {
                    p.destroyForcibly();
                }
            }
            case "prompt" -> prompt(args[1]);
            case "run-ctrl-c" -> {
                Cancellation cancellation = cancelOnSigint();
                Path marker = Path.of(args[1]);
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        ProcessTable.awaitMember(marker, "sleep", Duration.ofSeconds(30));
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    say("RUNNING");
                });
                say("RESULT " + describe(new PosixCommandRunner().run("/bin/sh",
                        List.of("-c", "trap 'echo got INT; exit 7' INT; echo $$ > \"$0\"; sleep 300", marker.toString()),
                        Limits.DEFAULT.withTimeout(Duration.ofSeconds(60)), cancellation)));
            }
            case "ctrl-z" -> ctrlZ(Path.of(args[1]));
            case "jvm-stopped" -> {
                Path dir = Path.of(args[1]);
                Thread.ofPlatform().daemon().start(() -> {
                    awaitFile(dir.resolve("leader"));
                    say("RUNNING");
                });
                say("RESULT " + describe(new PosixCommandRunner().run("/bin/sh",
                        List.of("-c", "echo $$ > \"$0/leader\"; exec sleep 300", dir.toString()),
                        Limits.DEFAULT.withTimeout(Duration.ofSeconds(2)).withKillGrace(Duration.ofSeconds(1)),
                        new Cancellation())));
            }
            case "exit-while-running" -> exitWhileRunning(Path.of(args[1]), args[2], args[3]);
            case "open-tty" -> {
                try (Terminal.Conversation c = new PosixTerminal().open()) {
                    c.write("");
                    say("OPENED");
                } catch (IOException e) {
                    say("OPEN-FAILED " + e.getMessage());
                }
            }
            case "flat-memory" -> say("RESULT " + summary(new PosixCommandRunner().run(
                    "/usr/bin/head", List.of("-c", args[1], "/dev/zero"),
                    Limits.DEFAULT.withTimeout(Duration.ofMinutes(5)), new Cancellation())));
            case "status" -> say("RESULT " + describe(new PosixCommandRunner().run(
                    "/bin/cat", List.of("/proc/self/status"), Limits.DEFAULT.withOutputCap(65536), new Cancellation())));
            case "watch-stdout-then-exit" -> watchStdoutThenExit();
            case "fd0-closed" -> {
                // With this JVM's descriptor 0 free, /dev/null for the command's stdin would open there.
                try (Arena arena = Arena.ofConfined()) {
                    Calls calls = new Calls(new LibC(currentSystem()), arena);
                    // what the steps below load from a jar (which would take the free 0), loaded before 0 is free
                    Files.readSymbolicLink(Path.of("/proc/self/fd/1"));
                    Class.forName(dev.aii.ffm.posix.Spawner.class.getName());
                    calls.close(0);
                    int devNull = dev.aii.ffm.posix.Spawner.openDevNull(calls);
                    boolean fd0Free = calls.fcntl(0, OsConstants.F_GETFD, 0) < 0;
                    int cloexec = calls.fcntl(devNull, OsConstants.F_GETFD, 0) & OsConstants.FD_CLOEXEC;
                    say("DEVNULL " + (devNull >= 3) + " " + Files.readSymbolicLink(Path.of("/proc/self/fd/" + devNull))
                            + " cloexec=" + cloexec + " fd0=" + (fd0Free ? "free" : "taken"));
                    calls.close(devNull);
                    say("RESULT " + describe(new PosixCommandRunner().run("/bin/ls", List.of("-l", "/proc/self/fd"),
                            Limits.DEFAULT.withOutputCap(65536), new Cancellation())));
                }
            }
            case "availability" -> {
                say("AVAILABILITY " + Posix.availability());
                if (Posix.availability() instanceof Posix.Unavailable u) {
                    say("WARNING " + u.warning());
                }
                try {
                    new PosixCommandRunner();
                    say("CONSTRUCTED");
                } catch (UnsupportedOperationException e) {
                    say("REFUSED " + e.getMessage());
                }
            }
            case "subreaper" -> {
                // Binding (and what it reads ahead for the first command) must not make this JVM the subreaper.
                say("SUBREAPER AT START " + subreaper());
                say("AVAILABILITY " + Posix.availability().getClass().getSimpleName());
                say("SUBREAPER AFTER BINDING " + subreaper());
                say("RESULT " + describe(new PosixCommandRunner().run(
                        "/bin/true", List.of(), Limits.DEFAULT, new Cancellation())));
                say("SUBREAPER AFTER A COMMAND " + subreaper());
            }
            case "strerror" -> {
                MethodHandle strerror = Linker.nativeLinker().downcallHandle(
                        Linker.nativeLinker().defaultLookup().find("strerror").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
                OsConstants os = currentSystem();
                for (Errno e : Errno.values()) {
                    if (os.errnos().containsKey(e)) {
                        MemorySegment text = (MemorySegment) strerror.invokeExact(os.errno(e));
                        say("ERRNO " + e + " [" + e.text() + "] [" + text.reinterpret(1024).getString(0) + "]");
                    }
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** The type-ahead scenario: wait for a typed line to be pending, then prompt (discarding it or not) and read. */
    private static void prompt(String mode) throws Exception {
        Cancellation cancellation = cancelOnSigint();
        int fdsBefore = openDescriptors();
        Terminal.Conversation c = new PosixTerminal().open();
        if (mode.equals("flush") || mode.equals("no-flush")) {
            say("READY");
            awaitPendingInput();
        }
        if (!mode.equals("no-flush")) {
            c.discardTypeAhead();
        }
        c.write("PROMPT> ");
        Optional<String> answer = c.readLine(cancellation);
        c.close();
        say("ANSWER " + answer.map(a -> "[" + a + "]").orElse("none"));
        say("DESCRIPTORS " + (openDescriptors() - fdsBefore));
    }

    /**
     * Ctrl-Z as the command line will do it: once the command and the process it detached have written their
     * pids, {@link PosixCommandRunner#stopWithCommands()} stops them and this JVM. The command needs 2 s of its
     * 4 s; the test keeps the JVM stopped for longer than that before it continues it.
     */
    private static void ctrlZ(Path dir) {
        PosixCommandRunner runner = new PosixCommandRunner();
        Thread.ofPlatform().daemon().start(() -> {
            awaitFile(dir.resolve("escaped"));
            try {
                // Not while the shell forks: a parent in vfork waits uninterruptibly for its stopped child.
                ProcessTable.awaitMember(dir.resolve("leader"), "sleep", Duration.ofSeconds(30));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            say("STOPPING");
            runner.stopWithCommands();
            say("CONTINUED");
        });
        say("RESULT " + describe(runner.run("/bin/sh", List.of("-c", "echo $$ > \"$0/leader\";"
                        + " setsid -f sh -c 'echo $$ > \"$0/escaped.tmp\"; mv \"$0/escaped.tmp\" \"$0/escaped\"; exec sleep 300'"
                        + " \"$0\"; sleep 2; echo done", dir.toString()),
                Limits.DEFAULT.withTimeout(Duration.ofSeconds(4)), new Cancellation())));
    }

    /**
     * Starts a command that leaves processes in and out of its group, and once they run ends this JVM with
     * {@code System.exit} ({@code exit}) or waits for the test's SIGTERM ({@code wait}): the shutdown hook
     * must stop them all.
     */
    private static void exitWhileRunning(Path dir, String mark, String how) throws InterruptedException {
        Thread.ofPlatform().daemon().start(() -> new PosixCommandRunner().run("/usr/bin/env", List.of(mark, "/bin/sh",
                "-c", "setsid -f sleep 300; sleep 300 & perl -e 'setpgrp(0, 0); sleep 300' & : > \"$0/started\";"
                        + " exec sleep 300", dir.toString()),
                Limits.DEFAULT.withTimeout(Duration.ofMinutes(5)), new Cancellation()));
        awaitFile(dir.resolve("started"));
        say("RUNNING");
        if (how.equals("exit")) {
            // Only once the test has counted the command's processes: an exit at once could end them first.
            awaitFile(dir.resolve("go"));
            System.exit(0);
        }
        Thread.sleep(Duration.ofMinutes(5));
    }

    private static void awaitFile(Path file) {
        while (!Files.exists(file)) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Whether this JVM has a controlling terminal (the premise of the /dev/tty tests). */
    private static String jvmHasTerminal() {
        try (Terminal.Conversation c = new PosixTerminal().open()) {
            c.write("");
            return "yes";
        } catch (IOException e) {
            return "no (" + e.getMessage() + ")";
        }
    }

    /** Waits until a whole line is pending on the terminal, without reading it. */
    private static void awaitPendingInput() {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(new LibC(currentSystem()), arena);
            int fd = calls.open("/dev/tty", OsConstants.O_RDWR | currentSystem().oNoctty());
            short revents = calls.poll(fd, OsConstants.POLLIN, 20_000);
            calls.close(fd);
            if ((revents & OsConstants.POLLIN) == 0) {
                throw new IllegalStateException("no input arrived: " + revents);
            }
        }
    }

    static OsConstants currentSystem() {
        return OsConstants.forCurrentSystem(System.getProperty("os.name"), System.getProperty("os.arch"))
                .constants().orElseThrow();
    }

    private static int openDescriptors() throws IOException {
        try (var list = Files.list(Path.of("/proc/self/fd"))) {
            return (int) list.count();
        }
    }

    /** What the CLI does: a SIGINT handler that cancels (sun.misc.Signal, by reflection: this is test code on the class path). */
    private static Cancellation cancelOnSigint() throws ReflectiveOperationException {
        Cancellation cancellation = new Cancellation();
        Class<?> signal = Class.forName("sun.misc.Signal");
        Class<?> handler = Class.forName("sun.misc.SignalHandler");
        Object onInt = Proxy.newProxyInstance(Scenarios.class.getClassLoader(), new Class<?>[] {handler},
                (proxy, method, a) -> switch (method.getName()) {
                    case "handle" -> {
                        cancellation.cancel();
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == a[0];
                    default -> "cancel on SIGINT";
                });
        signal.getMethod("handle", signal, handler).invoke(null, signal.getConstructor(String.class).newInstance("INT"), onInt);
        return cancellation;
    }

    static String describe(RunResult result) {
        return switch (result) {
            case RunResult.Exited e -> "exited " + e.status() + " [" + e.output().text() + "]";
            case RunResult.TimedOut t -> "timed-out [" + t.output().text() + "]";
            case RunResult.Interrupted i -> "interrupted [" + i.output().text() + "]";
            case RunResult.LaunchFailed f -> "launch-failed [" + f.reason() + "]";
        };
    }

    private static String summary(RunResult result) {
        if (result instanceof RunResult.Exited e) {
            return "exited " + e.status() + " total=" + e.output().totalBytes() + " kept=" + e.output().head().length
                    + " max-heap=" + Runtime.getRuntime().maxMemory();
        }
        return describe(result);
    }

    /** Whether this process is the child subreaper now, as the kernel says. */
    private static boolean subreaper() {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(new LibC(currentSystem()), arena);
            MemorySegment flag = arena.allocate(ValueLayout.JAVA_INT);
            if (calls.prctl(PR_GET_CHILD_SUBREAPER, flag.address()) != 0) {
                throw new IllegalStateException("prctl(PR_GET_CHILD_SUBREAPER) failed: " + calls.errnoText());
            }
            return flag.get(ValueLayout.JAVA_INT, 0) != 0;
        }
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.print(line + "\n");
            System.out.flush();
        }
    }

    /** Watches stdout's reader on a thread, and exits with a shutdown hook that closes the watch. */
    private static void watchStdoutThenExit() throws InterruptedException {
        PipeReaderWatch watch = Posix.watchPipeReader(1);
        Thread waiter = Thread.ofPlatform().daemon().start(() -> say("watch ended: " + watch.await()));
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            watch.close();
            try {
                waiter.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        say("watching");
        Thread.sleep(200);
        System.exit(0);
    }
}
