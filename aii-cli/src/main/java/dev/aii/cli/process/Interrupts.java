package dev.aii.cli.process;

/** Where Ctrl-C, and Ctrl-Z, come from. */
public interface Interrupts {

    /**
     * Runs {@code action} on each Ctrl-C until the returned handle is closed
     * (then the previous behaviour is back).
     */
    Registration onInterrupt(Runnable action);

    /**
     * Runs {@code action} on each Ctrl-Z (SIGTSTP) instead of stopping aii,
     * until the returned handle is closed; the action stops aii itself. Where
     * Ctrl-Z cannot be taken over, nothing changes.
     */
    default Registration onSuspend(Runnable action) {
        return () -> { };
    }

    /** An installed action. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** Ctrl-C and Ctrl-Z as the JVM's SIGINT and SIGTSTP. */
    static Interrupts sigint() {
        return new Interrupts() {
            @Override
            public Registration onInterrupt(Runnable action) {
                return handle("INT", action);
            }

            @Override
            public Registration onSuspend(Runnable action) {
                return handle("TSTP", action);
            }
        };
    }

    private static Registration handle(String name, Runnable action) {
        sun.misc.Signal signal = new sun.misc.Signal(name);
        sun.misc.SignalHandler previous = sun.misc.Signal.handle(signal, s -> action.run());
        return () -> sun.misc.Signal.handle(signal, previous);
    }
}
