package dev.aii.policy.guard;

/** What a guarded argument form can do, as a guard table's rows say it. */
enum Effect {
    /** Creates, changes or deletes files. */
    WRITE("write", "can write files"),
    /** Runs another program, or code it was given. */
    EXEC("exec", "runs another program"),
    /** Changes the system: its clock, host name, kernel settings. */
    STATE("state", "can change the system's settings"),
    /** Waits for more input without end (follows a file, reads a stream that never ends). */
    FOLLOW("follow", "can wait for input forever"),
    /** Shows the environment of other processes, secrets included. */
    ENVIRON("environ", "shows other processes' environments"),
    /** Opens files named inside another file, which aii does not see. */
    LIST("list", "opens files named in another file"),
    /** Reads files below a directory, so it can reach a process's files under {@code /proc}. */
    RECURSE("recurse", "reads every file below a directory");

    private final String word;
    private final String phrase;

    Effect(String word, String phrase) {
        this.word = word;
        this.phrase = phrase;
    }

    /** The one word docs/exec.md's tables use. */
    String word() {
        return word;
    }

    /** What a note at the prompt says after {@code this form of <program> }. */
    String phrase() {
        return phrase;
    }
}
