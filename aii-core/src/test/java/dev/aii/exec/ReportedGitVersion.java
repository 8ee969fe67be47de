package dev.aii.exec;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A runner that runs every command with {@code delegate}, except that git's
 * {@code --version} gets the answer {@code line}: tests of git under a rule
 * run the real git of the machine, and decide the version it reports, so that
 * they mean the same on a git older than 2.45 and on a newer one.
 */
public final class ReportedGitVersion implements CommandRunner {

    /** A version new enough for aii's git environment. */
    public static final String NEW_ENOUGH = "git version 2.45.0";

    private final CommandRunner delegate;
    private final String line;

    public ReportedGitVersion(CommandRunner delegate, String line) {
        this.delegate = delegate;
        this.line = line;
    }

    /** The real git of this machine, reported as new enough. */
    static ReportedGitVersion newEnough() {
        return new ReportedGitVersion(new ProcessBuilderRunner(), NEW_ENOUGH);
    }

    @Override
    public RunResult run(String path, List<String> arguments, Limits limits, Cancellation cancellation) {
        return run(path, arguments, Map.of(), limits, cancellation);
    }

    @Override
    public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                         Cancellation cancellation) {
        if (path.endsWith("/git") && arguments.equals(List.of("--version"))) {
            byte[] out = (line + "\n").getBytes(StandardCharsets.UTF_8);
            return new RunResult.Exited(0, new CapturedOutput(out, out.length));
        }
        return delegate.run(path, arguments, environment, limits, cancellation);
    }
}
