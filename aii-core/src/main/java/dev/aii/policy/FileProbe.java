package dev.aii.policy;

/**
 * The policy's only view of the file system, so that resolution stays pure
 * and testable.
 */
@FunctionalInterface
public interface FileProbe {

    /**
     * Whether {@code absolutePath} names a regular file (symbolic links
     * followed) that the current user may execute.
     */
    boolean isExecutableRegularFile(String absolutePath);
}
