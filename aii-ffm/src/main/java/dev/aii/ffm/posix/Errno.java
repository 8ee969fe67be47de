package dev.aii.ffm.posix;

/**
 * The error numbers aii names, with the words the C library of glibc and of
 * macOS prints for them in the C locale. Fixed English words rather than
 * {@code strerror}, whose text follows the user's locale: these words reach the
 * model and tests, and must not change with {@code LANG}. Numbers live in
 * {@link OsConstants}.
 */
public enum Errno {
    EPERM("Operation not permitted"),
    ENOENT("No such file or directory"),
    ESRCH("No such process"),
    EINTR("Interrupted system call"),
    EIO("Input/output error"),
    ENXIO("No such device or address"),
    E2BIG("Argument list too long"),
    ENOEXEC("Exec format error"),
    EBADF("Bad file descriptor"),
    ECHILD("No child processes"),
    EAGAIN("Resource temporarily unavailable"),
    ENOMEM("Cannot allocate memory"),
    EACCES("Permission denied"),
    EFAULT("Bad address"),
    ENOTDIR("Not a directory"),
    EISDIR("Is a directory"),
    EINVAL("Invalid argument"),
    ENFILE("Too many open files in system"),
    EMFILE("Too many open files"),
    ENOTTY("Inappropriate ioctl for device"),
    ETXTBSY("Text file busy"),
    ENAMETOOLONG("File name too long"),
    ENOSYS("Function not implemented"),
    ELOOP("Too many levels of symbolic links"),
    /** macOS only. */
    EBADEXEC("Bad executable (or shared library)", false),
    /** macOS only. */
    EBADARCH("Bad CPU type in executable", false),
    /** macOS only. */
    EBADMACHO("Malformed Mach-o file", false);

    private final String text;
    private final boolean portable;

    Errno(String text) {
        this(text, true);
    }

    Errno(String text, boolean portable) {
        this.text = text;
        this.portable = portable;
    }

    /** The words for this error, e.g. {@code No such file or directory}. */
    public String text() {
        return text;
    }

    /** Whether every supported system has this error. */
    public boolean portable() {
        return portable;
    }

    /** The words for error number {@code value} on {@code os}; an unknown number reads {@code error <n>}. */
    public static String describe(OsConstants os, int value) {
        return os.errnoNamed(value).map(Errno::text).orElse("error " + value);
    }
}
