package dev.aii.cli.exec;

import dev.aii.cli.process.ProcessEnd;
import dev.aii.policy.ExecPolicy;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * How commands run on this machine ({@link LocalExec#create()}), made once.
 * {@link #prepare()} starts making it on a thread of its own, so that binding
 * the C library (100 to 200 ms in a fresh process, most of it the JDK
 * generating its call stubs) happens while the first request goes out and
 * the model thinks; {@link #deferred} is the host that waits for it only at
 * the first tool call. Nothing of {@link LocalExec} is loaded until then:
 * the short commands never need it.
 */
public final class ExecSupply implements Supplier<ExecHost> {

    /** What makes the host; null: {@link LocalExec#create()}. */
    private final Supplier<ExecHost> factory;
    private FutureTask<ExecHost> made;
    private DeferredExec deferred;

    public ExecSupply() {
        this(null);
    }

    /** For tests: the host {@code factory} makes, instead of this machine's. */
    ExecSupply(Supplier<ExecHost> factory) {
        this.factory = factory;
    }

    private synchronized FutureTask<ExecHost> made() {
        if (made == null) {
            Callable<ExecHost> make = factory == null ? () -> LocalExec.create() : factory::get;
            FutureTask<ExecHost> task = new FutureTask<>(make);
            made = task;
            // Whatever still runs when aii ends is stopped (the native runner's own hook does it too, when
            // the process ends by System.exit); nothing has run before the host is made.
            ProcessEnd.atExit(() -> ifMade().ifPresent(ExecHost::terminateCommands));
        }
        return made;
    }

    /**
     * Starts making it now, then builds the policy's tables
     * ({@link ExecPolicy#prepare()}); a later {@link #get()} waits for what
     * remains of the host. The tables come second since they take
     * milliseconds where binding takes a hundred: a tool call that comes
     * before both are ready waits for the host, then finds the tables built
     * or being built.
     */
    public void prepare() {
        FutureTask<ExecHost> host = made();
        Thread.ofPlatform().daemon().name("aii-exec-prepare").start(() -> {
            host.run();
            try {
                ExecPolicy.prepare();
            } catch (RuntimeException e) {
                // Only a head start: the first decision builds the tables itself and reports its own failures.
            }
        });
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

    /** The host if it is made already, without waiting; empty while it is being made, or if making it failed. */
    Optional<ExecHost> ifMade() {
        FutureTask<ExecHost> task;
        synchronized (this) {
            task = made;
        }
        if (task == null || !task.isDone()) {
            return Optional.empty();
        }
        try {
            return Optional.of(task.get());
        } catch (ExecutionException | InterruptedException | CancellationException e) {
            return Optional.empty();
        }
    }

    /**
     * The host for {@code -x} that waits for this one only where it is
     * needed (see {@link DeferredExec}); made once.
     *
     * @param warningBeforeBinding the fallback warning known without binding, which the caller gives now
     * @param warn                 where a fallback warning known only after binding goes, at the first tool call
     */
    synchronized DeferredExec deferred(Optional<String> warningBeforeBinding, Consumer<String> warn) {
        if (deferred == null) {
            deferred = new DeferredExec(this, warningBeforeBinding, warn);
        }
        return deferred;
    }

    /** At a tool call: waits for the host, if {@link #deferred} was asked for, and gives a late warning once. */
    void settle() {
        DeferredExec d;
        synchronized (this) {
            d = deferred;
        }
        if (d != null) {
            d.settle();
        }
    }
}
