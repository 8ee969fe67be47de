package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.Builtins;
import dev.aii.policy.Rule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs, with two writing threads and one reading thread in this one, all at the same allow file. */
class ConcurrentAddTest {

    private static final int PER_WRITER = 40;

    @TempDir
    Path home;

    @Test
    void rulesAddedAtOnceByTwoProcessesAndTwoThreadsAreAllKeptAndEveryReadIsWhole() throws Exception {
        AllowFile file = AllowFile.at(AllowFile.defaultPath(Map.of("HOME", home.toString())));
        Process child = ChildJvm.start(List.of(), "add", file.path().toString(), "child", String.valueOf(PER_WRITER));
        BufferedReader childOut = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("ready", childOut.readLine());

        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (String label : List.of("a", "b")) {
                writers.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < PER_WRITER; i++) {
                        file.add(Rule.of("echo", label + "-" + i));
                    }
                    return null;
                }));
            }
            Future<List<String>> reader = pool.submit(() -> readWhileWriting(file, writing, go));

            go.countDown();
            try (OutputStream childIn = child.getOutputStream()) {
                childIn.write("go\n".getBytes(StandardCharsets.UTF_8));
            }
            for (Future<?> writer : writers) {
                writer.get(120, TimeUnit.SECONDS);
            }
            assertEquals("done", childOut.readLine());
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child JVM finished within 120 s");
            assertEquals(0, child.exitValue());
            writing.set(false);
            assertEquals(List.of(), reader.get(120, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
            child.destroyForcibly();
        }

        AllowFile.Loaded loaded = file.load();
        assertEquals(List.of(), loaded.warnings());
        assertEquals(Builtins.DEFAULT_RULES, loaded.rules().rules().subList(0, 17));
        Set<Rule> expected = new HashSet<>(Builtins.DEFAULT_RULES);
        for (String label : List.of("a", "b", "child")) {
            for (int i = 0; i < PER_WRITER; i++) {
                expected.add(Rule.of("echo", label + "-" + i));
            }
        }
        assertEquals(expected, Set.copyOf(loaded.rules().rules()));
        List<String> lines = Files.readAllLines(file.path());
        assertEquals(2 + 17 + 3 * PER_WRITER, lines.size(), "every rule exactly once");
    }

    /** Loads again and again until the writers are done; returns every problem seen. */
    private static List<String> readWhileWriting(AllowFile file, AtomicBoolean writing, CountDownLatch go)
            throws Exception {
        go.await();
        List<String> problems = new ArrayList<>();
        int previous = 0;
        int reads = 0;
        while (writing.get() || reads == 0) {
            reads++;
            try {
                byte[] raw = Files.readAllBytes(file.path());
                if (raw.length > 0 && raw[raw.length - 1] != '\n') {
                    problems.add("file read without its final line feed: " + raw.length + " bytes");
                }
            } catch (NoSuchFileException e) {
                // not seeded yet
            }
            AllowFile.Loaded loaded = file.load();
            problems.addAll(loaded.warnings());
            if (loaded.source() == AllowFile.Source.FILE) {
                List<Rule> rules = loaded.rules().rules();
                if (rules.size() < 17 || !rules.subList(0, 17).equals(Builtins.DEFAULT_RULES)) {
                    problems.add("file without the defaults: " + rules);
                }
                if (rules.size() < previous) {
                    problems.add("rules went from " + previous + " to " + rules.size());
                }
                previous = rules.size();
            }
        }
        return problems;
    }
}
