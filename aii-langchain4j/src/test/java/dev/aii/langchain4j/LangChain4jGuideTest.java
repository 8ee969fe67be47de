package dev.aii.langchain4j;

import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.GuideScenario;
import dev.aii.testkit.JavaProgram;
import dev.aii.testkit.Jdks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LangChain4j program of docs/embedding.md, compiled and run on a JDK 17
 * with LangChain4j's own OpenAI client, against the fake server: a command on
 * the allowlist runs, one off it reaches the approver, and the denial reaches
 * the model as the exact string.
 */
class LangChain4jGuideTest {

    private static final Path GUIDE = Path.of("..", "docs", "embedding.md");

    @TempDir
    Path work;

    @Test
    void theGuidesLangChain4jProgramRunsOnJava17AndGatesEveryCommand() throws Exception {
        Path jdk17 = Jdks.home(17);
        JavaProgram demo = JavaProgram.fromGuide(GUIDE, "LangChain4jDemo");
        List<Path> classpath = JavaProgram.testClassPath();
        Path classes = demo.compile(jdk17, work, classpath);
        Path cwd = Files.createDirectories(work.resolve("cwd"));
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            GuideScenario.enqueue(server);
            JavaProgram.Result result = demo.run(jdk17, cwd, classes, classpath, Map.of(),
                    server.baseUrl(), FakeOpenAiServer.DEFAULT_MODEL);
            GuideScenario.assertRan(server, result, cwd);
        }
    }
}
