package dev.aii.cli.output;

/**
 * Feeds a repetition detector one line of {@code args[0]} characters without
 * a line feed, in pieces as a server streams them, then the start of the
 * line again: run in a JVM with a small heap, it shows that the detector's
 * memory does not grow with the line.
 */
public final class LongLineMain {

    private LongLineMain() {
    }

    public static void main(String[] args) {
        long length = Long.parseLong(args[0]);
        String sentence = "A line that goes on and on without ever ending, word after word; ";
        RepetitionDetector detector = new RepetitionDetector();
        StringBuilder piece = new StringBuilder();
        long fed = 0;
        boolean repeating = false;
        while (fed < length) {
            piece.setLength(0);
            for (int i = 0; i < 64 && fed < length; i++, fed++) {
                piece.append(sentence.charAt((int) (fed % sentence.length())));
            }
            repeating |= detector.accept(piece.toString());
        }
        repeating |= detector.accept("\n");
        repeating |= detector.accept(sentence.repeat(2));
        System.out.println("fed " + fed + " repeating " + repeating);
    }
}
