package dev.aii.openai;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS context of an HTTP client that only ever talks plain
 * {@code http://} (a model server on this machine, as most are): it has no
 * TLS at all, so that building the client does not load the JDK's TLS
 * provider and parse its store of trusted certificates, which costs a
 * fresh process tens of milliseconds before its first request. Every use
 * fails, so nothing could go out over TLS unchecked; {@link Redirects}
 * never lets such a client follow a redirect to {@code https://}.
 */
final class PlainHttpOnly extends SSLContext {

    /** The parameters to give the client with this context: it would otherwise ask the context for its defaults. */
    static final SSLParameters PARAMETERS = new SSLParameters();

    PlainHttpOnly() {
        super(new Refusing(), null, "none");
    }

    private static final class Refusing extends SSLContextSpi {

        private static IllegalStateException refused() {
            return new IllegalStateException("this HTTP client is for http:// only");
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {
            throw refused();
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            throw refused();
        }
    }
}
