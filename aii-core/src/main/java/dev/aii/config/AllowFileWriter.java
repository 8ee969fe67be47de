package dev.aii.config;

import dev.aii.policy.Rule;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Writes "always" rules. Every change happens while holding an exclusive lock
 * on a lock file beside the allow file (other processes) and a lock in this
 * JVM (other threads, which file locks do not separate), so concurrent adds
 * never lose a rule. Every change, seeding and appending alike, is written to
 * a temporary file in the same directory and renamed into place, so a reader,
 * who takes no lock, opens either the old file or the new one, never half of
 * a write. The lock is waited for a bounded time ({@link LockWait}), and a
 * write that would leave a file the next start cannot load is refused.
 */
final class AllowFileWriter {

    private static final Set<PosixFilePermission> OWNER_RW = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_RWX = PosixFilePermissions.fromString("rwx------");

    /** File locks are per process; this keeps two threads of one process apart too. */
    private static final ReentrantLock IN_PROCESS = new ReentrantLock();

    private AllowFileWriter() {
    }

    /**
     * Adds {@code rule} (see {@link AllowFile#add(Rule, BooleanSupplier)}),
     * waiting at most {@code wait} for the locks, and not at all once
     * {@code stopWaiting} says so.
     */
    static AllowFile.Added add(Path file, Rule rule, BooleanSupplier stopWaiting, Duration wait) throws IOException {
        requireOneLine(rule);
        byte[] line = (rule.toLine() + "\n").getBytes(StandardCharsets.UTF_8);
        Path dir = file.getParent();
        ensureDirectory(dir);
        Path lock = lockFile(file);
        if (Files.exists(lock) && !Files.isRegularFile(lock)) {
            // Opening a FIFO to write waits for a reader that never comes.
            throw new FileSystemException(lock.toString(), null, "not a regular file");
        }
        LockWait waiting = new LockWait(file, stopWaiting, wait);
        waiting.inProcess(IN_PROCESS);
        try (FileChannel lockChannel = FileChannel.open(lock,
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), ownerOnly(OWNER_RW, dir));
             FileLock ignored = waiting.fileLock(lockChannel, lock)) {
            refuseUntrusted(file);
            // Holding the lock, nobody is writing: a temporary file left now is from a writer that died.
            StaleFiles.remove(dir, file.getFileName().toString());
            byte[] existing;
            try {
                existing = AllowFileBytes.read(file);
            } catch (NoSuchFileException e) {
                replace(file, AllowFile.seedContent(rule).getBytes(StandardCharsets.UTF_8), OWNER_RW);
                return AllowFile.Added.SEEDED;
            } catch (FileSystemException e) {
                if (AllowFileBytes.TOO_LARGE.equals(e.getReason())) {
                    throw refused(file, "the file does not load (" + AllowFileBytes.TOO_LARGE + ")");
                }
                throw e;
            }
            String text;
            try {
                text = AllowFileBytes.decode(file, existing);
            } catch (FileSystemException e) {
                throw refused(file, "the file does not load (" + e.getReason() + ")");
            }
            if (AllowFileParser.parse(text).rules().contains(rule)) {
                return AllowFile.Added.ALREADY_PRESENT;
            }
            boolean needsNewline = existing.length > 0 && existing[existing.length - 1] != '\n';
            long size = (long) existing.length + (needsNewline ? 1 : 0) + line.length;
            if (size > AllowFileBytes.MAX_BYTES) {
                throw refused(file, "the rule would make the file " + AllowFileBytes.TOO_LARGE);
            }
            byte[] content = Arrays.copyOf(existing, (int) size);
            if (needsNewline) {
                content[existing.length] = '\n';
            }
            System.arraycopy(line, 0, content, content.length - line.length, line.length);
            // A symbolic link (dotfiles kept elsewhere) stays a link: its target is what changes.
            Path target = file.toRealPath();
            if (!target.equals(file)) {
                StaleFiles.remove(target.getParent(), target.getFileName().toString());
            }
            replace(target, content, permissionsOf(target));
            return AllowFile.Added.APPENDED;
        } finally {
            IN_PROCESS.unlock();
        }
    }

    /** A rule not written because the file would not load afterwards: the rule would be lost at the next start. */
    private static FileSystemException refused(Path file, String reason) {
        return new FileSystemException(file.toString(), null, reason);
    }

    /** A file others could change is not fed rules: they would not be trusted when read back. */
    private static void refuseUntrusted(Path file) throws IOException {
        Optional<AllowFileTrust.Problem> problem;
        try {
            problem = AllowFileTrust.check(file);
        } catch (NoSuchFileException e) {
            problem = AllowFileTrust.checkDirectory(file.getParent());
        }
        if (problem.isPresent()) {
            throw new IOException(problem.get().reason());
        }
    }

    static Path lockFile(Path file) {
        return file.resolveSibling("." + file.getFileName() + ".lock");
    }

    /** A line feed would split the rule into two lines; an unpaired surrogate has no UTF-8 form. */
    private static void requireOneLine(Rule rule) {
        for (String token : rule.tokens()) {
            boolean unpaired = token.codePoints().anyMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE);
            if (token.indexOf('\n') >= 0 || unpaired) {
                throw new IllegalArgumentException("a rule with a line feed or an unpaired surrogate "
                        + "cannot be written as one line of UTF-8: " + rule.tokens());
            }
        }
    }

    /** Writes {@code content} to a temporary file beside {@code target}, then renames it over {@code target}. */
    private static void replace(Path target, byte[] content, Set<PosixFilePermission> permissions)
            throws IOException {
        Path dir = target.getParent();
        // createTempFile makes the file owner-only on POSIX, so it is never readable more widely.
        Path temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
        try {
            if (permissions != null) {
                // Set explicitly: permissions given at creation are narrowed by the umask.
                Files.setPosixFilePermissions(temp, permissions);
            }
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(content);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
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
            Files.createDirectory(dir, ownerOnly(OWNER_RWX, dir));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
            return;
        }
        if (isPosix(dir)) {
            // Again explicitly: the creation attribute is narrowed by the umask.
            Files.setPosixFilePermissions(dir, OWNER_RWX);
        }
    }

    private static Set<PosixFilePermission> permissionsOf(Path file) throws IOException {
        return isPosix(file) ? Files.getPosixFilePermissions(file) : null;
    }

    private static FileAttribute<?>[] ownerOnly(Set<PosixFilePermission> permissions, Path where) {
        return isPosix(where) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
                : new FileAttribute<?>[0];
    }

    private static boolean isPosix(Path where) {
        return where.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Makes the rename durable where the platform allows opening a directory. */
    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Best effort: the rename itself is already atomic.
        }
    }
}
