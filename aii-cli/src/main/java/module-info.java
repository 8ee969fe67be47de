/** The aii command line. */
module dev.aii.cli {
    requires dev.aii.core;
    requires dev.aii.ffm;
    requires dev.aii.openai;
    requires info.picocli;

    opens dev.aii.cli to info.picocli;
}
