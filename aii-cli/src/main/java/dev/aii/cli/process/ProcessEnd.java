package dev.aii.cli.process;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How the aii process ends once the command line has its exit code.
 *
 * <p>{@link System#exit} first asks the platform's logging whether to log
 * the exit, and finding that out looks for logging providers in every jar
 * of the module path: 10 to 20 ms, a quarter of {@code aii --version}. What
 * else it does is run the shutdown hooks. So aii runs its own exit actions
 * ({@link #atExit}: stop the commands of {@code -x}, end the stdout watch)
 * itself, flushes the standard streams and ends by {@link Runtime#halt},
 * which is that exit without the hooks and without the lookup.
 *
 * <p>It ends by {@link System#exit}, every hook running, when a library
 * registered hooks of its own ({@link #foreignHooksRegistered}: JLine, for
 * {@code -i} on a terminal), or when {@code AII_JAVA_OPTS} is set (a flight
 * recording is written by a hook). A terminating signal that aii handles
 * ends it here too ({@link ProcessSignals}), once what ran is stopped; each
 * exit action is a shutdown hook as well, for whatever else ends the process
 * by {@link System#exit}.
 */
public final class ProcessEnd {

    private static final List<Runnable> ACTIONS = new CopyOnWriteArrayList<>();
    private static volatile boolean foreignHooks;

    private ProcessEnd() {
    }

    /**
     * Runs {@code action} when the process ends: by aii itself before the
     * halt, or as a shutdown hook when the process ends by {@link System#exit}.
     */
    public static void atExit(Runnable action) {
        ACTIONS.add(action);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(action));
    }

    /** A library registered shutdown hooks of its own: the process ends by {@link System#exit}. */
    public static void foreignHooksRegistered() {
        foreignHooks = true;
    }

    /** Whether a process with foreign hooks or not, and this environment, ends by {@link System#exit}. */
    static boolean byExit(boolean foreignHooks, Map<String, String> env) {
        String options = env.get("AII_JAVA_OPTS");
        return foreignHooks || (options != null && !options.isBlank());
    }

    /** Ends the process with {@code code}. */
    public static void end(int code, Map<String, String> env) {
        if (byExit(foreignHooks, env)) {
            System.exit(code);
        }
        for (Runnable action : ACTIONS) {
            try {
                action.run();
            } catch (RuntimeException e) {
                // as a failing shutdown hook: the others still run, and the exit code stands
            }
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }
}
