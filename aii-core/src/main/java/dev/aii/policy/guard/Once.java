package dev.aii.policy.guard;

import java.util.Objects;
import java.util.function.Supplier;

/** A value made at its first use, once, whichever thread asks first; the guard tables' lazy parts. */
final class Once<T> {

    private final Supplier<T> make;
    private volatile T value;

    Once(Supplier<T> make) {
        this.make = Objects.requireNonNull(make, "make");
    }

    /** A value there from the start. */
    static <T> Once<T> of(T value) {
        Once<T> once = new Once<>(() -> value);
        once.value = Objects.requireNonNull(value, "value");
        return once;
    }

    /** The value, made now if it was not yet. */
    T get() {
        T made = value;
        if (made == null) {
            synchronized (this) {
                made = value;
                if (made == null) {
                    made = Objects.requireNonNull(make.get(), "made");
                    value = made;
                }
            }
        }
        return made;
    }

    /** The value if it was made, else null. */
    T ifMade() {
        return value;
    }
}
