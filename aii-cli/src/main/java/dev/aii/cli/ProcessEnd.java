package dev.aii.cli;

import java.util.Map;

/**
 * How the aii process ends once the command line has its exit code.
 *
 * <p>{@link System#exit} first asks the platform's logging whether to log
 * the exit, and finding that out looks for logging providers in every jar
 * of the module path: 10 to 20 ms, a quarter of {@code aii --version}. What
 * else it does is run the shutdown hooks. So while nothing has registered
 * one, aii flushes the standard streams and ends by {@link Runtime#halt},
 * which is that exit without the hooks (there are none) and without the
 * lookup. Whatever registers a hook, or uses a library that may (JLine), calls
 * {@link #hooksRegistered} first; and with {@code AII_JAVA_OPTS} set (a
 * flight recording, a cache being written) aii always ends by
 * {@link System#exit}, as the JVM's own tools expect.
 */
final class ProcessEnd {

    private static volatile boolean hooks;

    private ProcessEnd() {
    }

    /** Something is (or may be) registered to run at exit: the process ends by {@link System#exit}. */
    static void hooksRegistered() {
        hooks = true;
    }

    /** Whether the process would end by {@link System#exit} with this environment. */
    static boolean byExit(Map<String, String> env) {
        return byExit(hooks, env);
    }

    /** Whether a process with {@code hooks} registered, and this environment, ends by {@link System#exit}. */
    static boolean byExit(boolean hooks, Map<String, String> env) {
        String options = env.get("AII_JAVA_OPTS");
        return hooks || (options != null && !options.isBlank());
    }

    /** Ends the process with {@code code}. */
    static void end(int code, Map<String, String> env) {
        if (byExit(env)) {
            System.exit(code);
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }
}
