package dev.aii.openai;

import java.net.InetAddress;
import java.util.Locale;

/** Whether a host names this machine's loopback interface, decided without any name lookup. */
final class Hosts {

    private Hosts() {
    }

    /**
     * True for {@code localhost} (and names under {@code .localhost}), IPv4
     * 127.0.0.0/8 and IPv6 {@code ::1}, with or without brackets. Any other
     * name is remote: resolving it would make a warning depend on DNS.
     */
    static boolean isLoopback(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.equals("localhost") || h.endsWith(".localhost")) {
            return true;
        }
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (!looksLikeAddress(h)) {
            return false;
        }
        try {
            return InetAddress.ofLiteral(h).isLoopbackAddress();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean looksLikeAddress(String h) {
        return h.contains(":") || h.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }
}
