package dev.aii.cli;

/** The {@code aii} program. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.out.print("aii " + dev.aii.policy.Builtins.VERSION + "\n");
    }
}
