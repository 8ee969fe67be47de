package dev.aii.cli.e2e;

import dev.aii.testkit.FakeOpenAiServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh fake server and a bin/aii pointed at it, in a temporary directory, for each test. */
abstract class ServerFixture {

    @TempDir
    Path tmp;

    FakeOpenAiServer server;
    AiiProcess aii;

    @BeforeEach
    void startServer() throws Exception {
        server = FakeOpenAiServer.start();
        aii = new AiiProcess(tmp).server(server);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }
}
