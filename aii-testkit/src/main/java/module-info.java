/** Test support shared by the modules' tests. */
module dev.aii.testkit {
    requires transitive dev.aii.core;
    requires transitive org.junit.jupiter.api;
    requires jdk.management;
    requires transitive com.fasterxml.jackson.databind;
    requires jdk.httpserver;

    exports dev.aii.testkit;
    exports dev.aii.testkit.gguf;
}
