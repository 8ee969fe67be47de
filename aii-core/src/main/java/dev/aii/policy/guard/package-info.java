/**
 * The guard tables: how each program aii knows reads its arguments, and
 * which of its argument forms write, run other programs, change the system,
 * wait forever, show environments or reach a device. Not exported;
 * {@link dev.aii.policy.guard.ArgumentGuards} is the policy's one way in.
 *
 * <p><b>Writing a table.</b> A program whose implementations read options
 * with getopt or getopt_long gets a {@link dev.aii.policy.guard.GetoptTable}
 * (see {@code DefaultTables} and {@code ToolTables}); others get a reader of
 * their own ({@code FindReader}, {@code PsReader}, {@code XxdReader},
 * {@code TarReader}, {@code GitReader}). A table is made of:
 * <ul>
 * <li><b>vocabulary</b>: per implementation (GNU, BSD/macOS, busybox, ...)
 *     its getopt string and long options, copied from its source, whether it
 *     permutes (reads options after operands), and whether it stops, having
 *     done nothing, on an option it does not know. Every implementation is
 *     read, and a form is guarded when any reading finds it. An option the
 *     table lacks asks: the table fails closed, so a missing option costs a
 *     prompt, never a hole;</li>
 * <li><b>guarded options</b>: {@code guard}, {@code guardSaying} and
 *     {@code guardWhen} (for a value that decides, {@code grep -D read}),
 *     each with its {@link dev.aii.policy.guard.Effect};</li>
 * <li><b>path values</b>: {@code paths} marks each option whose value the
 *     program opens, with how it reads it ({@link dev.aii.policy.guard.PathValue}):
 *     one path, a list and its separators ({@code file -m a:b}), or a path
 *     resolved from the top of the work tree (git's {@code grep -f}). Such a
 *     value must exist as written, and each of its paths is checked from every
 *     base the program may use. Every other value and operand is still looked
 *     at, when it names something;</li>
 * <li><b>operand forms</b>: {@code operands} with a rule for what operands do
 *     ({@code uniq IN OUT} writes OUT, a date operand sets the clock, a first
 *     word git may take for a subcommand it has no table for asks), and
 *     {@code recursiveWith} for the options that read below a directory;</li>
 * <li><b>subcommands</b>: a reader with subcommands (git) lists the ones it
 *     reads, each with its table; any other asks;</li>
 * <li><b>clusters read another way</b>: where a program reads arguments
 *     again another way when the first reading fails (procps reads a dashed
 *     cluster as BSD options), the table reads that way too, and unless the
 *     first reading cannot fail, both count.</li>
 * </ul>
 * A hit is noted at the argument that spells it, so that a hand-written rule
 * reaching past it waives it. Each table also gives its
 * {@link dev.aii.policy.guard.Vocabulary}, from which the tests build
 * commands: the syscall oracle traces what the policy would run unasked,
 * and every harmless form must run. docs/exec.md lists the tables as
 * GuardTablesDocTest generates them.
 */
package dev.aii.policy.guard;
