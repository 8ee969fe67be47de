package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoopbackTest {

    @ParameterizedTest
    @CsvSource({
        "http://localhost:11434/v1, true, localhost",
        "http://LOCALHOST:8080/v1, true, LOCALHOST",
        "http://ollama.localhost/v1, true, ollama.localhost",
        "http://127.0.0.1:8080/v1, true, 127.0.0.1",
        "http://127.1.2.3/v1, true, 127.1.2.3",
        "http://[::1]:1234/v1, true, [::1]",
        "http://[::ffff:127.0.0.1]:1234/v1, true, [::ffff:127.0.0.1]",
        "http://192.168.1.20:11434/v1, false, 192.168.1.20",
        "http://10.0.0.1/v1, false, 10.0.0.1",
        "http://0.0.0.0:8000/v1, false, 0.0.0.0",
        "http://[fe80::1]/v1, false, [fe80::1]",
        "https://api.openai.com/v1, false, api.openai.com",
        "http://localhost.example.com/v1, false, localhost.example.com",
        "http://127.0.0.1.nip.io/v1, false, 127.0.0.1.nip.io"
    })
    void onlyLoopbackHostsCountAsThisMachine(String baseUrl, boolean loopback, String host) {
        try (OpenAiBackend backend = OpenAiBackend.create(
                OpenAiConfig.fromEnvironment(Map.of("AII_BASE_URL", baseUrl)).orElseThrow())) {
            assertEquals(loopback, backend.isLoopback());
            assertEquals(host, backend.host());
        }
    }
}
