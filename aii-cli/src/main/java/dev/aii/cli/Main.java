package dev.aii.cli;

import dev.aii.cli.backend.Backends;
import dev.aii.cli.exec.ExecSupply;
import dev.aii.cli.input.JLineInput;
import dev.aii.cli.process.Interrupts;
import dev.aii.cli.process.ProcessEnd;
import dev.aii.cli.process.ProcessSignals;
import dev.aii.cli.process.Stdio;
import dev.aii.exec.Platform;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;

/** The {@code aii} program: wires the process's streams and environment to {@link Aii}. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        Map<String, String> env = System.getenv();
        Host host = host(
                new FileInputStream(FileDescriptor.in),
                new FileOutputStream(FileDescriptor.out),
                new FileOutputStream(FileDescriptor.err),
                env,
                Stdio.detect());
        ProcessEnd.end(new Aii(host).run(args), env);
    }

    /** The host of a real aii process, with these streams, environment and standard streams' kinds. */
    public static Host host(InputStream in, OutputStream out, OutputStream err, Map<String, String> env, Stdio stdio) {
        return new Host(
                in,
                out,
                err,
                env,
                Path.of("").toAbsolutePath(),
                stdio,
                // start-up idiom: lambdas, not method references (DEVELOPERS.md)
                environment -> Backends.open(environment),
                new ExecSupply(),
                Interrupts.sigint(),
                ProcessSignals.ofProcess(),
                history -> JLineInput.open(history),
                Platform.current());
    }
}
