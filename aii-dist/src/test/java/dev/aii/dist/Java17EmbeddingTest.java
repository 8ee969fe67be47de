package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aii.testkit.JavaProgram;
import dev.aii.testkit.Jdks;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an embedder on Java 17 does: a Maven project of its own, built and run
 * on a JDK 17, depends on {@code dev.aii:aii-core} from a local repository
 * (laid out here as {@code ./mvnw install} lays it out) and runs the example
 * of docs/embedding.md, which prints what the guide says it prints.
 */
class Java17EmbeddingTest {

    private static final String VERSION = System.getProperty("aii.version", "0.9.0");
    private static final Path GUIDE = Run.ROOT.resolve("docs/embedding.md");
    private static final Path CORE_JAR = Run.ROOT.resolve("aii-core/target/aii-core-" + VERSION + ".jar");

    @TempDir
    Path work;

    @Test
    void anOutsideProjectOnJava17TakesAiiCoreFromALocalRepositoryAndRunsTheGuidesExample() throws Exception {
        assumeTrue(Files.isRegularFile(CORE_JAR), "aii-core is not packaged: run ./mvnw verify");
        Path jdk17 = Jdks.home(17);
        Path repository = work.resolve("repository");
        install(repository, "aii-parent", Run.ROOT.resolve("pom.xml"), null);
        install(repository, "aii-core", Run.ROOT.resolve("aii-core/pom.xml"), CORE_JAR);

        Path project = Files.createDirectories(work.resolve("gate-demo"));
        Files.writeString(project.resolve("pom.xml"), pom());
        Path sources = Files.createDirectories(project.resolve("src/main/java"));
        JavaProgram demo = JavaProgram.fromGuide(GUIDE, "GateDemo");
        Files.writeString(sources.resolve("GateDemo.java"), demo.source());

        Path mvn = Path.of(System.getProperty("aii.maven.home", "")).resolve("bin/mvn");
        assertTrue(Files.isExecutable(mvn), "this build's Maven is not at " + mvn);
        Path cpFile = project.resolve("classpath.txt");
        JavaProgram.Result built = JavaProgram.exec(project, Map.of("JAVA_HOME", jdk17.toString(), "MAVEN_OPTS", ""),
                List.of(mvn.toString(), "-B", "-q", "-o",
                        "-Dmaven.repo.local=" + repository,
                        "-Dmaven.repo.local.tail=" + buildRepositories(),
                        "compile",
                        "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                        "-Dmdep.outputFile=" + cpFile));
        assertEquals(0, built.exit(), "the outside project did not build on Java 17:\n" + built.out() + built.err());

        List<Path> classpath = Arrays.stream(Files.readString(cpFile).strip().split(File.pathSeparator))
                .map(Path::of).toList();
        Path resolvedCore = repository.resolve("dev/aii/aii-core/" + VERSION + "/aii-core-" + VERSION + ".jar");
        assertTrue(classpath.contains(resolvedCore), "aii-core must come from the local repository: " + classpath);
        Path classes = project.resolve("target/classes");
        assertEquals(61, classFileMajor(classes.resolve("GateDemo.class")), "compiled for Java 17");

        String guide = Files.readString(GUIDE);
        int program = guide.indexOf("public class GateDemo");
        int stdout = guide.indexOf("```text\n", program);
        Path cwd = Files.createDirectories(work.resolve("cwd"));
        JavaProgram.Result ran = demo.run(jdk17, cwd, classes, classpath, Map.of(), work.resolve("allow").toString());
        assertEquals(0, ran.exit(), ran.err());
        assertEquals(block(guide, stdout), ran.out());
        assertEquals(block(guide, guide.indexOf("```text\n", stdout + 1)), ran.err());
        assertFalse(Files.exists(cwd.resolve("notes.txt")), "the declined touch must not have run");
    }

    /** This build's local repository, then any read-only ones it reads behind it. */
    private static String buildRepositories() {
        String local = System.getProperty("aii.maven.repository");
        String tail = System.getProperty("aii.maven.repository.tail", "");
        return tail.isBlank() || tail.startsWith("${") ? local : local + "," + tail;
    }

    /** Puts a POM (and a jar) where a local repository keeps {@code dev.aii:<artifact>}, as install does. */
    private static void install(Path repository, String artifact, Path pom, Path jar) throws IOException {
        Path dir = Files.createDirectories(repository.resolve("dev/aii/" + artifact + "/" + VERSION));
        Files.copy(pom, dir.resolve(artifact + "-" + VERSION + ".pom"));
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifact + "-" + VERSION + ".jar"));
        }
    }

    /** The embedder's POM: aii-core and the plugin versions this build has, so that it builds offline. */
    private static String pom() {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>gate-demo</artifactId>
                  <version>1.0</version>
                  <properties>
                    <maven.compiler.release>17</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <dependencies>
                    <dependency>
                      <groupId>dev.aii</groupId>
                      <artifactId>aii-core</artifactId>
                      <version>%s</version>
                    </dependency>
                  </dependencies>
                  <build>
                    <pluginManagement>
                      <plugins>
                        <plugin>
                          <artifactId>maven-resources-plugin</artifactId>
                          <version>3.3.1</version>
                        </plugin>
                        <plugin>
                          <artifactId>maven-compiler-plugin</artifactId>
                          <version>3.14.1</version>
                        </plugin>
                      </plugins>
                    </pluginManagement>
                  </build>
                </project>
                """.formatted(VERSION);
    }

    private static int classFileMajor(Path classFile) throws IOException {
        try (InputStream in = Files.newInputStream(classFile); DataInputStream data = new DataInputStream(in)) {
            data.readInt();
            data.readUnsignedShort();
            return data.readUnsignedShort();
        }
    }

    /** The content of the fenced block that opens at {@code start}. */
    private static String block(String text, int start) {
        int from = text.indexOf('\n', start) + 1;
        return text.substring(from, text.indexOf("```\n", from));
    }
}
