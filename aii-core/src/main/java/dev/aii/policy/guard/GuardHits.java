package dev.aii.policy.guard;

import dev.aii.policy.Render;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What reading one command found: the guarded forms, each at the index of
 * the argument that spells it, and the arguments and option values that may
 * name paths, for {@link PathGuard} to look at.
 */
final class GuardHits {

    /**
     * A guarded form.
     *
     * @param index the argument that spells it
     * @param reason the note shown at the prompt
     */
    record Hit(int index, String reason) {
    }

    /**
     * A string that may name a path.
     *
     * @param index the argument it is, or is part of
     * @param path the string, as the program will use it
     * @param recursive whether the program reads everything below it when it is a directory
     */
    record Candidate(int index, String path, boolean recursive) {
    }

    private final String program;
    private final List<Hit> hits = new ArrayList<>();
    private final Map<String, Candidate> candidates = new LinkedHashMap<>();

    GuardHits(String program) {
        this.program = program;
    }

    String program() {
        return program;
    }

    /** A form with {@code effect}: {@code this form of <program> <what it does>}. */
    void effect(int index, Effect effect) {
        hit(index, "this form of " + program + " " + effect.phrase());
    }

    /** A form with its own phrase: {@code this form of <program> <phrase>}. */
    void effect(int index, String phrase) {
        hit(index, "this form of " + program + " " + phrase);
    }

    /** An option the program's table does not know. */
    void unknown(int index, String token) {
        hit(index, "aii does not know the option " + Render.render(List.of(token)) + " of " + program);
    }

    /** Arguments that no implementation aii knows accepts. */
    void rejected(int index) {
        hit(index, "no " + program + " that aii knows accepts these arguments");
    }

    void hit(int index, String reason) {
        hits.add(new Hit(index, reason));
    }

    /** A string to look at as a path (ignored when empty). */
    void path(int index, String path, boolean recursive) {
        if (path.isEmpty()) {
            return;
        }
        String key = (recursive ? "r" : "-") + path;
        Candidate before = candidates.get(key);
        if (before == null || before.index() < index) {
            candidates.put(key, new Candidate(index, path, recursive));
        }
    }

    /** Adds what {@code other} found, its argument {@code i} being argument {@code from.get(i)} here. */
    void addAll(GuardHits other, List<Integer> from) {
        for (Hit h : other.hits) {
            hits.add(new Hit(h.index() < 0 ? h.index() : from.get(h.index()), h.reason()));
        }
        for (Candidate c : other.candidates.values()) {
            path(from.get(c.index()), c.path(), c.recursive());
        }
    }

    List<Hit> hits() {
        return hits;
    }

    Iterable<Candidate> candidates() {
        return candidates.values();
    }
}
