package dev.aii.cli;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * How commands run on this machine ({@link LocalExec#create()}), made once.
 * {@link #prepare()} starts making it on a thread of its own, so that binding
 * the C library (about 100 ms in a fresh process, most of it the JDK
 * generating its call stubs) happens while the model server answers the first
 * requests, not before the first tool call. Nothing of {@link LocalExec} is
 * loaded until then: the short commands never need it.
 */
final class ExecSupply implements Supplier<ExecHost> {

    private FutureTask<ExecHost> made;

    private synchronized FutureTask<ExecHost> made() {
        if (made == null) {
            FutureTask<ExecHost> task = new FutureTask<>(() -> LocalExec.create());
            made = task;
            // Whatever still runs when aii ends is stopped (the native runner's own hook does it too, when
            // the process ends by System.exit); nothing has run before the host is made.
            ProcessEnd.atExit(() -> {
                if (task.isDone()) {
                    try {
                        task.get().terminateCommands();
                    } catch (ExecutionException | InterruptedException e) {
                        // no host, so no command
                    }
                }
            });
        }
        return made;
    }

    /** Starts making it now; a later {@link #get()} waits for what remains. */
    void prepare() {
        Thread.ofPlatform().daemon().name("aii-exec-prepare").start(made());
    }

    @Override
    public ExecHost get() {
        FutureTask<ExecHost> task = made();
        task.run();   // nothing when it ran already or runs on the other thread
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding the C library", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
