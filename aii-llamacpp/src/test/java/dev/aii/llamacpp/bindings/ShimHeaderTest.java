package dev.aii.llamacpp.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.llamacpp.engine.Natives;
import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shim's bindings and {@code aiillama.h} cannot drift: every function and
 * constant of the header has its binding with the same signature or value,
 * and the bindings have nothing the header lacks.
 */
class ShimHeaderTest {

    private static final Path HEADER = Path.of(System.getProperty("aii.test.llamacpp.build", "target/llamacpp"))
            .resolve("include/aiillama.h");
    private static final Pattern DEFINE = Pattern.compile("(?m)^#define\\s+(AIILLAMA_\\w+)\\s+(-?\\d+)\\s*$");
    private static final Pattern FUNCTION = Pattern.compile(
            "(?m)^(int32_t|void|bool|aiillama_stop \\*)\\s*(aiillama_\\w+)\\s*\\(([^)]*)\\)\\s*;");

    @BeforeAll
    static void loadTheShim() throws Exception {
        // The descriptors live in holders that look their symbol up when first used.
        Path natives = HEADER.getParent().getParent().resolveSibling("natives");
        try (var dirs = Files.list(natives)) {
            Path dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
            Natives.load(Map.of(Natives.ENVIRONMENT_VARIABLE, dir.toString()), false);
        }
    }

    private record Signature(String name, Class<?> result, List<Class<?>> parameters) {
    }

    private static String header() throws IOException {
        return Files.readString(HEADER).replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }

    private static Map<String, Long> constants(String header) {
        Map<String, Long> constants = new LinkedHashMap<>();
        Matcher m = DEFINE.matcher(header);
        while (m.find()) {
            constants.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return constants;
    }

    private static List<Signature> functions(String header) {
        List<Signature> signatures = new ArrayList<>();
        Matcher m = FUNCTION.matcher(header);
        while (m.find()) {
            String list = m.group(3).replaceAll("\\s+", " ").trim();
            List<Class<?>> parameters = list.equals("void") ? List.of()
                    : Arrays.stream(list.split(",")).map(ShimHeaderTest::carrier).toList();
            signatures.add(new Signature(m.group(2), carrier(m.group(1)), parameters));
        }
        return signatures;
    }

    private static Class<?> carrier(String declaration) {
        String d = declaration.trim();
        if (d.contains("*")) {
            return MemorySegment.class;
        }
        return switch (d.split(" ")[0]) {
            case "int32_t", "uint32_t" -> int.class;
            case "int64_t" -> long.class;
            case "bool" -> boolean.class;
            case "void" -> void.class;
            default -> throw new AssertionError("a type the ABI does not allow: " + d);
        };
    }

    @Test
    void theHeaderDeclaresWhatTheTestParses() throws IOException {
        assertEquals(21, functions(header()).size());
        assertEquals(10, constants(header()).size());
    }

    @Test
    void everyConstantHasItsBindingWithTheSameValue() throws Exception {
        for (Map.Entry<String, Long> constant : constants(header()).entrySet()) {
            Method method = aiillama_h.class.getMethod(constant.getKey());
            assertEquals(constant.getValue(), ((Number) method.invoke(null)).longValue(), constant.getKey());
        }
    }

    @Test
    void everyFunctionHasItsBindingWithTheSameSignature() throws Exception {
        for (Signature s : functions(header())) {
            Method method = aiillama_h.class.getMethod(s.name(), s.parameters().toArray(Class<?>[]::new));
            assertTrue(Modifier.isStatic(method.getModifiers()), s.name());
            assertEquals(s.result(), method.getReturnType(), s.name());
            FunctionDescriptor descriptor = (FunctionDescriptor) aiillama_h.class.getMethod(s.name() + "$descriptor")
                    .invoke(null);
            assertEquals(MethodType.methodType(s.result(), s.parameters()), descriptor.toMethodType(), s.name());
        }
    }

    @Test
    void theBindingsHaveNothingTheHeaderLacks() throws IOException {
        String header = header();
        Set<String> declared = new TreeSet<>(constants(header).keySet());
        functions(header).forEach(s -> declared.add(s.name()));
        Set<String> bound = Arrays.stream(aiillama_h.class.getMethods())
                .filter(m -> Modifier.isStatic(m.getModifiers())).map(Method::getName)
                .filter(name -> name.startsWith("aiillama_") || name.startsWith("AIILLAMA_"))
                .filter(name -> !name.contains("$")).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(declared, bound);
    }
}
