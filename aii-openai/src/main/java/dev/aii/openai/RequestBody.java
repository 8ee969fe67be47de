package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A request's JSON body, encoded onto the connection as it is written and
 * never held whole as bytes: a 10 MB prompt is in memory once, as the text
 * of its tree. The length the head announces is counted from the text the
 * library writes; the bytes sent are those of {@link Json#writeBytes}.
 */
final class RequestBody {

    private final JsonNode json;
    private long length = -1;

    RequestBody(JsonNode json) {
        this.json = json;
    }

    /** The number of bytes {@link #writeTo} writes. */
    long length() {
        if (length < 0) {
            length = Json.utf8Length(json);
        }
        return length;
    }

    /** Writes the body onto {@code out}, flushed. */
    void writeTo(OutputStream out) throws IOException {
        Json.writeTo(json, out);
    }
}
