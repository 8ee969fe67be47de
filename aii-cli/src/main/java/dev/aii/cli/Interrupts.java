package dev.aii.cli;

/** Where Ctrl-C comes from. */
interface Interrupts {

    /**
     * Runs {@code action} on each Ctrl-C until the returned handle is closed
     * (then the previous behaviour is back).
     */
    Registration onInterrupt(Runnable action);

    /** An installed Ctrl-C action. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** Ctrl-C as the JVM's SIGINT. */
    static Interrupts sigint() {
        return action -> {
            sun.misc.Signal signal = new sun.misc.Signal("INT");
            sun.misc.SignalHandler previous = sun.misc.Signal.handle(signal, s -> action.run());
            return () -> sun.misc.Signal.handle(signal, previous);
        };
    }
}
