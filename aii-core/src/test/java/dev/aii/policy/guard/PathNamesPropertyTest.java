package dev.aii.policy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.policy.Seeded;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lexical normalisation in one pass gives what splitting at {@code /} and
 * walking the segments gave: the reference below is that first
 * implementation. Seeded: a failure names its seed ({@code -Daii.test.seed=}).
 */
class PathNamesPropertyTest {

    private static String reference(String base, String path) {
        String joined = path.startsWith("/") ? path : base + "/" + path;
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : joined.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                segments.pollLast();
            } else {
                segments.addLast(segment);
            }
        }
        return "/" + String.join("/", segments);
    }

    private record Input(String base, String path) {
    }

    /** Paths made of the pieces that matter: slashes, dots, short names, a dot inside a name. */
    private static String path(java.util.SplittableRandom random) {
        List<String> pieces = List.of("/", "/", ".", "..", "a", "bc", ".x", "x.", "...", "\u00e9");
        StringBuilder out = new StringBuilder();
        for (int i = random.nextInt(9); i > 0; i--) {
            out.append(pieces.get(random.nextInt(pieces.size())));
        }
        return out.toString();
    }

    @Test
    void normalisingInOnePassGivesWhatTheSegmentWalkGave() {
        Seeded.forAll(20_000, r -> new Input(r.nextBoolean() ? "/" : "/" + path(r), path(r)),
                in -> assertEquals(reference(in.base(), in.path()), PathNames.normalize(in.base(), in.path())));
    }

    @Test
    void theEdgesOfTheRoot() {
        for (String path : List.of("", "/", "//", "/.", "/..", "/../..", "..", ".", "a/..", "/a/../..", "/a/./b/",
                "/usr/bin/ls", "/usr//bin", "/.../x", "/a/..b")) {
            assertEquals(reference("/w", path), PathNames.normalize("/w", path), path);
        }
    }
}
