package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An https:// server on loopback with a certificate nobody trusts (made by
 * the JDK's keytool): the backend's requests go over TLS and check the
 * certificate, so nothing is sent to it and the reason names the
 * certificate.
 */
class TlsTest {

    @TempDir
    Path dir;

    private SSLContext serverContext() throws Exception {
        Path store = dir.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "s", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost", "-validity", "1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, out);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        return context;
    }

    @Test
    void anUntrustedCertificateIsRefusedAndNoRequestReachesTheServer() throws Exception {
        SSLContext context = serverContext();
        AtomicInteger requests = new AtomicInteger();
        try (SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofPlatform().daemon().start(() -> {
                while (true) {
                    try (Socket s = server.accept()) {
                        InputStream in = s.getInputStream();
                        if (in.read() >= 0) {   // a byte of a request: the handshake went through
                            requests.incrementAndGet();
                            OutputStream out = s.getOutputStream();
                            out.write("HTTP/1.1 200 OK\r\nContent-Length: 26\r\n\r\n{\"object\":\"list\",\"data\":[]}"
                                    .getBytes(StandardCharsets.US_ASCII));
                        }
                    } catch (IOException e) {
                        if (server.isClosed()) {
                            return;
                        }
                    }
                }
            });
            int port = server.getLocalPort();
            try (ServerHttp http = new ServerHttp(Duration.ofSeconds(10), Optional.of("secret"))) {
                IOException byName = assertThrows(IOException.class,
                        () -> http.get(URI.create("https://localhost:" + port + "/v1/models"), Duration.ofSeconds(10)));
                assertTrue(ServerErrors.describe(byName).contains("unable to find valid certification path"),
                        ServerErrors.describe(byName));
                IOException byAddress = assertThrows(IOException.class,
                        () -> http.get(URI.create("https://127.0.0.1:" + port + "/v1/models"), Duration.ofSeconds(10)));
                assertFalse(ServerErrors.describe(byAddress).isEmpty());
            }
            assertEquals(0, requests.get(), "a request, and its bearer token, went to an unverified server");
        }
    }
}
