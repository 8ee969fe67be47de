package dev.aii.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A pseudo-terminal held open for the oracle's whole run, from
 * {@code openpty}: a small Python process opens it, makes it readable and
 * writable by the sandbox's user, prints the terminal's name and waits
 * until its stdin is closed. Commands that name it must ask; one that
 * opens it is a finding.
 */
final class PtyHolder implements AutoCloseable {

    private static final String SCRIPT = "import os, sys\n"
            + "master, slave = os.openpty()\n"
            + "os.fchmod(slave, 0o666)\n"
            + "print(os.ttyname(slave), flush=True)\n"
            + "sys.stdin.read()\n";

    private final Process process;
    private final String name;

    PtyHolder() throws IOException {
        process = new ProcessBuilder("python3", "-c", SCRIPT).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("/dev/")) {
            process.destroyForcibly();
            throw new IOException("could not open a pseudo-terminal: " + line);
        }
        name = line.trim();
    }

    /** The terminal's path, {@code /dev/pts/N}. */
    String name() {
        return name;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
