/**
 * The embeddable core of aii: the exec policy, the allow file, the
 * {@code run_command} tool and the backend-neutral model SPI.
 */
module dev.aii.core {
    requires com.fasterxml.jackson.core;
    // The user id, to tell whether the allow file belongs to this user.
    requires jdk.security.auth;

    exports dev.aii.policy;
    exports dev.aii.config;
    exports dev.aii.exec;
    exports dev.aii.model;
    // The /proc reader both runners share; not API.
    exports dev.aii.procfs to dev.aii.ffm;
}
