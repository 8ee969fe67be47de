package dev.aii.openai;

import java.net.InetAddress;
import java.net.UnknownHostException;
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
            // Only a literal reaches getByName, which then parses it and never asks DNS: brackets make it
            // take the text as IPv6 or fail, and a dotted decimal is checked to be one first.
            return InetAddress.getByName(h.contains(":") ? "[" + h + "]" : ipv4Literal(h)).isLoopbackAddress();
        } catch (UnknownHostException | IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code h} when it is an IPv4 literal (1 to 4 decimal parts, each within its range), else throws. */
    private static String ipv4Literal(String h) {
        String[] parts = h.split("\\.", -1);
        if (parts.length > 4) {
            throw new IllegalArgumentException(h);
        }
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 10 || (part.length() > 1 && part.charAt(0) == '0')) {
                throw new IllegalArgumentException(h);
            }
            long max = i < parts.length - 1 ? 255 : (1L << (8 * (4 - i))) - 1;
            if (Long.parseLong(part) > max) {
                throw new IllegalArgumentException(h);
            }
        }
        return h;
    }

    private static boolean looksLikeAddress(String h) {
        return h.contains(":") || h.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }
}
