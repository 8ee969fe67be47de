package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ExecPolicy#prepare()} builds ahead what a first decision would build,
 * and reads its samples through the same table readers that decisions use: it
 * changes no decision, whichever thread calls it and when, however often
 * (aii calls it on a thread of its own while the first tool call may already
 * be deciding on another).
 */
class PrepareTest {

    /** Tabled, untabled and deferred programs, guarded forms and path operands among them. */
    private static final List<List<String>> COMMANDS = List.of(
            List.of("ls", "-la", "."),
            List.of("ls", "/dev/pts/3"),
            List.of("date", "-s", "2030-01-01"),
            List.of("date", "+%s"),
            List.of("git", "log", "--output=x"),
            List.of("git", "status"),
            List.of("tar", "-xf", "a.tar"),
            List.of("find", ".", "-delete"),
            List.of("jq", ".", "/proc/self/environ"),
            List.of("cat", "term"),
            List.of("pwd"));

    private static List<Decision> decideAll() {
        ExecPolicy policy = ExecPolicy.of(Builtins.defaults(), FakeDisk.environment());
        List<Decision> decisions = new ArrayList<>();
        for (List<String> c : COMMANDS) {
            decisions.add(policy.evaluate(c.getFirst(), c.subList(1, c.size())));
        }
        return decisions;
    }

    @Test
    void preparingWhileOtherThreadsDecideChangesNoDecision() throws Exception {
        List<Decision> expected = decideAll();
        // the samples are decided as the spec says, so that "the same" means something
        assertInstanceOf(Decision.Allow.class, expected.get(0));
        assertInstanceOf(Decision.Ask.class, expected.get(1));
        assertInstanceOf(Decision.Ask.class, expected.get(2));
        assertInstanceOf(Decision.Allow.class, expected.get(3));
        assertInstanceOf(Decision.Ask.class, expected.get(4));
        assertInstanceOf(Decision.Allow.class, expected.get(10));
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Decision>>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                boolean prepares = i % 2 == 0;
                results.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    List<Decision> seen = new ArrayList<>();
                    for (int round = 0; round < 20; round++) {
                        if (prepares) {
                            ExecPolicy.prepare();
                        }
                        seen = decideAll();
                        if (!seen.equals(expected)) {
                            return seen;
                        }
                    }
                    return seen;
                }));
            }
            for (Future<List<Decision>> r : results) {
                assertEquals(expected, r.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
