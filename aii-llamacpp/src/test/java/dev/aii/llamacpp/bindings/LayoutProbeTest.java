package dev.aii.llamacpp.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The structs aii passes to llama.cpp by value have, in the bindings, the
 * layout the C compiler gives them from the same {@code llama.h}: the layout
 * probe (src/test/c, compiled by gcc in the test build) prints every size and
 * offset, and each must match. A llama.cpp whose structs changed fails here
 * until the bindings are made again.
 */
class LayoutProbeTest {

    private static final Path PROBE = Path.of(System.getProperty("aii.test.layout.probe", "target/test-native/layout-probe"));

    /** {@code name} → "offset size" (fields) or "size" (the struct). */
    private static Map<String, String> probe() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(PROBE.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        Map<String, String> lines = new LinkedHashMap<>();
        out.lines().forEach(line -> {
            int space = line.indexOf(' ');
            lines.put(line.substring(0, space), line.substring(space + 1));
        });
        return lines;
    }

    /** The bindings' view of {@code layout} in the probe's terms. */
    private static Map<String, String> bound(GroupLayout layout) {
        String struct = layout.name().orElseThrow();
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put(struct + " size", Long.toString(layout.byteSize()));
        for (MemoryLayout member : layout.memberLayouts()) {
            member.name().ifPresent(field -> lines.put(struct + "." + field, layout.byteOffset(
                    PathElement.groupElement(field)) + " " + member.byteSize()));
        }
        return lines;
    }

    private static Map<String, String> probed(Map<String, String> all, String struct) {
        Map<String, String> lines = new LinkedHashMap<>();
        all.forEach((name, value) -> {
            if (name.equals(struct)) {
                lines.put(struct + " size", value.substring("size ".length()));
            } else if (name.startsWith(struct + ".")) {
                lines.put(name, value);
            }
        });
        return lines;
    }

    @Test
    void modelParamsHaveTheLayoutOfLlamaH() throws Exception {
        Map<String, String> probed = probed(probe(), "llama_model_params");
        assertTrue(probed.size() > 10, probed::toString);
        assertEquals(probed, bound(llama_model_params.layout()));
    }

    @Test
    void contextParamsHaveTheLayoutOfLlamaH() throws Exception {
        Map<String, String> probed = probed(probe(), "llama_context_params");
        assertTrue(probed.size() > 30, probed::toString);
        assertEquals(probed, bound(llama_context_params.layout()));
    }
}
