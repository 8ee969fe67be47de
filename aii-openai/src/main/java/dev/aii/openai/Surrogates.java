package dev.aii.openai;

/**
 * The one rule for unpaired UTF-16 surrogates (which a JSON escape of a lone
 * surrogate can produce but no UTF-8 can carry): each becomes U+FFFD,
 * the replacement character, in the text shown and in the tool arguments
 * alike, so that what the user sees is what runs.
 */
final class Surrogates {

    static final char REPLACEMENT = '\uFFFD';

    private Surrogates() {
    }

    static boolean hasUnpaired(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** {@code s} with every unpaired surrogate replaced by U+FFFD. */
    static String wellFormed(String s) {
        if (!hasUnpaired(s)) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else {
                out.append(Character.isSurrogate(c) ? REPLACEMENT : c);
            }
        }
        return out.toString();
    }
}
