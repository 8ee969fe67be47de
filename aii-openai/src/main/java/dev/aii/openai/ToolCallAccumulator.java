package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Merges the {@code tool_calls} fragments of a streamed answer into whole
 * calls. Fragments of one call share an {@code index}; the first carries the
 * id and name, the rest pieces of the arguments. Servers differ: a whole call
 * may come in one fragment (Ollama, apfel), Ollama numbers every call 0 but
 * gives each its own id, and some leave out the index or the id.
 */
final class ToolCallAccumulator {

    private static final class Slot {
        String id;
        String name = "";
        final StringBuilder arguments = new StringBuilder();
    }

    private final List<Slot> slots = new ArrayList<>();
    private final Map<Integer, Slot> byIndex = new HashMap<>();

    /** Adds one element of a delta's {@code tool_calls} array. */
    void add(JsonNode fragment) {
        String id = Json.text(fragment.get("id")).orElse(null);
        JsonNode function = fragment.path("function");
        String name = Json.text(function.get("name")).orElse(null);
        JsonNode index = fragment.get("index");
        String arguments = argumentsText(function.get("arguments"));
        Slot slot;
        if (index != null && index.isIntegralNumber() && index.canConvertToInt()) {
            slot = byIndex.get(index.intValue());
            if (slot == null || startsAnother(slot, id, name, arguments)) {
                slot = newSlot();
                byIndex.put(index.intValue(), slot);
            }
        } else if (id != null) {
            Slot same = null;
            for (Slot s : slots) {
                if (id.equals(s.id)) {
                    same = s;
                }
            }
            slot = same == null || startsAnother(same, id, name, arguments) ? newSlot() : same;
        } else {
            Slot last = slots.isEmpty() ? null : slots.get(slots.size() - 1);
            slot = last == null || startsAnother(last, null, name, arguments) ? newSlot() : last;
        }
        if (slot.id == null) {
            slot.id = id;
        }
        if (slot.name.isEmpty() && name != null) {
            slot.name = name;
        }
        slot.arguments.append(arguments);
    }

    boolean isEmpty() {
        return slots.isEmpty();
    }

    /**
     * The calls so far, each with an id of its own toward the server: one
     * without an id, or with the id of an earlier call of this answer (two
     * calls sharing one id would get their results mixed up), gets one from
     * {@code newId}.
     */
    List<ToolCall> calls(Supplier<String> newId) {
        List<ToolCall> calls = new ArrayList<>(slots.size());
        Set<String> used = new HashSet<>();
        slots.forEach(s -> {
            if (s.id != null) {
                used.add(s.id);
            }
        });
        Set<String> given = new HashSet<>();
        for (Slot s : slots) {
            if (s.id == null || !given.add(s.id)) {
                String fresh;
                do {
                    fresh = newId.get();
                } while (used.contains(fresh));
                s.id = fresh;
                used.add(fresh);
                given.add(fresh);
            }
            calls.add(new ToolCall(s.id, s.name, s.arguments.toString()));
        }
        return calls;
    }

    /**
     * A fragment starts another call when it brings a different id. Without
     * ids, a fragment that names the tool again belongs to the same call (some
     * servers repeat the name in every fragment) unless the call's arguments
     * are already a whole JSON value and the fragment brings arguments of its
     * own: then it is the next call of a server that numbers every call alike.
     */
    private static boolean startsAnother(Slot slot, String id, String name, String arguments) {
        if (id != null && slot.id != null) {
            // the same id again: another call only when it names a tool and brings arguments after whole ones
            return !id.equals(slot.id) || (name != null && !slot.name.isEmpty() && !arguments.isEmpty()
                    && isWhole(slot.arguments));
        }
        if (id != null || slot.id != null || name == null || slot.name.isEmpty() || arguments.isEmpty()) {
            return false;
        }
        return isWhole(slot.arguments);
    }

    private static boolean isWhole(CharSequence arguments) {
        int end = arguments.length();
        while (end > 0 && Character.isWhitespace(arguments.charAt(end - 1))) {
            end--;
        }
        if (end == 0 || (arguments.charAt(end - 1) != '}' && arguments.charAt(end - 1) != ']')) {
            return false;
        }
        return Json.parseWhole(arguments.toString()).isPresent();
    }

    private Slot newSlot() {
        Slot s = new Slot();
        slots.add(s);
        return s;
    }

    /** Arguments are a string of JSON text; a server sending an object instead means that object. */
    private static String argumentsText(JsonNode arguments) {
        if (arguments == null || arguments.isNull()) {
            return "";
        }
        return arguments.isTextual() ? arguments.asText() : Json.write(arguments);
    }
}
