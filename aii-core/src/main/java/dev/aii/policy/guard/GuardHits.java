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
     * @param below what the program reads below it when it is a directory
     * @param base the directory the program resolves a relative path from: empty for the
     *             current directory, else relative to it or absolute ({@code git -C dir})
     * @param read how the program reads it: null when it may not be a path at all (looked at
     *             only when it names something), else as that kind of path value, which must exist
     * @param tops for a value read from the top of the work tree, work trees named outright
     *             ({@code git --work-tree=dir}), relative to {@code base} or absolute
     */
    record Candidate(int index, String path, Below below, String base, PathValue read, List<String> tops) {
        Candidate {
            tops = List.copyOf(tops);
        }

        boolean recursive() {
            return below != Below.NOTHING;
        }
    }

    /** What a program reads below a directory it is given. */
    enum Below {
        /** Nothing: it lists the directory at most. */
        NOTHING,
        /** Every file below it, links not followed: only a directory whose tree reaches other processes asks. */
        TREE,
        /** The files in it, links followed (GNU diff comparing directories): any directory asks. */
        FOLLOWED
    }

    private final String program;
    private final String base;
    private final List<String> tops;
    private final List<Hit> hits = new ArrayList<>();
    private final Map<String, Candidate> candidates = new LinkedHashMap<>();

    GuardHits(String program) {
        this(program, "", List.of());
    }

    private GuardHits(String program, String base, List<String> tops) {
        this.program = program;
        this.base = base;
        this.tops = List.copyOf(tops);
    }

    /** An empty reading of the same program that resolves paths from {@code dir} (git's {@code -C}). */
    GuardHits at(String dir, List<String> workTrees) {
        return new GuardHits(program, dir, workTrees);
    }

    /** An empty reading of the same program, from the same directory. */
    GuardHits fresh() {
        return new GuardHits(program, base, tops);
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

    /** A string to look at as a path when it names something (ignored when empty). */
    void path(int index, String path, boolean recursive) {
        add(new Candidate(index, path, recursive ? Below.TREE : Below.NOTHING, base, null, List.of()));
    }

    /** A path whose files the program reads through their links when it is a directory: a directory asks. */
    void pathFollowed(int index, String path) {
        add(new Candidate(index, path, Below.FOLLOWED, base, null, List.of()));
    }

    /** A string to look at as a path when it names something, resolved from {@code dir}, not this base. */
    void pathAt(String dir, int index, String path) {
        add(new Candidate(index, path, Below.NOTHING, dir, null, List.of()));
    }

    /** An option value the program reads as a path, {@code read} says how: every path in it must exist. */
    void pathValue(int index, String value, PathValue read) {
        if (read.paths(value).isEmpty() && !value.equals("-")) {
            // A value that names no path at all ("file -m :"): the program finds its files some other way.
            hit(index, Render.render(List.of(value)) + " names no file aii can check");
        }
        for (String path : read.paths(value)) {
            add(new Candidate(index, path, read.filesInDirectories() ? Below.FOLLOWED : Below.NOTHING, base, read,
                    read.kind() == PathValue.Kind.FROM_TOP ? tops : List.of()));
        }
    }

    private void add(Candidate c) {
        if (c.path().isEmpty()) {
            return;
        }
        String key = c.below().name() + (c.read() == null ? "-" : c.read().kind().name()) + c.base()
                + "\0" + c.path();
        Candidate before = candidates.get(key);
        if (before == null || before.index() < c.index()) {
            candidates.put(key, c);
        }
    }

    /** Adds what {@code other} found, its argument {@code i} being argument {@code from.get(i)} here. */
    void addAll(GuardHits other, List<Integer> from) {
        for (Hit h : other.hits) {
            hits.add(new Hit(h.index() < 0 ? h.index() : from.get(h.index()), h.reason()));
        }
        for (Candidate c : other.candidates.values()) {
            add(new Candidate(from.get(c.index()), c.path(), c.below(), c.base(), c.read(), c.tops()));
        }
    }

    List<Hit> hits() {
        return hits;
    }

    Iterable<Candidate> candidates() {
        return candidates.values();
    }
}
