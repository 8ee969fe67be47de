package dev.aii.model;

/** Receives the text of an answer as it streams. */
@FunctionalInterface
public interface TextSink {

    /** Called with each piece of text, in order, on the thread that called {@link Session#respond}. */
    void accept(String piece);
}
