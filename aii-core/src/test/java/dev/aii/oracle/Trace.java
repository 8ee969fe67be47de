package dev.aii.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One command's {@code strace -f -y} output as calls: each with its process,
 * name, arguments as written, and result ({@code null} for a call still
 * unfinished when the command was stopped). A call strace split across
 * lines ({@code <unfinished ...>}, {@code <... resumed>}) is joined.
 */
final class Trace {

    /** One system call. */
    record Call(int pid, String name, String arguments, String result) {
        boolean finished() {
            return result != null;
        }
    }

    private static final Pattern LINE = Pattern.compile("^(\\d+)\\s+(.*)$");
    private static final Pattern RESUMED = Pattern.compile("^<\\.\\.\\. (\\w+) resumed>(.*)$");
    private static final Pattern CALL = Pattern.compile("^(\\w+)\\((.*)$");
    private static final String UNFINISHED = " <unfinished ...>";

    private Trace() {
    }

    static List<Call> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<Call> calls = new ArrayList<>();
        Map<Integer, String> pending = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            int pid = Integer.parseInt(m.group(1));
            String body = m.group(2);
            Matcher resumed = RESUMED.matcher(body);
            if (resumed.matches()) {
                String start = pending.remove(pid);
                if (start != null) {
                    complete(calls, pid, start + resumed.group(2));
                }
                continue;
            }
            if (body.endsWith(UNFINISHED)) {
                pending.put(pid, body.substring(0, body.length() - UNFINISHED.length()));
                continue;
            }
            complete(calls, pid, body);
        }
        pending.forEach((pid, start) -> {
            Matcher c = CALL.matcher(start);
            if (c.matches()) {
                calls.add(new Call(pid, c.group(1), c.group(2), null));
            }
        });
        return calls;
    }

    private static void complete(List<Call> calls, int pid, String text) {
        Matcher c = CALL.matcher(text);
        if (!c.matches()) {
            return;
        }
        String rest = c.group(2);
        int eq = rest.lastIndexOf(") = ");
        if (eq < 0) {
            calls.add(new Call(pid, c.group(1), rest, "?"));
        } else {
            calls.add(new Call(pid, c.group(1), rest.substring(0, eq), rest.substring(eq + 4)));
        }
    }

    /** The first string literal of {@code text}, its escapes decoded; null when there is none. */
    static String firstString(String text) {
        int open = text.indexOf('"');
        if (open < 0) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        for (int i = open + 1; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '"') {
                return out.toString();
            }
            if (ch != '\\' || i + 1 >= text.length()) {
                out.append(ch);
                continue;
            }
            char e = text.charAt(++i);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'v' -> out.append('\u000b');
                case 'f' -> out.append('\f');
                case 'x' -> {
                    out.append((char) Integer.parseInt(text.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int end = i;
                        while (end < text.length() && end < i + 3 && text.charAt(end) >= '0'
                                && text.charAt(end) <= '7') {
                            end++;
                        }
                        out.append((char) Integer.parseInt(text.substring(i, end), 8));
                        i = end - 1;
                    } else {
                        out.append(e);
                    }
                }
            }
        }
        return out.toString();
    }

    /** The path {@code -y} shows after a file descriptor ({@code 3</dev/pts/4>}), or null. */
    static String decodedPath(String text) {
        int lt = text.indexOf('<');
        int gt = text.lastIndexOf('>');
        return lt >= 0 && gt > lt ? text.substring(lt + 1, gt) : null;
    }
}
