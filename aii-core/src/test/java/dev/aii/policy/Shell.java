package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The reference for quoting: a POSIX shell that prints back the words it was given. */
final class Shell {

    private Shell() {
    }

    /**
     * What {@code /bin/sh} makes of {@code printf '%s\0' <words>}: each word it
     * parsed, followed by NUL. The script goes in on stdin, not through
     * {@code -c}, so that no locale can re-encode it on the way.
     */
    static byte[] printWords(String words) throws IOException, InterruptedException {
        byte[] script = ("printf '%s\\0' " + words + "\n").getBytes(StandardCharsets.UTF_8);
        Process sh = new ProcessBuilder("/bin/sh", "-s").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = sh.getOutputStream()) {
            in.write(script);
        }
        byte[] out = sh.getInputStream().readAllBytes();
        assertTrue(sh.waitFor(10, TimeUnit.SECONDS), "sh did not finish within 10 s");
        assertEquals(0, sh.exitValue(), "sh exit status");
        return out;
    }

    /** Each token in UTF-8 followed by NUL: what {@link #printWords} returns when quoting is right. */
    static byte[] nulTerminated(List<String> tokens) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (String token : tokens) {
            bytes.writeBytes(token.getBytes(StandardCharsets.UTF_8));
            bytes.write(0);
        }
        return bytes.toByteArray();
    }
}
