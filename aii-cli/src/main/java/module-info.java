/** The aii command line. */
module dev.aii.cli {
    requires dev.aii.core;
    requires dev.aii.ffm;
    requires dev.aii.openai;
    requires dev.aii.llamacpp;
    requires info.picocli;
    requires org.jline.reader;
    requires org.jline.terminal;
    requires com.fasterxml.jackson.core;
    requires jdk.unsupported;
    requires java.logging;

    // picocli reflects on the command class, flags.Options; nothing is exported.
    opens dev.aii.cli.flags to info.picocli;
}
