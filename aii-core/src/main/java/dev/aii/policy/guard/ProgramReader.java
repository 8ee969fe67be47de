package dev.aii.policy.guard;

import java.util.List;

/** Reads one program's arguments for guarded forms and for the strings that may name paths. */
interface ProgramReader {

    /** Adds to {@code out} what {@code arguments} hold. */
    void read(List<String> arguments, GuardHits out);

    /**
     * The rows of this program's guard table, for docs/exec.md: one line
     * each, {@code | program | option | effect | implementation |}.
     */
    List<TableRow> rows();

    /** The options the table knows, for building commands from them. */
    Vocabulary vocabulary();

    /**
     * One documented row.
     *
     * @param forms how the guarded form is written
     * @param effect what it does
     * @param implementations which implementations have it
     */
    record TableRow(String forms, Effect effect, String implementations) {
    }
}
