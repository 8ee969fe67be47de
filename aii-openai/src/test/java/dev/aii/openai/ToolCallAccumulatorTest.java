package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ToolCallAccumulatorTest {

    @Test
    void fragmentsOfOneIndexMakeOneCall() {
        List<ToolCall> calls = merge(
                "{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"run_command\",\"arguments\":\"\"}}",
                "{\"index\":0,\"function\":{\"arguments\":\"{\\\"exec\"}}",
                "{\"index\":0,\"function\":{\"arguments\":\"utable\\\":\\\"df\\\"}\"}}");
        assertEquals(List.of(new ToolCall("call_a", "run_command", "{\"executable\":\"df\"}")), calls);
    }

    @Test
    void interleavedFragmentsAreSortedByIndex() {
        List<ToolCall> calls = merge(
                "{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"t\",\"arguments\":\"{\\\"x\\\":\"}}",
                "{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"t\",\"arguments\":\"{\\\"y\\\":\"}}",
                "{\"index\":0,\"function\":{\"arguments\":\"1}\"}}",
                "{\"index\":1,\"function\":{\"arguments\":\"2}\"}}");
        assertEquals(List.of(new ToolCall("a", "t", "{\"x\":1}"), new ToolCall("b", "t", "{\"y\":2}")), calls);
    }

    @Test
    void wholeCallsReusingIndexZeroWithTheirOwnIdsStayApart() {
        List<ToolCall> calls = merge(
                "{\"id\":\"call_1\",\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"t\",\"arguments\":\"{}\"}}",
                "{\"id\":\"call_2\",\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"t\",\"arguments\":\"[]\"}}");
        assertEquals(List.of(new ToolCall("call_1", "t", "{}"), new ToolCall("call_2", "t", "[]")), calls);
    }

    @Test
    void callsWithoutAnIndexAreToldApartByIdOrByName() {
        assertEquals(List.of(new ToolCall("a", "t", "{}"), new ToolCall("b", "t", "[]")), merge(
                "{\"id\":\"a\",\"function\":{\"name\":\"t\",\"arguments\":\"{}\"}}",
                "{\"id\":\"b\",\"function\":{\"name\":\"t\",\"arguments\":\"[]\"}}"));
        assertEquals(List.of(new ToolCall("gen_1", "t", "{}"), new ToolCall("gen_2", "u", "[]")), merge(
                "{\"function\":{\"name\":\"t\",\"arguments\":\"{\"}}",
                "{\"function\":{\"arguments\":\"}\"}}",
                "{\"function\":{\"name\":\"u\",\"arguments\":\"[]\"}}"));
    }

    @Test
    void aMissingIdIsMadeUp() {
        assertEquals(List.of(new ToolCall("gen_1", "t", "{}")),
                merge("{\"index\":0,\"function\":{\"name\":\"t\",\"arguments\":\"{}\"}}"));
    }

    @Test
    void argumentsSentAsAnObjectAreThatObjectsText() {
        assertEquals(List.of(new ToolCall("a", "t", "{\"executable\":\"ls\"}")),
                merge("{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"t\",\"arguments\":{\"executable\":\"ls\"}}}"));
    }

    @Test
    void anIdArrivingLateJoinsItsCall() {
        assertEquals(List.of(new ToolCall("late", "t", "{}")), merge(
                "{\"index\":0,\"function\":{\"name\":\"t\",\"arguments\":\"{\"}}",
                "{\"index\":0,\"id\":\"late\",\"function\":{\"arguments\":\"}\"}}"));
    }

    @Test
    void oneByteFragmentsThatRepeatTheNameWithoutAnIdMakeOneCall() {
        String arguments = "{\"executable\":\"uname\",\"arguments\":[\"-s\"]}";
        for (String index : List.of("\"index\":0,", "")) {
            List<String> fragments = new java.util.ArrayList<>();
            for (char c : arguments.toCharArray()) {
                String piece = Json.write(Json.object().textNode(String.valueOf(c)));
                fragments.add("{" + index + "\"type\":\"function\",\"function\":{\"name\":\"run_command\",\"arguments\":"
                        + piece + "}}");
            }
            assertEquals(List.of(new ToolCall("gen_1", "run_command", arguments)),
                    merge(fragments.toArray(String[]::new)), index);
        }
    }

    @Test
    void wholeCallsAtOneIndexWithoutIdsStayApart() {
        assertEquals(List.of(new ToolCall("gen_1", "t", "{\"a\":1}"), new ToolCall("gen_2", "t", "{\"b\":2}")), merge(
                "{\"index\":0,\"function\":{\"name\":\"t\",\"arguments\":\"{\\\"a\\\":1}\"}}",
                "{\"index\":0,\"function\":{\"name\":\"t\",\"arguments\":\"{\\\"b\\\":2}\"}}"));
    }

    @Test
    void aLastFragmentThatOnlyRepeatsTheNameAddsNoCall() {
        assertEquals(List.of(new ToolCall("gen_1", "t", "{}")), merge(
                "{\"index\":0,\"function\":{\"name\":\"t\",\"arguments\":\"{\"}}",
                "{\"index\":0,\"function\":{\"name\":\"t\",\"arguments\":\"}\"}}",
                "{\"index\":0,\"function\":{\"name\":\"t\",\"arguments\":\"\"}}"));
    }

    @Test
    void twoCallsSharingAnIdAtTwoIndexesGetAnIdEach() {
        assertEquals(List.of(new ToolCall("call_0", "t", "{\"x\":1}"), new ToolCall("gen_1", "t", "{\"y\":2}")), merge(
                "{\"index\":0,\"id\":\"call_0\",\"function\":{\"name\":\"t\",\"arguments\":\"{\\\"x\\\":1}\"}}",
                "{\"index\":1,\"id\":\"call_0\",\"function\":{\"name\":\"t\",\"arguments\":\"{\\\"y\\\":2}\"}}"));
    }

    @Test
    void twoWholeCallsSharingAnIdWithoutIndexStayApart() {
        assertEquals(List.of(new ToolCall("same", "t", "{}"), new ToolCall("gen_1", "t", "[]")), merge(
                "{\"id\":\"same\",\"function\":{\"name\":\"t\",\"arguments\":\"{}\"}}",
                "{\"id\":\"same\",\"function\":{\"name\":\"t\",\"arguments\":\"[]\"}}"));
    }

    @Test
    void aFreshIdNeverRepeatsOneTheServerGave() {
        assertEquals(List.of(new ToolCall("gen_1", "t", "{}"), new ToolCall("gen_2", "t", "[]"),
                new ToolCall("gen_3", "t", "{}")), merge(
                "{\"index\":0,\"id\":\"gen_1\",\"function\":{\"name\":\"t\",\"arguments\":\"{}\"}}",
                "{\"index\":1,\"id\":\"gen_1\",\"function\":{\"name\":\"t\",\"arguments\":\"[]\"}}",
                "{\"index\":2,\"function\":{\"name\":\"t\",\"arguments\":\"{}\"}}"));
    }

    private static List<ToolCall> merge(String... fragments) {
        ToolCallAccumulator acc = new ToolCallAccumulator();
        for (String f : fragments) {
            acc.add(Json.parse(f).orElseThrow());
        }
        AtomicInteger n = new AtomicInteger();
        return acc.calls(() -> "gen_" + n.incrementAndGet());
    }
}
