package dev.aii.policy;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A program's reader, built the first time the program is checked: git's
 * tables (some 400 options, with their negations) take longer to build than
 * the rest of an {@code aii --check ls -la}, which never needs them.
 */
final class DeferredReader implements ProgramReader {

    private final Supplier<ProgramReader> make;
    private volatile ProgramReader made;

    DeferredReader(Supplier<ProgramReader> make) {
        this.make = Objects.requireNonNull(make, "make");
    }

    /** The reader, built now if it was not yet. */
    ProgramReader reader() {
        ProgramReader reader = made;
        if (reader == null) {
            synchronized (this) {
                reader = made;
                if (reader == null) {
                    reader = Objects.requireNonNull(make.get(), "reader");
                    made = reader;
                }
            }
        }
        return reader;
    }

    @Override
    public void read(List<String> arguments, GuardHits out) {
        reader().read(arguments, out);
    }

    @Override
    public List<TableRow> rows() {
        return reader().rows();
    }
}
