package dev.aii.policy;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A file probe that also remembers where each program name was found along
 * a search path, as a shell's hash table does, so that a name found before
 * costs one probe of that path instead of one probe per search path entry.
 *
 * <p>What is remembered is checked at every use: the remembered path must
 * still be an executable regular file, or the name is searched for again
 * from the start of the search path. So a program that was removed, or
 * replaced by a directory or a file that cannot run, is never resolved to
 * its old path; a program replaced by another executable at the same path
 * resolves as before (a decision depends on the path, not on the file's
 * content). Names that were not found are not remembered, so a program that
 * appears later is found. What a shell's hash table also does: a program
 * that appears during the run in a directory that comes earlier on the search
 * path than the remembered one is seen only once the remembered one is gone.
 */
final class ProgramMemo implements FileProbe {

    private final FileProbe files;
    private final Map<String, Map<String, String>> bySearchPath = new ConcurrentHashMap<>();

    ProgramMemo(FileProbe files) {
        this.files = Objects.requireNonNull(files, "files");
    }

    @Override
    public boolean isExecutableRegularFile(String absolutePath) {
        return files.isExecutableRegularFile(absolutePath);
    }

    @Override
    public Target target(String absolutePath) {
        return files.target(absolutePath);
    }

    /** Where {@code name} was found along {@code searchPath} and still is, or null. */
    String recall(String searchPath, String name) {
        Map<String, String> names = bySearchPath.get(searchPath);
        String path = names == null ? null : names.get(name);
        if (path == null) {
            return null;
        }
        if (files.isExecutableRegularFile(path)) {
            return path;
        }
        names.remove(name, path);
        return null;
    }

    /** Remembers that {@code name} was found at {@code path} along {@code searchPath}. */
    void remember(String searchPath, String name, String path) {
        bySearchPath.computeIfAbsent(searchPath, s -> new ConcurrentHashMap<>()).put(name, path);
    }
}
