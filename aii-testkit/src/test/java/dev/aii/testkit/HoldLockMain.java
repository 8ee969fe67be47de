package dev.aii.testkit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Another process at the allow file: {@code HoldLockMain <lock file>} takes the lock as aii does, says so, and keeps it until stdin ends. */
public final class HoldLockMain {

    private HoldLockMain() {
    }

    public static void main(String[] args) throws IOException {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = channel.lock()) {
            System.out.println("locked");
            System.out.flush();
            System.in.readAllBytes();
        }
    }
}
