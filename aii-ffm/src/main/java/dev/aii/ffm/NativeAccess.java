package dev.aii.ffm;

/** Whether this module may make native calls (the JVM was started with {@code --enable-native-access}). */
public final class NativeAccess {

    private NativeAccess() {
    }

    /** True when restricted FFM methods may be called from this module without a warning. */
    public static boolean enabled() {
        return NativeAccess.class.getModule().isNativeAccessEnabled();
    }
}
