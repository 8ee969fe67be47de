package dev.aii.llamacpp.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * How many threads llama.cpp computes with: {@code AII_THREADS} when it is a
 * positive number, else the cores this process may use that are not busy
 * (the one-minute load average says how many are), at least one. Threads on
 * cores that other work keeps busy wait for each other at every step: on two
 * busy cores two threads decode a hundred times slower than one.
 */
public final class Threads {

    /** The environment variable that fixes the count. */
    public static final String ENVIRONMENT_VARIABLE = "AII_THREADS";

    private Threads() {
    }

    /** The thread count for {@code environment} on this machine now. */
    public static int choose(Map<String, String> environment) {
        return choose(environment, Runtime.getRuntime().availableProcessors(), loadAverage());
    }

    /**
     * The thread count of {@code cores} usable cores under a one-minute load
     * of {@code load} runnable tasks; a bad {@code AII_THREADS} is ignored.
     */
    static int choose(Map<String, String> environment, int cores, Optional<Double> load) {
        Optional<Integer> fixed = configured(environment);
        if (fixed.isPresent()) {
            return fixed.get();
        }
        int busy = load.map(l -> (int) Math.round(l)).orElse(0);
        return Math.max(1, Math.min(cores, cores - busy));
    }

    /** {@code AII_THREADS} as a positive number, when it is one. */
    static Optional<Integer> configured(Map<String, String> environment) {
        String value = environment.get(ENVIRONMENT_VARIABLE);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            int n = Integer.parseInt(value.strip());
            return n > 0 ? Optional.of(Math.min(n, 512)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Double> loadAverage() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg"));
            return Optional.of(Double.parseDouble(line.substring(0, line.indexOf(' '))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();     // not Linux: every usable core
        }
    }
}
