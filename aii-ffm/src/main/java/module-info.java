/** Native access for aii through the Foreign Function and Memory API. */
module dev.aii.ffm {
    requires transitive dev.aii.core;
    requires com.fasterxml.jackson.core;

    exports dev.aii.ffm;
}
