package dev.aii.cli.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A terminal that closes under aii, with aii's exit status seen: this JVM
 * makes itself the child subreaper (Linux), runs {@code script} with the
 * command in {@code args[0]} (which must {@code exec} aii, so that aii is the
 * session leader of the new terminal, as a login shell's job would get the
 * hangup), waits until the terminal shows {@code args[1]}, then kills
 * {@code script} alone with SIGKILL: the terminal's master side closes, the
 * kernel hangs the terminal up and sends SIGHUP to aii. aii, orphaned, becomes
 * this JVM's child, and its status is printed as {@code exit <n>} or
 * {@code signal <n>}. Run with {@code --enable-native-access=ALL-UNNAMED}.
 */
public final class HangupMain {

    private static final int PR_SET_CHILD_SUBREAPER = 36;

    private HangupMain() {
    }

    public static void main(String[] args) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle prctl = linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        MethodHandle waitpid = linker.downcallHandle(linker.defaultLookup().find("waitpid").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT));
        if ((int) prctl.invokeExact(PR_SET_CHILD_SUBREAPER, 1L) != 0) {
            throw new IllegalStateException("prctl(PR_SET_CHILD_SUBREAPER) failed");
        }
        Process script = new ProcessBuilder(List.of("/usr/bin/script", "-qfec", args[0], "/dev/null"))
                .redirectErrorStream(true).start();
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        Thread pump = Thread.ofPlatform().daemon().start(() -> copy(script.getInputStream(), shown));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!text(shown).contains(args[1])) {
            if (System.nanoTime() > deadline || !script.isAlive()) {
                System.out.println("never shown: " + args[1] + "; the terminal showed: " + text(shown));
                script.destroyForcibly();
                return;
            }
            Thread.sleep(20);
        }
        // script's child became the aii JVM through exec; it is the one child.
        long aii = script.toHandle().children().findFirst().orElseThrow().pid();
        script.destroyForcibly();
        // Once script is gone, the kernel has made aii this JVM's child.
        if (!script.waitFor(20, TimeUnit.SECONDS)) {
            System.out.println("script did not die");
            return;
        }
        pump.join(5_000);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(ValueLayout.JAVA_INT);
            int reaped = (int) waitpid.invokeExact((int) aii, status, 0);
            if (reaped != aii) {
                System.out.println("waitpid(" + aii + ") gave " + reaped);
                return;
            }
            int s = status.get(ValueLayout.JAVA_INT, 0);
            System.out.println((s & 0x7f) == 0 ? "exit " + ((s >> 8) & 0xff) : "signal " + (s & 0x7f));
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream to) {
        byte[] buffer = new byte[4096];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (to) {
                    to.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            // script is gone.
        }
    }

    private static String text(ByteArrayOutputStream out) {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8);
        }
    }
}
