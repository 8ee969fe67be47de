package dev.aii.policy;

/**
 * What resolution depends on: the search path, the working directory and a
 * view of the file system.
 *
 * @param searchPath the {@code PATH} value, or {@code null} when unset (then
 *                   {@link Builtins#DEFAULT_PATH} is searched)
 * @param workingDirectory the absolute directory that relative paths start from
 * @param probe how to ask the file system whether a path is an executable regular file
 */
public record Environment(String searchPath, String workingDirectory, FileProbe probe) {

    public Environment {
        if (workingDirectory == null || !workingDirectory.startsWith("/")) {
            throw new IllegalArgumentException("working directory must be absolute: " + workingDirectory);
        }
        if (probe == null) {
            throw new IllegalArgumentException("probe must not be null");
        }
    }

    /** The search path actually used. */
    public String effectiveSearchPath() {
        return searchPath == null ? Builtins.DEFAULT_PATH : searchPath;
    }
}
