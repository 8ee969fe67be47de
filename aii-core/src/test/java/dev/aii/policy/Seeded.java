package dev.aii.policy;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Property tests with seeded generators: a property runs over inputs drawn
 * from one seed, and a failure names the seed, the try and the input, so that
 * {@code -Daii.test.seed=<seed>} replays exactly the same inputs.
 *
 * {@snippet :
 * Seeded.forAll(1000, random -> Seeded.listOf(random, 1, 6, r -> Seeded.stringOf(r, "ab\n", 8)),
 *         argv -> assertEquals(argv, parse(quote(argv))));
 * }
 */
public final class Seeded {

    /** The system property that fixes the seed (otherwise each run draws a new one). */
    public static final String SEED_PROPERTY = "aii.test.seed";

    /** A property of one input; it fails by throwing. */
    @FunctionalInterface
    public interface Property<T> {
        void check(T input) throws Exception;
    }

    private Seeded() {
    }

    /** The seed of this run: {@value #SEED_PROPERTY} when set, else a fresh random one. */
    public static long seed() {
        String fixed = System.getProperty(SEED_PROPERTY);
        return fixed == null || fixed.isBlank() ? new SecureRandom().nextLong() : Long.parseLong(fixed.trim());
    }

    /** Checks {@code property} on {@code tries} inputs of {@code generator}, from {@link #seed()}. */
    public static <T> void forAll(int tries, Function<SplittableRandom, T> generator, Property<T> property) {
        forAll(seed(), tries, generator, property);
    }

    /** Checks {@code property} on {@code tries} inputs of {@code generator}, from {@code seed}. */
    public static <T> void forAll(long seed, int tries, Function<SplittableRandom, T> generator, Property<T> property) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 1; i <= tries; i++) {
            T input = generator.apply(random);
            try {
                property.check(input);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("property failed on try " + i + " of " + tries + " with seed " + seed
                        + " (replay: -D" + SEED_PROPERTY + "=" + seed + "), input " + describe(input)
                        + ": " + e.getMessage(), e);
            }
        }
    }

    /** A list of {@code min} to {@code max} elements. */
    public static <T> List<T> listOf(SplittableRandom random, int min, int max, Function<SplittableRandom, T> element) {
        int size = min + random.nextInt(max - min + 1);
        List<T> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(element.apply(random));
        }
        return list;
    }

    /** A value of {@code generator} that satisfies {@code condition} (drawn again until one does). */
    public static <T> T where(SplittableRandom random, Function<SplittableRandom, T> generator, Predicate<T> condition) {
        for (int i = 0; i < 10_000; i++) {
            T value = generator.apply(random);
            if (condition.test(value)) {
                return value;
            }
        }
        throw new IllegalStateException("the generator almost never satisfies the condition");
    }

    /** One of the code points of {@code chars}, as a string. */
    public static String oneOf(SplittableRandom random, String chars) {
        int[] points = chars.codePoints().toArray();
        return Character.toString(points[random.nextInt(points.length)]);
    }

    /** Up to {@code maxLength} characters of {@code chars}. */
    public static String stringOf(SplittableRandom random, String chars, int maxLength) {
        StringBuilder out = new StringBuilder();
        for (int i = random.nextInt(maxLength + 1); i > 0; i--) {
            out.append(oneOf(random, chars));
        }
        return out.toString();
    }

    /** Picks a generator by weight: {@code weights[i]} for {@code generators[i]}. */
    @SafeVarargs
    public static <T> T weighted(SplittableRandom random, int[] weights, Function<SplittableRandom, T>... generators) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int pick = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            pick -= weights[i];
            if (pick < 0) {
                return generators[i].apply(random);
            }
        }
        throw new IllegalStateException("unreachable");
    }

    /** The input with every character outside printable ASCII written as {@code \}{@code u{XXXX}}, to be read. */
    static String describe(Object input) {
        StringBuilder out = new StringBuilder();
        String.valueOf(input).codePoints().forEach(cp -> {
            if (cp >= 0x20 && cp < 0x7F && cp != '\\') {
                out.appendCodePoint(cp);
            } else {
                out.append(String.format("\\u{%04X}", cp));
            }
        });
        return out.toString();
    }
}
