package dev.aii.cli;

import dev.aii.exec.Platform;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.nio.file.Path;

/** The {@code aii} program: wires the process's streams and environment to {@link Aii}. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        Host host = new Host(
                new FileInputStream(FileDescriptor.in),
                new FileOutputStream(FileDescriptor.out),
                new FileOutputStream(FileDescriptor.err),
                System.getenv(),
                Path.of("").toAbsolutePath(),
                Stdio.detect(),
                Backends::open,
                LocalExec::create,
                Interrupts.sigint(),
                JLineInput::open,
                Platform.current());
        System.exit(new Aii(host).run(args));
    }
}
