package dev.aii.exec;

import java.util.Locale;

/** The operating system family, for the few texts that name it. */
public enum Platform {
    MACOS("Mac"),
    OTHER("computer");

    private final String machineWord;

    Platform(String machineWord) {
        this.machineWord = machineWord;
    }

    /** The platform this JVM runs on. */
    public static Platform current() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        return os.startsWith("mac") || os.contains("darwin") ? MACOS : OTHER;
    }

    /** How texts name the user's machine: {@code Mac} on macOS, else {@code computer}. */
    public String machineWord() {
        return machineWord;
    }
}
