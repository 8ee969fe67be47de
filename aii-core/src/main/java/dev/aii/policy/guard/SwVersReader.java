package dev.aii.policy.guard;

import java.util.List;
import java.util.Set;

/** The guard table of macOS's {@code sw_vers}: one of its few options or nothing, else it asks. */
final class SwVersReader implements ProgramReader {

    private static final Set<String> OPTIONS = Set.of("-productName", "-productVersion", "-productVersionExtra",
            "-buildVersion", "--productName", "--productVersion", "--productVersionExtra", "--buildVersion",
            "--help");

    @Override
    public void read(List<String> arguments, GuardHits out) {
        for (int i = 0; i < arguments.size(); i++) {
            if (!OPTIONS.contains(arguments.get(i))) {
                out.rejected(i);
                return;
            }
        }
    }

    @Override
    public Vocabulary vocabulary() {
        List<Vocabulary.Word> words = new java.util.ArrayList<>();
        for (String option : OPTIONS) {
            words.add(new Vocabulary.Word(option, Vocabulary.Takes.NONE, null, false));
        }
        return Vocabulary.of(List.of(new Vocabulary.Dialect("macOS", words, null, false, true)));
    }

    @Override
    public List<TableRow> rows() {
        return List.of();
    }
}
