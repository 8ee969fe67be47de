package dev.aii.ffm.fm;

import dev.aii.ffm.fm.bindings.fmshim_h;

/** The status codes of the shim's functions ({@code FMSHIM_OK}, {@code FMSHIM_ERR_*} of {@code fmshim.h}). */
public enum Status {
    OK(fmshim_h.FMSHIM_OK()),
    INVALID_ARGUMENT(fmshim_h.FMSHIM_ERR_INVALID_ARGUMENT()),
    UNSUPPORTED(fmshim_h.FMSHIM_ERR_UNSUPPORTED()),
    BUSY(fmshim_h.FMSHIM_ERR_BUSY()),
    CANCELLED(fmshim_h.FMSHIM_ERR_CANCELLED()),
    STOPPED(fmshim_h.FMSHIM_ERR_STOPPED()),
    TOOL_FAILED(fmshim_h.FMSHIM_ERR_TOOL_FAILED()),
    SCHEMA(fmshim_h.FMSHIM_ERR_SCHEMA()),
    INTERNAL(fmshim_h.FMSHIM_ERR_INTERNAL()),
    CONTEXT_EXCEEDED(fmshim_h.FMSHIM_ERR_CONTEXT_EXCEEDED()),
    ASSETS_UNAVAILABLE(fmshim_h.FMSHIM_ERR_ASSETS_UNAVAILABLE()),
    GUARDRAIL_VIOLATION(fmshim_h.FMSHIM_ERR_GUARDRAIL_VIOLATION()),
    UNSUPPORTED_GUIDE(fmshim_h.FMSHIM_ERR_UNSUPPORTED_GUIDE()),
    UNSUPPORTED_LANGUAGE(fmshim_h.FMSHIM_ERR_UNSUPPORTED_LANGUAGE()),
    DECODING_FAILURE(fmshim_h.FMSHIM_ERR_DECODING_FAILURE()),
    RATE_LIMITED(fmshim_h.FMSHIM_ERR_RATE_LIMITED()),
    CONCURRENT_REQUESTS(fmshim_h.FMSHIM_ERR_CONCURRENT_REQUESTS()),
    REFUSAL(fmshim_h.FMSHIM_ERR_REFUSAL()),
    TRANSCRIPT_MUTATION(fmshim_h.FMSHIM_ERR_TRANSCRIPT_MUTATION()),
    GENERATION_OTHER(fmshim_h.FMSHIM_ERR_GENERATION_OTHER()),
    /** A code this version of aii does not know; the detail then names it. */
    UNRECOGNIZED(-1);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** The status for a code returned by the shim. */
    static Status of(int code) {
        for (Status status : values()) {
            if (status.code == code && status != UNRECOGNIZED) {
                return status;
            }
        }
        return UNRECOGNIZED;
    }

    /** The code of {@code fmshim.h}, for messages. */
    int code() {
        return code;
    }
}
