package dev.aii.exec;

/** Asks a human whether a command may run. */
public interface Approver {

    /** A human's answer. */
    enum Answer {
        /** Run it this once. */
        ONCE,
        /** Run it, and store the offered prefix as a rule; where none was offered, the tool takes it as no. */
        ALWAYS,
        /** Do not run it (also empty input, EOF, anything unrecognised, Ctrl-C). */
        NO,
        /** There is no terminal to ask on. */
        NO_TERMINAL
    }

    /**
     * Asks about one command and waits for the answer. Never throws.
     *
     * @param cancellation fires when the user interrupts the whole answer; the answer is then {@link Answer#NO}
     */
    Answer ask(ApprovalRequest request, Cancellation cancellation);
}
