package dev.aii.policy.guard;

import java.util.List;
import java.util.function.Supplier;

/**
 * A program's reader, built the first time the program is checked: git's
 * tables (some 400 options, with their negations) take longer to build than
 * the rest of an {@code aii --check ls -la}, which never needs them.
 */
final class DeferredReader implements ProgramReader {

    private final Once<ProgramReader> made;

    DeferredReader(Supplier<ProgramReader> make) {
        this.made = new Once<>(make);
    }

    /** The reader, built now if it was not yet. */
    ProgramReader reader() {
        return made.get();
    }

    @Override
    public void read(List<String> arguments, GuardHits out) {
        reader().read(arguments, out);
    }

    @Override
    public List<TableRow> rows() {
        return reader().rows();
    }

    @Override
    public Vocabulary vocabulary() {
        return reader().vocabulary();
    }
}
