package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.testkit.FakeOpenAiServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Finding a server on this machine, and a base URL that lacks {@code /v1}:
 * against fake servers on ephemeral ports (the real ports are the command
 * line's end-to-end tests').
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalServersTest {

    @Test
    void theCandidatesAreOllamaThenLlamaServerOnLoopback() {
        assertEquals(List.of("http://127.0.0.1:11434/v1", "http://127.0.0.1:8080/v1"), LocalServers.CANDIDATES);
    }

    @Test
    void theFirstCandidateThatListsModelsIsTakenAndTheOthersAreNotAsked() throws IOException {
        try (FakeOpenAiServer first = FakeOpenAiServer.start().models("llama3.2");
                FakeOpenAiServer second = FakeOpenAiServer.start().models("other")) {
            assertEquals(Optional.of(first.baseUrl()), LocalServers.find(List.of(first.baseUrl(), second.baseUrl())));
            assertEquals(1, first.requests("/v1/models").size());
            assertEquals(List.of(), second.requests());
        }
    }

    @Test
    void nothingListeningThenAServerGivesTheServer() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            assertEquals(Optional.of(server.baseUrl()),
                    LocalServers.find(List.of(FakeOpenAiServer.unreachableBaseUrl(), server.baseUrl())));
        }
    }

    @Test
    void somethingElseOnThePortIsPassedOver() throws IOException {
        try (FakeOpenAiServer notFound = FakeOpenAiServer.start().modelsAnswer(404, "404 page not found");
                FakeOpenAiServer html = FakeOpenAiServer.start().modelsAnswer(200, "<html>Tomcat</html>");
                FakeOpenAiServer locked = FakeOpenAiServer.start().modelsAnswer(401, "{\"error\":\"no key\"}");
                FakeOpenAiServer notAList = FakeOpenAiServer.start().modelsAnswer(200, "{\"data\":\"none\"}");
                FakeOpenAiServer real = FakeOpenAiServer.start()) {
            assertEquals(Optional.of(real.baseUrl()), LocalServers.find(List.of(notFound.baseUrl(), html.baseUrl(),
                    locked.baseUrl(), notAList.baseUrl(), real.baseUrl())));
        }
    }

    @Test
    void aServerWithoutModelsStillCountsForItCanSayWhatToDo() throws IOException {
        try (FakeOpenAiServer empty = FakeOpenAiServer.start().models()) {
            assertEquals(Optional.of(empty.baseUrl()), LocalServers.find(List.of(empty.baseUrl())));
        }
    }

    @Test
    void aPortThatAcceptsButNeverAnswersIsGivenUpOn() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                FakeOpenAiServer real = FakeOpenAiServer.start()) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        held.add(silent.accept());   // read nothing, answer nothing
                    }
                } catch (IOException e) {
                    // closed
                }
            });
            String base = "http://127.0.0.1:" + silent.getLocalPort() + "/v1";
            assertEquals(Optional.of(real.baseUrl()), LocalServers.find(List.of(base, real.baseUrl())));
            silent.close();
            acceptor.join();
        }
    }

    @Test
    void noBearerTokenGoesToAServerFoundOnAPort() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            LocalServers.find(List.of(server.baseUrl()));
            assertTrue(server.requests().getFirst().headers().keySet().stream().noneMatch("authorization"::equals),
                    server.requests().getFirst().headers().toString());
        }
    }

    @Test
    void noneAnsweringGivesNone() throws IOException {
        assertEquals(Optional.empty(), LocalServers.find(List.of(FakeOpenAiServer.unreachableBaseUrl(),
                FakeOpenAiServer.unreachableBaseUrl())));
        assertEquals(Optional.empty(), LocalServers.find(List.of()));
    }

    @Test
    void aBaseUrlWithoutV1IsToldByA404ThereAndAListUnderV1() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            assertEquals(Optional.of(server.baseUrl()), LocalServers.withV1(server.rootUrl(), Optional.empty()));
            assertEquals(Optional.of(server.baseUrl()), LocalServers.withV1(server.rootUrl() + "/", Optional.empty()));
            assertEquals(Optional.of(server.baseUrl()), LocalServers.withV1(server.rootUrl() + "//", Optional.empty()));
        }
    }

    @Test
    void theKeyGoesWithTheQuestionToTheServerTheUserNamed() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            LocalServers.withV1(server.rootUrl(), Optional.of("sk-local"));
            assertTrue(server.requests().stream().allMatch(r ->
                    r.headers().getOrDefault("authorization", List.of()).equals(List.of("Bearer sk-local"))));
        }
    }

    @Test
    void noHintForARightUrlADeadOneOrOneWithoutModelsUnderV1() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start();
                FakeOpenAiServer noList = FakeOpenAiServer.start().modelsAnswer(404, "404 page not found");
                FakeOpenAiServer broken = FakeOpenAiServer.start().modelsAnswer(500, "{\"error\":\"down\"}")) {
            assertEquals(Optional.empty(), LocalServers.withV1(server.baseUrl(), Optional.empty()));
            assertEquals(Optional.empty(), LocalServers.withV1(noList.rootUrl(), Optional.empty()));
            assertEquals(Optional.empty(), LocalServers.withV1(broken.rootUrl(), Optional.empty()));
            assertEquals(Optional.empty(), LocalServers.withV1(FakeOpenAiServer.unreachableBaseUrl(), Optional.empty()));
            assertEquals(Optional.empty(), LocalServers.withV1("localhost:11434", Optional.empty()));
            assertEquals(Optional.empty(), LocalServers.withV1("http://exa mple", Optional.empty()));
        }
    }
}
