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
        return switch (e) {
            case AccessDeniedException x -> "Permission denied";
            case NoSuchFileException x -> "No such file or directory";
            case NotDirectoryException x -> "Not a directory";
            case DirectoryNotEmptyException x -> "Directory not empty";
            case FileAlreadyExistsException x -> "File exists";
            case CharacterCodingException x -> "not valid UTF-8";
            case FileSystemException x when x.getReason() != null -> x.getReason();
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        };
    }
}
