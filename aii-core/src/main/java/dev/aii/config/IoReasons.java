package dev.aii.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Turns an I/O failure into the few words a user needs (Java's messages are often just a path). */
public final class IoReasons {

    private IoReasons() {
    }

    /** A short reason, e.g. {@code Permission denied} or {@code Is a directory}. */
    public static String describe(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        } else if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        } else if (e instanceof NotDirectoryException) {
            return "Not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            return "Directory not empty";
        } else if (e instanceof FileAlreadyExistsException) {
            return "File exists";
        } else if (e instanceof CharacterCodingException) {
            return "not valid UTF-8";
        } else if (e instanceof FileSystemException x && x.getReason() != null) {
            return x.getReason();
        } else {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }
}
