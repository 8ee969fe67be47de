package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DecisionOrderTest {

    private static final String PROGRAM_NAME = "Error: arguments must not include the program name. "
            + "Pass only the arguments, e.g. executable \"df\" with arguments [\"-h\", \"/\"].";

    static Stream<Arguments> refusals() {
        return Stream.of(
                argumentSet("empty executable", "", List.of(), Decision.Refusal.INVALID_EXECUTABLE,
                        "Error: invalid executable"),
                argumentSet("NUL in the executable", "l\u0000s", List.of(), Decision.Refusal.INVALID_EXECUTABLE,
                        "Error: invalid executable"),
                argumentSet("invalid executable before the program-name check", "", List.of(""),
                        Decision.Refusal.INVALID_EXECUTABLE, "Error: invalid executable"),
                argumentSet("first argument is the program", "git", List.of("git", "status"),
                        Decision.Refusal.PROGRAM_NAME_IN_ARGUMENTS, PROGRAM_NAME),
                argumentSet("first argument is the path given", "/usr/bin/git", List.of("/usr/bin/git", "log"),
                        Decision.Refusal.PROGRAM_NAME_IN_ARGUMENTS, PROGRAM_NAME),
                argumentSet("first argument is the last component of the path", "/usr/bin/df", List.of("df", "-h"),
                        Decision.Refusal.PROGRAM_NAME_IN_ARGUMENTS, PROGRAM_NAME),
                argumentSet("program-name check before the NUL check", "git", List.of("git", "a\u0000"),
                        Decision.Refusal.PROGRAM_NAME_IN_ARGUMENTS, PROGRAM_NAME),
                argumentSet("program-name check before resolution", "nope", List.of("nope"),
                        Decision.Refusal.PROGRAM_NAME_IN_ARGUMENTS, PROGRAM_NAME),
                argumentSet("NUL in an argument", "ls", List.of("-l", "a\u0000b"), Decision.Refusal.NUL_IN_ARGUMENT,
                        "Error: could not launch ls: argument contains a NUL character"),
                argumentSet("NUL check before resolution", "nope", List.of("\u0000"), Decision.Refusal.NUL_IN_ARGUMENT,
                        "Error: could not launch nope: argument contains a NUL character"),
                argumentSet("not found on the search path", "nope", List.of(), Decision.Refusal.NOT_FOUND,
                        "Error: executable not found: nope"),
                argumentSet("not found by path, named as given", "./nope", List.of("x"), Decision.Refusal.NOT_FOUND,
                        "Error: executable not found: ./nope"),
                argumentSet("a directory is not a program", "/usr/bin", List.of(), Decision.Refusal.NOT_FOUND,
                        "Error: executable not found: /usr/bin"),
                argumentSet("the root is not a program", "/", List.of(), Decision.Refusal.NOT_FOUND,
                        "Error: executable not found: /"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void commandsThatCannotRunAreRefusedWithTheExactText(String executable, List<String> arguments,
                                                        Decision.Refusal reason, String message) {
        Decision decision = FakeFiles.policy(Builtins.defaults()).evaluate(executable, arguments);
        Decision.Refuse refuse = assertInstanceOf(Decision.Refuse.class, decision);
        assertEquals(reason, refuse.reason());
        assertEquals(message, refuse.message());
    }
}
