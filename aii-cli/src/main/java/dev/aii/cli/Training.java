package dev.aii.cli;

import dev.aii.config.AllowFile;
import dev.aii.config.SystemEnvironment;
import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Render;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The training run of the startup cache that {@code make install} creates
 * ({@code -XX:AOTCacheOutput}): in one JVM, with the launcher's module path
 * and flags, it takes the paths of {@code --help}, {@code --version} and
 * {@code --list-allowed}, and of one exec policy decision with its rendering,
 * so that the classes they load are stored in the cache already linked.
 * Everything it prints is discarded; it reads the allow file, never writes.
 *
 * <p>It deliberately leaves out the prompt path (parser, HTTP client, JSON):
 * every class in the cache is loaded at each start, so caching them would
 * slow down the short commands by more than they gain (docs/benchmarks.md).
 * It ends with {@link System#exit} as {@link Main} does, whose classes are
 * then in the cache too.
 */
public final class Training {

    private Training() {
    }

    public static void main(String[] args) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(name -> name.startsWith("AII_"));
        Stdio stdio = Stdio.detect();
        for (String flag : List.of("--help", "--version", "--list-allowed")) {
            Host host = Main.host(InputStream.nullInputStream(), OutputStream.nullOutputStream(),
                    OutputStream.nullOutputStream(), env, stdio);
            new Aii(host).run(new String[] {flag});
        }
        AllowFile.Loaded rules = AllowFile.at(AllowFile.defaultPath(env)).load();
        ExecPolicy policy = ExecPolicy.of(rules.rules().size() > 0 ? rules.rules() : Builtins.defaults(),
                SystemEnvironment.current());
        if (policy.evaluate("ls", List.of("-l", "my file")) instanceof Decision.Allow allow) {
            Render.render(allow.command().arguments());
        }
        System.exit(0);
    }
}
