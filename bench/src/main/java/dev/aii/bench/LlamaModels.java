package dev.aii.bench;

import dev.aii.testkit.gguf.Models;
import dev.aii.testkit.gguf.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the tiny models of the in-process benchmark into a directory: the
 * real-server suite's model that streams distinct lines, once with 100 lines
 * and once with 1,500 (each line one token), so that the difference of the two
 * runs is the time of 1,400 tokens.
 *
 * <pre>java -cp ... dev.aii.bench.LlamaModels DIR TEMPLATE.jinja</pre>
 */
public final class LlamaModels {

    private LlamaModels() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Files.createDirectories(Path.of(args[0]));
        String template = Files.readString(Path.of(args[1]));
        for (int lines : new int[] {100, 1500}) {
            new TinyModel(Models.lines(lines)).write(dir.resolve("tiny-lines-" + lines + ".gguf"), template);
        }
    }
}
