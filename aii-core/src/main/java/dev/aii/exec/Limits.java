package dev.aii.exec;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits every command runs under, in one place.
 *
 * @param timeout wall-clock time before the command is terminated
 * @param outputCap bytes of output kept for the model (the rest is counted and dropped)
 * @param killGrace time between SIGTERM and SIGKILL
 * @param pipeGrace time the output pipe may stay open after the command exits
 *                  (a grandchild holding it must not hang aii)
 * @param commandsPerAnswer commands that may run in one answer of the model
 */
public record Limits(Duration timeout, int outputCap, Duration killGrace, Duration pipeGrace, int commandsPerAnswer) {

    /** 30 s, 2048 bytes, 2 s, 1 s, 16 commands. */
    public static final Limits DEFAULT = new Limits(
            Duration.ofSeconds(30), 2048, Duration.ofSeconds(2), Duration.ofSeconds(1), 16);

    public Limits {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(killGrace, "killGrace");
        Objects.requireNonNull(pipeGrace, "pipeGrace");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        if (outputCap < 0) {
            throw new IllegalArgumentException("output cap must not be negative: " + outputCap);
        }
        if (killGrace.isNegative() || pipeGrace.isNegative()) {
            throw new IllegalArgumentException("graces must not be negative: " + killGrace + ", " + pipeGrace);
        }
        if (commandsPerAnswer < 1) {
            throw new IllegalArgumentException("commands per answer must be at least 1: " + commandsPerAnswer);
        }
    }

    public Limits withTimeout(Duration newTimeout) {
        return new Limits(newTimeout, outputCap, killGrace, pipeGrace, commandsPerAnswer);
    }

    public Limits withOutputCap(int newCap) {
        return new Limits(timeout, newCap, killGrace, pipeGrace, commandsPerAnswer);
    }

    public Limits withKillGrace(Duration newGrace) {
        return new Limits(timeout, outputCap, newGrace, pipeGrace, commandsPerAnswer);
    }

    public Limits withPipeGrace(Duration newGrace) {
        return new Limits(timeout, outputCap, killGrace, newGrace, commandsPerAnswer);
    }

    public Limits withCommandsPerAnswer(int n) {
        return new Limits(timeout, outputCap, killGrace, pipeGrace, n);
    }
}
