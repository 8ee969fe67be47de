package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.testkit.FakeOpenAiServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The usual mistakes in a base URL each end {@code unavailable_server} with
 * a line that says what to change (cli.md 9.9 and 10.9), asked of the server
 * at most once more.
 */
class BaseUrlHintsTest {

    private static final String START_IT = "start it, or point AII_BASE_URL at a running OpenAI-compatible server";

    private static ModelException problem(String base) {
        try (OpenAiBackend backend = Fixture.backend(base, Timeouts.defaults())) {
            ModelException e = backend.availability().problem().orElseThrow();
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            return e;
        }
    }

    @Test
    void aBaseUrlWithoutAScheme() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            String bare = server.baseUrl().substring("http://".length());
            assertEquals(List.of("Cannot reach the model server at " + bare, START_IT,
                    "did you mean http://" + bare + " ?"), problem(bare).lines());
            assertEquals(List.of(), server.requests());
        }
    }

    @Test
    void httpsToAServerThatSpeaksPlainHttp() throws Exception {
        // A plain HTTP server answers a TLS greeting as it answers any request it cannot read.
        try (ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread answering = Thread.ofPlatform().daemon().start(() -> {
                while (!plain.isClosed()) {
                    try (Socket s = plain.accept()) {
                        s.getInputStream().read(new byte[512]);
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            String https = "https://127.0.0.1:" + plain.getLocalPort() + "/v1";
            assertEquals(List.of("Cannot reach the model server at " + https, START_IT,
                    "did you mean http://127.0.0.1:" + plain.getLocalPort() + "/v1 ?"), problem(https).lines());
            plain.close();
            answering.join(10_000);
        }
    }

    @Test
    void aTlsGreetingThatIsNeverAnsweredCostsTheConnectTime() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            String https = "https://" + server.baseUrl().substring("http://".length());
            assertEquals(List.of("Cannot reach the model server at " + https, START_IT),
                    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> problem(https).lines()));
        }
    }

    @Test
    void aBaseUrlEndingInTheChatEndpoint() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            String chat = server.baseUrl() + "/chat/completions";
            assertEquals(List.of("Cannot reach the model server at " + chat, START_IT,
                    "did you mean " + server.baseUrl() + " ?"), problem(chat).lines());
        }
    }

    @Test
    void aBaseUrlWithoutV1AsksOnceUnderV1() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            assertEquals(List.of("Cannot reach the model server at " + server.rootUrl(), START_IT,
                    "did you mean " + server.baseUrl() + " ?"), problem(server.rootUrl()).lines());
            assertEquals(1, server.requests("/models").size());
            assertEquals(1, server.requests("/v1/models").size());
        }
    }

    @Test
    void anUnknownHostIsNamed() {
        assertEquals(Optional.of("nosuch.example is not a host name this machine knows"),
                BaseUrlHints.ofFailure("http://nosuch.example:11434/v1",
                        new java.net.ConnectException("connect") {
                            {
                                initCause(new UnknownHostException("nosuch.example"));
                            }
                        }));
        assertEquals(Optional.of("nosuch.example is not a host name this machine knows"),
                BaseUrlHints.ofFailure("http://nosuch.example/v1", new UnknownHostException("nosuch.example")));
    }

    @Test
    void noHintForAServerThatIsSimplyDown() throws IOException {
        String dead = FakeOpenAiServer.unreachableBaseUrl();
        assertEquals(List.of("Cannot reach the model server at " + dead, START_IT), problem(dead).lines());
    }
}
