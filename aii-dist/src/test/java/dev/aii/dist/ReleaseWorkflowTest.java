package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The release workflow cannot run here, so what it runs is held to what runs
 * here: it is YAML that parses, it runs on a tag on the three runners, and
 * every command of its steps is a make target of the Makefile or a script of
 * dist/ that exists (and that the other tests of this module run); the tests
 * that {@code make smoke} names exist; the release notes come out of the
 * changelog.
 */
class ReleaseWorkflowTest {

    static final Path WORKFLOW = Run.ROOT.resolve(".github/workflows/release.yml");

    private static JsonNode workflow() throws IOException {
        assumeTrue(Run.onPath("ruby"), "ruby is not installed (.ci/run installs it): it reads the YAML");
        Run json = Run.of(Map.of(), "ruby", "-ryaml", "-rjson", "-e", "puts JSON.generate(YAML.load_file(ARGV[0]))",
                WORKFLOW.toString()).ok();
        return new ObjectMapper().readTree(json.out());
    }

    @Test
    void itRunsOnATagOnALinuxX86LinuxArmAndMacosRunner() throws IOException {
        JsonNode workflow = workflow();
        // YAML 1.1 reads the key `on` as true.
        assertEquals("[\"v*\"]", workflow.path("true").path("push").path("tags").toString());
        List<String> runners = new ArrayList<>();
        workflow.path("jobs").path("package").path("strategy").path("matrix").path("include")
                .forEach(entry -> runners.add(entry.path("name").asText() + " " + entry.path("runner").asText()));
        assertEquals(List.of("linux-x86_64 ubuntu-24.04", "linux-aarch64 ubuntu-24.04-arm", "macos-arm64 macos-26"),
                runners);
    }

    @Test
    void everyStepRunsAMakeTargetOrADistScriptThatExists() throws IOException {
        String makefile = Files.readString(Run.ROOT.resolve("Makefile"));
        List<String> commands = new ArrayList<>();
        workflow().path("jobs").forEach(job -> job.path("steps").forEach(step -> {
            if (step.has("run")) {
                commands.add(step.path("run").asText());
            }
        }));
        assertTrue(commands.size() >= 7, "" + commands);
        Matcher make = Pattern.compile("\\bmake (\\w+)").matcher(String.join("\n", commands));
        int targets = 0;
        while (make.find()) {
            assertTrue(Pattern.compile("(?m)^" + make.group(1) + ":").matcher(makefile).find(), make.group(1));
            targets++;
        }
        assertEquals(4, targets, "make build, dist, deb and smoke in " + commands);
        Matcher script = Pattern.compile("\\bsh (dist/\\S+)").matcher(String.join("\n", commands));
        List<String> scripts = new ArrayList<>();
        while (script.find()) {
            assertTrue(Files.isRegularFile(Run.ROOT.resolve(script.group(1))), script.group(1));
            scripts.add(script.group(1));
        }
        assertEquals(List.of("dist/tarball.sh", "dist/checksum.sh", "dist/homebrew/formula.sh",
                "dist/release-notes.sh"), scripts);
    }

    @Test
    void theTestsMakeSmokeRunsExist() throws IOException {
        Matcher tests = Pattern.compile("(?m)^SMOKE_TESTS = (.*)$").matcher(Files.readString(Run.ROOT.resolve("Makefile")));
        assertTrue(tests.find());
        for (String name : tests.group(1).split(",")) {
            assertTrue(Files.isRegularFile(Run.ROOT.resolve("aii-dist/src/test/java/dev/aii/dist/" + name + ".java")),
                    name);
        }
    }

    @Test
    void theReleaseNotesAreTheVersionsSectionOfTheChangelog() throws IOException {
        String changelog = Files.readString(Run.ROOT.resolve("CHANGELOG.md"));
        Matcher heading = Pattern.compile("(?m)^## Unreleased \\(([0-9.]+)\\)$").matcher(changelog);
        assertTrue(heading.find(), "an unreleased section");
        int start = changelog.indexOf('\n', heading.start()) + 1;
        int end = changelog.indexOf("\n## ", start);
        String section = changelog.substring(start, end < 0 ? changelog.length() : end).stripTrailing() + "\n";
        assertEquals(new Run(0, section, ""), Run.of(Map.of(), "sh", "dist/release-notes.sh", heading.group(1) + ".0"));
        assertEquals(new Run(1, "", "aii: CHANGELOG.md has no section for 0.0.1\n"),
                Run.of(Map.of(), "sh", "dist/release-notes.sh", "0.0.1"));
    }
}
