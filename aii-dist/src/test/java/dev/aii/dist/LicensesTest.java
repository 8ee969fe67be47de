package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dist/licenses.sh, which gathers the notices of what an image bundles: from
 * each jar's META-INF, from dist/licenses for jars that carry none, from what
 * other modules' builds leave beside their native libraries; and stops the
 * build when a component has no notice.
 */
class LicensesTest {

    static final String JDK = Run.of(Map.of(), "bin/find-jdk").ok().out().strip();

    @TempDir
    Path tmp;

    /** A jar with Maven coordinates and the given files besides them. */
    private Path jar(String group, String artifact, String version, Map<String, String> files) throws IOException {
        Path content = tmp.resolve("content-" + artifact);
        Path props = content.resolve("META-INF/maven/" + group + "/" + artifact + "/pom.properties");
        Files.createDirectories(props.getParent());
        Files.writeString(props, "groupId=" + group + "\nartifactId=" + artifact + "\nversion=" + version + "\n");
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.createDirectories(content.resolve(file.getKey()).getParent());
            Files.writeString(content.resolve(file.getKey()), file.getValue());
        }
        Path jar = Files.createDirectories(tmp.resolve("lib")).resolve(artifact + "-" + version + ".jar");
        Run.of(Map.of(), JDK + "/bin/jar", "--create", "--file", jar.toString(), "-C", content.toString(), ".").ok();
        return jar;
    }

    private Run licenses(Path modules) {
        return Run.of(Map.of(), "sh", "dist/licenses.sh", JDK, tmp.resolve("lib").toString(), "-",
                tmp.resolve("out").toString(), modules.toString());
    }

    @Test
    void aJarsOwnNoticesAndTheKeptOnesForAJarWithoutAreGathered() throws IOException {
        jar("org.example", "thing", "1.2", Map.of("META-INF/LICENSE", "the thing's license\n",
                "META-INF/NOTICE.txt", "the thing's notice\n", "META-INF/other/LICENSE", "not a top-level notice\n"));
        jar("info.picocli", "picocli", "4.7.7", Map.of());
        jar("dev.aii", "aii-core", "0.9.0", Map.of());
        licenses(Files.createDirectories(tmp.resolve("modules"))).ok();

        Path out = tmp.resolve("out/licenses");
        assertEquals("the thing's license\n", Files.readString(out.resolve("thing/LICENSE")));
        assertEquals("the thing's notice\n", Files.readString(out.resolve("thing/NOTICE.txt")));
        assertEquals(List.of("LICENSE", "NOTICE.txt"), names(out.resolve("thing")));
        assertEquals(Files.readString(Run.ROOT.resolve("LICENSE")), Files.readString(out.resolve("picocli/LICENSE")));
        assertEquals(List.of("README", "picocli", "thing"), names(out), "aii's own jar is under aii's license");
        assertEquals("""
                Third-party components bundled with aii, and where their notices are.
                aii itself is under the Apache License, Version 2.0.

                picocli/                 info.picocli:picocli:4.7.7
                                         from dist/licenses/info.picocli (the jar carries none)
                thing/                   org.example:thing:1.2
                                         from the jar's META-INF
                """, Files.readString(out.resolve("README")));
    }

    @Test
    void aJarWithoutANoticeStopsTheBuild() throws IOException {
        jar("org.example", "silent", "3.0", Map.of("META-INF/MANIFEST.txt", "no notice\n"));
        assertEquals(new Run(1, "", "aii: silent-3.0.jar (org.example:silent:3.0) carries no license or notice,\n"
                + "aii: and dist/licenses/ holds none for org.example: add its license there\n"),
                licenses(Files.createDirectories(tmp.resolve("modules"))));
    }

    @Test
    void aModulesNativeLibrariesBringTheirNoticesOrStopTheBuild() throws IOException {
        jar("org.example", "thing", "1.2", Map.of("META-INF/LICENSE", "license\n"));
        Path dist = Files.createDirectories(tmp.resolve("modules/aii-native/target/dist/native"));
        Files.writeString(dist.resolve("libexample.so"), "a library\n");
        assertEquals(new Run(1, "", "aii: aii-native/target/dist/native holds libraries but "
                + "aii-native/target/dist/licenses no notice for them\n"), licenses(tmp.resolve("modules")));

        Path notice = Files.createDirectories(tmp.resolve("modules/aii-native/target/dist/licenses/example"));
        Files.writeString(notice.resolve("LICENSE"), "MIT\n");
        licenses(tmp.resolve("modules")).ok();
        assertEquals("MIT\n", Files.readString(tmp.resolve("out/licenses/example/LICENSE")));
        assertTrue(Files.readString(tmp.resolve("out/licenses/README"))
                .contains("\nexample/                 example\n                         from aii-native/target/dist/licenses\n"));
    }

    private static List<String> names(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
