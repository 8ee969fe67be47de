package dev.aii.ffm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.ffm.fm.bindings.fmshim_h;
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
 * The bindings and {@code fmshim.h} cannot drift: every function, callback
 * type and constant of the header has its binding with the same signature or
 * value, and the bindings have nothing the header lacks.
 */
class HeaderBindingsTest {

    private static final Path HEADER = Path.of(System.getProperty("aii.test.fmshim.header"));
    private static final Pattern DEFINE = Pattern.compile("(?m)^#define\\s+(FMSHIM_\\w+)\\s+(-?\\d+)\\s*$");
    private static final Pattern FUNCTION = Pattern.compile(
            "(?m)^(int32_t|int64_t|void)\\s+(fmshim_\\w+)\\s*\\(([^)]*)\\)\\s*;");
    private static final Pattern CALLBACK = Pattern.compile(
            "typedef\\s+(int32_t|int64_t|void)\\s*\\(\\s*\\*\\s*(fmshim_\\w+)\\s*\\)\\s*\\(([^)]*)\\)\\s*;");

    /** A C function type as Java carriers. */
    record Signature(String name, Class<?> result, List<Class<?>> parameters) {

        MethodType methodType() {
            return MethodType.methodType(result, parameters);
        }
    }

    @BeforeAll
    static void loadTheStub() {
        // The descriptors live in holders that look their symbol up when first used.
        ShimLoader.Result result = ShimLoader.load(StubShim.environment(),
                new Host("Linux", "6.1", java.util.Optional.empty()));
        assertTrue(result instanceof ShimLoader.Loaded, result.toString());
    }

    private static String header() throws IOException {
        String text = Files.readString(HEADER);
        return text.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }

    private static Map<String, Long> constants(String header) {
        Map<String, Long> constants = new LinkedHashMap<>();
        Matcher m = DEFINE.matcher(header);
        while (m.find()) {
            constants.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return constants;
    }

    private static List<Signature> signatures(Pattern pattern, String header) {
        List<Signature> signatures = new ArrayList<>();
        Matcher m = pattern.matcher(header);
        while (m.find()) {
            signatures.add(new Signature(m.group(2), carrier(m.group(1)), parameters(m.group(3))));
        }
        return signatures;
    }

    private static List<Class<?>> parameters(String list) {
        String trimmed = list.replaceAll("\\s+", " ").trim();
        if (trimmed.equals("void") || trimmed.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(trimmed.split(",")).map(HeaderBindingsTest::parameterCarrier).toList();
    }

    /** The carrier of one parameter declaration such as {@code const char *text} or {@code int64_t length}. */
    private static Class<?> parameterCarrier(String declaration) {
        String d = declaration.trim();
        if (d.contains("*") || d.matches("fmshim_\\w+_fn\\b.*")) {
            return MemorySegment.class;
        }
        return carrier(d.split(" ")[0]);
    }

    private static Class<?> carrier(String cType) {
        return switch (cType) {
            case "int32_t" -> int.class;
            case "int64_t" -> long.class;
            case "void" -> void.class;
            default -> throw new AssertionError("a type the ABI does not allow: " + cType);
        };
    }

    @Test
    void theHeaderDeclaresWhatTheTestParses() throws IOException {
        String header = header();
        assertEquals(11, signatures(FUNCTION, header).size());
        assertEquals(2, signatures(CALLBACK, header).size());
        assertTrue(constants(header).size() >= 28);
    }

    @Test
    void everyConstantHasItsBindingWithTheSameValue() throws Exception {
        for (Map.Entry<String, Long> constant : constants(header()).entrySet()) {
            Method method = fmshim_h.class.getMethod(constant.getKey());
            assertTrue(Modifier.isStatic(method.getModifiers()), constant.getKey());
            assertEquals(constant.getValue(), ((Number) method.invoke(null)).longValue(), constant.getKey());
        }
    }

    @Test
    void everyFunctionHasItsBindingWithTheSameSignatureAndLayouts() throws Exception {
        for (Signature signature : signatures(FUNCTION, header())) {
            Class<?>[] parameters = signature.parameters().toArray(Class<?>[]::new);
            Method method = fmshim_h.class.getMethod(signature.name(), parameters);
            assertTrue(Modifier.isStatic(method.getModifiers()), signature.name());
            assertEquals(signature.result(), method.getReturnType(), signature.name());
            FunctionDescriptor descriptor = (FunctionDescriptor) fmshim_h.class
                    .getMethod(signature.name() + "$descriptor").invoke(null);
            assertEquals(signature.methodType(), descriptor.toMethodType(), signature.name());
        }
    }

    @Test
    void everyCallbackTypeHasItsBindingWithTheSameSignature() throws Exception {
        for (Signature signature : signatures(CALLBACK, header())) {
            Class<?> binding = Class.forName("dev.aii.ffm.fm.bindings." + signature.name());
            Class<?> function = Class.forName(binding.getName() + "$Function");
            Method apply = function.getMethod("apply", signature.parameters().toArray(Class<?>[]::new));
            assertEquals(signature.result(), apply.getReturnType(), signature.name());
            FunctionDescriptor descriptor = (FunctionDescriptor) binding.getMethod("descriptor").invoke(null);
            assertEquals(signature.methodType(), descriptor.toMethodType(), signature.name());
        }
    }

    @Test
    void theBindingsHaveNothingTheHeaderLacks() throws IOException {
        String header = header();
        Set<String> declared = new TreeSet<>(constants(header).keySet());
        signatures(FUNCTION, header).forEach(s -> declared.add(s.name()));
        Set<String> bound = Arrays.stream(fmshim_h.class.getMethods())
                .filter(m -> Modifier.isStatic(m.getModifiers()))
                .map(Method::getName)
                .filter(name -> name.startsWith("fmshim_") || name.startsWith("FMSHIM_"))
                .filter(name -> !name.contains("$"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(declared, bound);
        assertFalse(bound.isEmpty());
    }
}
