package dev.aii.llamacpp.engine;

import java.util.Objects;

/** A native call that failed: its status, what failed, and llama.cpp's own words. */
public final class NativeFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final Status status;
    private final String detail;

    NativeFailure(Status status, String message, String detail) {
        super(Objects.requireNonNull(message, "message"));
        this.status = Objects.requireNonNull(status, "status");
        this.detail = detail == null ? "" : detail.strip();
    }

    /** A failed shim call: {@code code} is its status, {@code text} what it said. */
    static NativeFailure shim(String what, Text.Status result) {
        return new NativeFailure(Status.of(result.code()), what, result.text());
    }

    public Status status() {
        return status;
    }

    /** llama.cpp's or the shim's text about the failure; empty when they said nothing. */
    public String detail() {
        return detail;
    }
}
