package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.List;

/**
 * A program that is another with arguments of its own before the user's
 * (Debian's {@code rgrep} is {@code grep -r}): read as that program with
 * them, every finding moved to the user's arguments.
 */
final class PrefixedReader implements ProgramReader {

    private final ProgramReader inner;
    private final List<String> prefix;

    PrefixedReader(ProgramReader inner, List<String> prefix) {
        this.inner = inner;
        this.prefix = List.copyOf(prefix);
    }

    @Override
    public void read(List<String> arguments, GuardHits out) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(arguments);
        GuardHits inside = out.fresh();
        inner.read(all, inside);
        // A finding at one of the program's own arguments belongs to the first of the user's (or the program).
        List<Integer> from = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            from.add(i < prefix.size() ? (arguments.isEmpty() ? -1 : 0) : i - prefix.size());
        }
        out.addAll(inside, from);
    }

    @Override
    public List<TableRow> rows() {
        return inner.rows();
    }

    @Override
    public Vocabulary vocabulary() {
        return inner.vocabulary();
    }
}
