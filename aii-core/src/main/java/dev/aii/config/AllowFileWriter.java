package dev.aii.config;

import dev.aii.policy.Rule;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes "always" rules. Every change happens while holding an exclusive lock
 * on a lock file beside the allow file (other processes) and a lock in this
 * JVM (other threads, which file locks do not separate). A new file is written
 * to a temporary file and renamed into place; an existing one gets a single
 * appended write, so a reader sees the old content or the new, never half.
 */
final class AllowFileWriter {

    private static final Set<PosixFilePermission> OWNER_RW = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_RWX = PosixFilePermissions.fromString("rwx------");

    /** File locks are per process; this keeps two threads of one process apart too. */
    private static final ReentrantLock IN_PROCESS = new ReentrantLock();

    private AllowFileWriter() {
    }

    static AllowFile.Added add(Path file, Rule rule) throws IOException {
        Path dir = file.getParent();
        ensureDirectory(dir);
        IN_PROCESS.lock();
        try (FileChannel lockChannel = FileChannel.open(lockFile(file),
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), attributes(OWNER_RW, file));
             FileLock ignored = lockChannel.lock()) {
            if (Files.exists(file)) {
                return append(file, rule);
            }
            seed(file, rule);
            return AllowFile.Added.SEEDED;
        } finally {
            IN_PROCESS.unlock();
        }
    }

    static Path lockFile(Path file) {
        return file.resolveSibling("." + file.getFileName() + ".lock");
    }

    private static AllowFile.Added append(Path file, Rule rule) throws IOException {
        byte[] existing = Files.readAllBytes(file);
        String text = new String(existing, StandardCharsets.UTF_8);
        if (AllowFileParser.parse(text).rules().contains(rule)) {
            return AllowFile.Added.ALREADY_PRESENT;
        }
        boolean needsNewline = existing.length > 0 && existing[existing.length - 1] != '\n';
        String line = (needsNewline ? "\n" : "") + rule.toLine() + "\n";
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(false);
        }
        return AllowFile.Added.APPENDED;
    }

    private static void seed(Path file, Rule rule) throws IOException {
        Path dir = file.getParent();
        Path temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp", attributes(OWNER_RW, file));
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(AllowFile.seedContent(rule).getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            syncDirectory(dir);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void ensureDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.createDirectory(dir, attributes(OWNER_RWX, dir));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
    }

    /** Makes the rename durable where the platform allows opening a directory. */
    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Best effort: the rename itself is already atomic.
        }
    }

    private static FileAttribute<?>[] attributes(Set<PosixFilePermission> permissions, Path where) {
        boolean posix = where.getFileSystem().supportedFileAttributeViews().contains("posix");
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
                : new FileAttribute<?>[0];
    }
}
