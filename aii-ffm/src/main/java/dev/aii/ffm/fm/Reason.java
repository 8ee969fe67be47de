package dev.aii.ffm.fm;

import dev.aii.ffm.fm.bindings.fmshim_h;

/**
 * Whether the on-device model can answer ({@code FMSHIM_AVAILABLE}, {@code FMSHIM_UNAVAILABLE_*}),
 * with the framework's name for the reason, which becomes the error's detail.
 */
public enum Reason {
    AVAILABLE(fmshim_h.FMSHIM_AVAILABLE(), "available"),
    DEVICE_NOT_ELIGIBLE(fmshim_h.FMSHIM_UNAVAILABLE_DEVICE_NOT_ELIGIBLE(), "deviceNotEligible"),
    NOT_ENABLED(fmshim_h.FMSHIM_UNAVAILABLE_NOT_ENABLED(), "appleIntelligenceNotEnabled"),
    MODEL_NOT_READY(fmshim_h.FMSHIM_UNAVAILABLE_MODEL_NOT_READY(), "modelNotReady"),
    UNKNOWN(fmshim_h.FMSHIM_UNAVAILABLE_UNKNOWN(), "unknown");

    private final int code;
    private final String caseName;

    Reason(int code, String caseName) {
        this.code = code;
        this.caseName = caseName;
    }

    /** The reason for a code returned by the shim; codes it does not know are {@link #UNKNOWN}. */
    static Reason of(int code) {
        for (Reason reason : values()) {
            if (reason.code == code) {
                return reason;
            }
        }
        return UNKNOWN;
    }

    /** The framework's name of the reason, e.g. {@code appleIntelligenceNotEnabled}. */
    public String caseName() {
        return caseName;
    }
}
