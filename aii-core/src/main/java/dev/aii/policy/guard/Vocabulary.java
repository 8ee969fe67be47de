package dev.aii.policy.guard;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a program's guard table knows of its arguments: its dialects (one
 * per implementation or syntax it reads), each with the options it knows,
 * and for a program with subcommands the vocabulary of each. It is the
 * table's own word list, for building commands from it (the tests' oracle
 * does), not a description of what the program accepts.
 *
 * @param dialects how the program reads its options, one per implementation or syntax
 * @param subcommands the subcommands the table reads, by name; empty when it has none
 */
public record Vocabulary(List<Dialect> dialects, Map<String, Vocabulary> subcommands) {

    public Vocabulary {
        dialects = List.copyOf(dialects);
        subcommands = Map.copyOf(subcommands);
    }

    /** What an option takes after it. */
    public enum Takes {
        /** Nothing. */
        NONE,
        /** One value, attached or in the next argument. */
        REQUIRED,
        /** One value, only attached ({@code -Ihours}, {@code --color=never}). */
        OPTIONAL,
        /** Two values, in the next two arguments ({@code find -fprintf FILE FORMAT}). */
        TWO
    }

    /**
     * One option as the table knows it.
     *
     * @param spelling how it is written in full: {@code -o}, {@code --output}, {@code -name}, or a
     *                 letter without a dash for ps's BSD syntax
     * @param takes what it takes after it
     * @param path how the program reads its value as a path; null when it does not
     * @param guarded whether some use of it is guarded (it writes, runs programs, ...)
     */
    public record Word(String spelling, Takes takes, PathValue path, boolean guarded) {
        public Word {
            Objects.requireNonNull(spelling, "spelling");
            Objects.requireNonNull(takes, "takes");
        }
    }

    /**
     * One way the program reads its options.
     *
     * @param name the implementation or syntax, as docs/exec.md names it
     * @param words the options
     * @param clusterPrefix what starts a cluster of one-letter options ({@code -} for getopt, empty for
     *                      ps's BSD letters); null when options are never clustered
     * @param permutes whether options are still read after operands
     * @param stopsOnError whether it stops, having done nothing, at an option it does not know (else an
     *                     option it does not know asks, whatever the other dialects read)
     */
    public record Dialect(String name, List<Word> words, String clusterPrefix, boolean permutes,
                          boolean stopsOnError) {
        public Dialect {
            Objects.requireNonNull(name, "name");
            words = List.copyOf(words);
        }
    }

    /** A vocabulary without subcommands. */
    public static Vocabulary of(List<Dialect> dialects) {
        return new Vocabulary(dialects, Map.of());
    }
}
