package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A rule waives the guards at the arguments its own tokens spell, and no others. */
class WaiverTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                argumentSet("hand-written find . -delete allows it", "find . -delete", "find . -delete", true),
                argumentSet("find . does not allow -delete", "find .", "find . -delete", false),
                argumentSet("find . -delete does not allow -exec after it", "find . -delete",
                        "find . -delete -exec sh ;", false),
                argumentSet("git log --output=x allows exactly that", "git log --output=x", "git log --output=x", true),
                argumentSet("... but not --ext-diff after it", "git log --output=x", "git log --output=x --ext-diff",
                        false),
                argumentSet("git log does not allow --output", "git log", "git log --output=x", false),
                argumentSet("tail -f allows following", "tail -f", "tail -f log.txt", true),
                argumentSet("tail does not", "tail", "tail -f log.txt", false),
                argumentSet("cat /dev/urandom written by hand allows that device", "cat /dev/urandom",
                        "cat /dev/urandom", true),
                argumentSet("... but not another after it", "cat /dev/urandom", "cat /dev/urandom /dev/zero", false),
                argumentSet("sort data.txt (as always stores it) does not allow -o", "sort data.txt",
                        "sort data.txt -o out", false),
                argumentSet("date -s allows any value", "date -s", "date -s 2030-01-01", true),
                argumentSet("date -u does not allow -s after it", "date -u", "date -u -s 2030-01-01", false),
                argumentSet("split data.txt allows splitting it", "split data.txt", "split data.txt", true),
                argumentSet("bare split does not", "split", "split data.txt", false),
                argumentSet("ls --nope written by hand allows the unknown option", "ls --nope", "ls --nope", true),
                argumentSet("git lg written by hand allows the alias", "git lg", "git lg", true),
                argumentSet("git does not", "git", "git lg", false));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aRuleWaivesWhatItSpells(String rule, String command, boolean runs) {
        ExecPolicy policy = ExecPolicy.of(FakeFiles.rules(rule), FakeDisk.environment());
        List<String> argv = Arrays.asList(command.split(" "));
        Decision decision = policy.evaluate(argv.get(0), argv.subList(1, argv.size()));
        assertEquals(runs, decision instanceof Decision.Allow, decision::toString);
        if (!runs) {
            assertEquals(Decision.Always.GUARDED, ((Decision.Ask) decision).always());
        }
    }
}
