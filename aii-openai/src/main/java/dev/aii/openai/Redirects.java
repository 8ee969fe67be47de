package dev.aii.openai;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * The backend's rule for redirects: followed only within the origin of the
 * request (same scheme, host and port), at most {@value #MAX_HOPS} times. A
 * redirect to anywhere else would send the conversation, command output
 * included, to a server the user never named.
 */
final class Redirects {

    static final int MAX_HOPS = 5;

    /** A redirect that leaves the server's origin, which is not followed. */
    static final class Refused extends IOException {

        private static final long serialVersionUID = 1L;

        private final String target;

        Refused(String target, String why) {
            super(why + ": " + target);
            this.target = target;
        }

        /** Where the server pointed, as it wrote it (resolved against the request). */
        String target() {
            return target;
        }
    }

    private Redirects() {
    }

    static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /**
     * Where a redirect response to a request for {@code from} points, when it may be followed.
     *
     * @return empty when {@code status} is no redirect
     * @throws Refused when it points to another origin, or has no usable location
     */
    static Optional<URI> next(URI from, int status, Optional<String> locationHeader, int hops) throws Refused {
        if (!isRedirect(status)) {
            return Optional.empty();
        }
        String location = locationHeader.orElse("");
        if (location.isBlank()) {
            throw new Refused("(no Location)", "the server answered HTTP " + status + " without a target");
        }
        URI target;
        try {
            target = from.resolve(location.strip());
        } catch (IllegalArgumentException e) {
            throw new Refused(location, "the server redirected to an address that is not a URL");
        }
        if (!sameOrigin(from, target)) {
            throw new Refused(target.toString(), "the server redirected to another host");
        }
        if (hops >= MAX_HOPS) {
            throw new Refused(target.toString(), "the server redirected more than " + MAX_HOPS + " times");
        }
        return Optional.of(target);
    }

    static boolean sameOrigin(URI a, URI b) {
        return a.getScheme() != null && b.getScheme() != null
                && a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost() != null && b.getHost() != null
                && a.getHost().toLowerCase(Locale.ROOT).equals(b.getHost().toLowerCase(Locale.ROOT))
                && port(a) == port(b);
    }

    private static int port(URI u) {
        if (u.getPort() >= 0) {
            return u.getPort();
        }
        return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }
}
