package dev.aii.model;

import java.util.Optional;

/**
 * Whether a model can answer now, and if not, the error that says why.
 *
 * @param problem the reason it cannot answer; absent when it can
 */
public record Availability(Optional<ModelException> problem) {

    private static final Availability AVAILABLE = new Availability(Optional.empty());

    public Availability {
        problem = problem == null ? Optional.empty() : problem;
    }

    public static Availability available() {
        return AVAILABLE;
    }

    public static Availability unavailable(ModelException why) {
        return new Availability(Optional.of(why));
    }

    public boolean isAvailable() {
        return problem.isEmpty();
    }
}
