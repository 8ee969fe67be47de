package dev.aii.llamacpp.engine;

import java.util.concurrent.TimeUnit;

/**
 * A JVM that dies of SIGABRT, as it does when llama.cpp aborts, while a
 * command it started runs in a session of its own (as aii starts commands).
 * With {@code guard} it has loaded the libraries (and so the shim's abort
 * guard) first. Prints the command's process id, then aborts.
 */
public final class AbortGuardMain {

    private AbortGuardMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("guard")) {
            Natives.load(System.getenv(), false);
        }
        Process command = new ProcessBuilder("setsid", "sleep", "300").start();
        System.out.println(command.pid());
        System.out.flush();
        new ProcessBuilder("kill", "-ABRT", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        Thread.sleep(TimeUnit.SECONDS.toMillis(30));
        System.exit(3);     // not reached: the signal ends the JVM
    }
}
