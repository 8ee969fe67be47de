package dev.aii.policy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The names a program name stands for: itself and the names its variants are
 * made from, so that never-always covers a family rather than a list of
 * spellings. A name is taken apart by rules, each applied again to what the
 * others leave: everything from the first {@code .} goes ({@code vim.basic},
 * {@code python3.11}); a trailing version goes ({@code node20},
 * {@code python3}, {@code perl5}); a name of several words stands for each
 * word ({@code sensible-editor}, {@code emacs-nox}, {@code gdb-multiarch});
 * a leading variant letter goes ({@code rvim}, {@code gvim}, {@code evim},
 * {@code rbash}, {@code gawk}, {@code gsed}, {@code red}); and a trailing
 * variant word goes ({@code vimdiff}, {@code vimtutor}, {@code emacsclient},
 * {@code luajit}, {@code nodejs}, {@code pythonw}). Names are compared without
 * regard to ASCII case, as macOS's usual file system finds them.
 */
final class ProgramFamily {

    /** Letters a variant's name starts with: restricted, GUI, easy, new, BSD, mini and X versions. */
    private static final String VARIANT_LETTERS = "rgenbmx";

    /** Words a variant's name ends with. */
    private static final String[] VARIANT_ENDINGS = {"diff", "tutor", "client", "jit", "js", "w", "m"};

    private ProgramFamily() {
    }

    /** {@code name} and every name it stands for, lower case. */
    static Set<String> stems(String name) {
        Set<String> out = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add(name.toLowerCase(Locale.ROOT));
        while (!todo.isEmpty() && out.size() < 64) {
            String s = todo.poll();
            if (s.isEmpty() || !out.add(s)) {
                continue;
            }
            int dot = s.indexOf('.');
            if (dot > 0) {
                todo.add(s.substring(0, dot));
            }
            todo.add(withoutVersion(s));
            for (String word : s.split("[-_]")) {
                todo.add(word);
            }
            if (s.length() > 2 && VARIANT_LETTERS.indexOf(s.charAt(0)) >= 0) {
                todo.add(s.substring(1));
            }
            for (String ending : VARIANT_ENDINGS) {
                if (s.length() > ending.length() + 1 && s.endsWith(ending)) {
                    todo.add(s.substring(0, s.length() - ending.length()));
                }
            }
        }
        return out;
    }

    /** {@code s} without trailing digits, dots, dashes and underscores ({@code perl5.36.0} → {@code perl}). */
    private static String withoutVersion(String s) {
        int end = s.length();
        while (end > 0 && isVersionChar(s.charAt(end - 1))) {
            end--;
        }
        return end < s.length() && end > 0 && hasDigit(s, end) ? s.substring(0, end) : s;
    }

    private static boolean isVersionChar(char c) {
        return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    }

    private static boolean hasDigit(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                return true;
            }
        }
        return false;
    }
}
