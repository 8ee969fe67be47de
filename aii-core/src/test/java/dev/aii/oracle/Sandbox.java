package dev.aii.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Where the oracle runs programs: a Python driver that runs a batch of
 * commands one after another, each under its own {@code strace}, started
 * through {@code unshare} (its own mount, PID, network, IPC and UTS
 * namespaces, and when aii's tests do not run as root its own user
 * namespace) and {@code setpriv} (as root: the unprivileged user 65534, no
 * capabilities, no new privileges). One sandbox a batch, not a process a
 * command: starting the sandbox and the driver costs more than tracing a
 * command.
 */
final class Sandbox {

    /** The unprivileged user the programs run as when the tests run as root. */
    static final int NOBODY = 65534;

    /** How long one command may run. */
    static final double LIMIT_SECONDS = 2.0;

    /** One command to run: its id, working directory, whole environment and argv (the path first). */
    record Command(int id, Path cwd, Map<String, String> env, List<String> argv) {
        Command {
            env = Map.copyOf(env);
            argv = List.copyOf(argv);
        }
    }

    /**
     * What became of one command, and where its trace is.
     *
     * @param showsEnvironment whether its output held the mark every environment in the sandbox holds
     * @param cpuMillis when it ran out of time, the CPU time its processes took in the 0.3 s after; else -1
     */
    record Result(int id, int status, long millis, boolean timedOut, boolean showsEnvironment, long cpuMillis,
                  Path trace) {

        /** Whether it ran out of time working (a walk of a large tree) rather than waiting (a FIFO, a terminal). */
        boolean busy() {
            return timedOut && cpuMillis >= 10;
        }
    }

    /** A string every environment in the sandbox holds, in {@link #MARK_VARIABLE}: output that holds it shows one. */
    final String mark = "aii-oracle-" + Long.toHexString(new java.security.SecureRandom().nextLong());

    /** The variable that holds {@link #mark}. */
    static final String MARK_VARIABLE = "AII_ORACLE_MARK";

    private final Path driver;
    private final boolean root;
    private final String strace;

    private Sandbox(Path driver, boolean root, String strace) {
        this.driver = driver;
        this.root = root;
        this.strace = strace;
    }

    /** A sandbox whose driver is written to {@code work}; throws when a tool it needs is missing. */
    static Sandbox in(Path work) throws IOException {
        for (String tool : List.of("/usr/bin/strace", "/usr/bin/unshare", "/usr/bin/setpriv", "/usr/bin/python3")) {
            if (!Files.isExecutable(Path.of(tool))) {
                throw new IOException("the oracle needs " + tool + " (.ci/run installs strace)");
            }
        }
        Path driver = work.resolve("driver.py");
        try (InputStream in = Objects.requireNonNull(Sandbox.class.getResourceAsStream("driver.py"))) {
            Files.write(driver, in.readAllBytes());
        }
        boolean root = new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        return new Sandbox(driver, root, "/usr/bin/strace");
    }

    boolean asRoot() {
        return root;
    }

    /** Makes {@code dir} and everything below it the sandbox user's, when the tests run as root. */
    void handOver(Path dir) throws IOException, InterruptedException {
        if (root) {
            Scratch.run(List.of("chown", "-R", "-h", NOBODY + ":" + NOBODY, dir.toString()));
        }
    }

    /** {@code path} with {@code arguments} as the sandbox's user (no namespaces): for questions that run nothing. */
    List<String> asUser(String path, List<String> arguments) {
        List<String> argv = new ArrayList<>();
        if (root) {
            argv.addAll(List.of("/usr/bin/setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--"));
        }
        argv.add(path);
        argv.addAll(arguments);
        return argv;
    }

    /** The command line that starts {@code program} in the sandbox. */
    List<String> wrap(List<String> program) {
        List<String> argv = new ArrayList<>(List.of("/usr/bin/unshare"));
        if (!root) {
            argv.addAll(List.of("--user", "--map-root-user"));
        }
        argv.addAll(List.of("--mount", "--pid", "--net", "--ipc", "--uts", "--fork", "--mount-proc",
                "/usr/bin/setpriv"));
        if (root) {
            argv.addAll(List.of("--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"));
        }
        argv.addAll(List.of("--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"));
        argv.addAll(program);
        return argv;
    }

    /** Runs {@code commands} in one sandbox, their traces and results in {@code dir} (the sandbox user's). */
    List<Result> run(List<Command> commands, Path dir) throws IOException, InterruptedException {
        Path batch = dir.resolve("batch.jsonl");
        Path results = dir.resolve("results.txt");
        StringBuilder lines = new StringBuilder();
        for (Command c : commands) {
            lines.append("{\"id\":").append(c.id()).append(",\"cwd\":").append(Json.string(c.cwd().toString()))
                    .append(",\"env\":{");
            boolean first = true;
            for (Map.Entry<String, String> e : c.env().entrySet()) {
                lines.append(first ? "" : ",").append(Json.string(e.getKey())).append(':')
                        .append(Json.string(e.getValue()));
                first = false;
            }
            lines.append("},\"argv\":[");
            for (int i = 0; i < c.argv().size(); i++) {
                lines.append(i == 0 ? "" : ",").append(Json.string(c.argv().get(i)));
            }
            lines.append("]}\n");
        }
        Files.writeString(batch, lines, StandardCharsets.UTF_8);
        handOver(dir);
        ProcessBuilder pb = new ProcessBuilder(wrap(List.of("/usr/bin/python3", driver.toString(), strace,
                Double.toString(LIMIT_SECONDS), batch.toString(), results.toString(), dir.toString())))
                .directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "LC_ALL", "C", MARK_VARIABLE, mark));
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        long budget = (long) (commands.size() * (LIMIT_SECONDS + 1) + 60);
        if (!p.waitFor(budget, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IOException("the sandbox did not finish in " + budget + " s");
        }
        if (p.exitValue() != 0) {
            throw new IOException("the sandbox failed (" + p.exitValue() + "): "
                    + new String(out, StandardCharsets.UTF_8));
        }
        Map<Integer, Result> byId = new HashMap<>();
        for (String line : Files.readAllLines(results, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split(" ");
            int id = Integer.parseInt(f[0]);
            byId.put(id, new Result(id, Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3].equals("1"),
                    f[4].equals("1"), Long.parseLong(f[5]), dir.resolve("trace." + id)));
        }
        List<Result> in = new ArrayList<>();
        for (Command c : commands) {
            Result r = byId.get(c.id());
            if (r == null) {
                throw new IOException("the sandbox gave no result for command " + c.id());
            }
            in.add(r);
        }
        return in;
    }
}
