#!/bin/sh
# aii's benchmarks: measurements, not tests (no pass or fail). Prints the
# machine, then each figure with the target it is held against; the results
# and the commands are in docs/benchmarks.md. Needs hyperfine (Debian package
# hyperfine) and GNU time (/usr/bin/time) for peak memory.
#
#   bench/run.sh            everything (about 10 minutes on 2 cores)
#   bench/run.sh startup    one part: startup | drain | tool | firstbyte | jmh
#
# It builds (tests skipped), installs into a temporary prefix with
# make install-files (so the startup cache is the one users get), and writes
# everything it prints to bench/target/results.txt as well.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$root"
part=${1:-all}
runs=${RUNS:-30}
jdk=$(bin/find-jdk)
java=$jdk/bin/java
mkdir -p bench/target
out=bench/target/results.txt
: > "$out"
say() { printf '%s\n' "$*" | tee -a "$out"; }
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }

command -v hyperfine > /dev/null || { echo "bench: hyperfine is needed (apt-get install hyperfine)" >&2; exit 1; }

say "## machine"
say "date: $(date -u +%Y-%m-%dT%H:%MZ)"
say "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1), $(nproc) cores"
say "memory: $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)"
say "os: $(uname -sr)"
say "java: $("$java" -version 2>&1 | sed -n 2p)"
say "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

./mvnw -B -q -DskipTests package
./mvnw -B -q -Pbench -pl bench -am -DskipTests package
cp="$root/bench/target/classes:$(cat bench/target/classpath.txt)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aii-bench.XXXXXX")
trap 'make -s uninstall PREFIX="$tmp/prefix" > /dev/null 2>&1; rm -rf "$tmp"' EXIT
make -s install-files PREFIX="$tmp/prefix" > /dev/null
aii=$tmp/prefix/bin/aii
export HOME="$tmp/home"
mkdir -p "$HOME"

# median in ms of one command from hyperfine's CSV (command,mean,stddev,median,user,system,min,max)
median_ms() { awk -F, -v n="$2" 'NR == n + 1 { printf "%.1f", $4 * 1000 }' "$1"; }

if want startup; then
  say ""
  say "## startup (hyperfine, $runs runs after 5 warm-ups; median wall time)"
  mkdir -p "$tmp/hello"
  printf 'public class Hello { public static void main(String[] a) { System.out.println("hello world"); } }\n' \
    > "$tmp/hello/Hello.java"
  "$jdk/bin/javac" -d "$tmp/hello" "$tmp/hello/Hello.java"
  hyperfine -N -w 5 -r "$runs" --export-csv "$tmp/startup.csv" \
    "$java -cp $tmp/hello Hello" \
    "$java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData -cp $tmp/hello Hello" \
    "$aii --help" "$aii --list-allowed" "$aii --version" > "$tmp/startup.txt"
  AII_JAVA_OPTS=-XX:AOTMode=off hyperfine -N -w 3 -r 10 --export-csv "$tmp/nocache.csv" "$aii --help" > /dev/null
  hello=$(median_ms "$tmp/startup.csv" 1)
  tuned=$(median_ms "$tmp/startup.csv" 2)
  say "java Hello (default flags):              $hello ms"
  say "java Hello (the launcher's JVM flags):   $tuned ms"
  i=3
  for c in --help --list-allowed --version; do
    t=$(median_ms "$tmp/startup.csv" $i)
    say "aii $c: $t ms = $(awk -v a="$t" -v b="$hello" 'BEGIN { printf "%.2f", a / b }')x hello world, $(awk -v a="$t" -v b="$tuned" 'BEGIN { printf "%.2f", a / b }')x tuned hello world (target: within 2x)"
    i=$((i + 1))
  done
  say "aii --help without the startup cache (-XX:AOTMode=off): $(median_ms "$tmp/nocache.csv" 1) ms"
fi

if want drain; then
  say ""
  say "## runner draining 1 GiB of child output (target: >= 80% of a plain pipe, peak RSS flat)"
  say "(5 runs of each, interleaved; medians. The runner's time is measured inside its JVM, around run().)"
  gib=1073741824
  : > "$tmp/pipe.txt"
  : > "$tmp/posix.txt"
  : > "$tmp/portable.txt"
  for round in 1 2 3 4 5; do
    hyperfine -N -r 1 --export-csv "$tmp/pipe.csv" \
      "sh -c 'head -c $gib /dev/zero | cat > /dev/null'" > /dev/null 2>&1
    awk -F, 'NR == 2 { printf "%.0f\n", 1024 / $4 }' "$tmp/pipe.csv" >> "$tmp/pipe.txt"
    for runner in posix portable; do
      /usr/bin/time -f '%M' -o "$tmp/rss" "$java" -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED \
        -cp "$cp" dev.aii.bench.Drain "$runner" "$gib" > "$tmp/drain"
      echo "$(awk '{ print $6 }' "$tmp/drain") $(cat "$tmp/rss")" >> "$tmp/$runner.txt"
    done
  done
  median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  pipe_rate=$(median < "$tmp/pipe.txt")
  say "plain pipe, sh -c 'head -c $gib /dev/zero | cat > /dev/null': median $pipe_rate MiB/s (runs: $(tr '\n' ' ' < "$tmp/pipe.txt"))"
  for runner in posix portable; do
    /usr/bin/time -f '%M' -o "$tmp/rss" "$java" -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED \
      -cp "$cp" dev.aii.bench.Drain "$runner" 1048576 > /dev/null
    rate=$(awk '{ print $1 }' "$tmp/$runner.txt" | median)
    say "$runner runner: median $rate MiB/s = $(awk -v r="$rate" -v p="$pipe_rate" 'BEGIN { printf "%.0f", 100 * r / p }')% of the pipe (runs: $(awk '{ printf "%s ", $1 }' "$tmp/$runner.txt")); peak RSS draining 1 GiB: $(awk '{ print $2 }' "$tmp/$runner.txt" | sort -n | tail -n 1) KiB, draining 1 MiB: $(cat "$tmp/rss") KiB"
  done
fi

if want tool; then
  say ""
  say "## one auto-allowed tool call (pwd) against spawning it directly (in one JVM, after warm-up)"
  "$java" -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -cp "$cp" dev.aii.bench.ToolCall 500 | tee -a "$out"
fi

if want firstbyte; then
  say ""
  say "## time aii adds between the server's first text byte and stdout (target: under 5 ms)"
  say "(the fake server sends with TCP_NODELAY, as Go servers such as Ollama do; without it the JDK HTTP server holds a small frame until the delayed ACK, about 40 ms, a server artefact)"
  "$java" -Dsun.net.httpserver.nodelay=true -cp "$cp" dev.aii.bench.FirstByte "$aii" 20 | tee -a "$out"
fi

if want jmh; then
  say ""
  say "## JMH (policy target: under 2 us = 2000 ns per decision)"
  "$java" -cp "$cp" org.openjdk.jmh.Main -foe true -jvmArgsAppend "--enable-native-access=ALL-UNNAMED" \
    dev.aii.bench 2>&1 | sed -n '/^Benchmark /,$p' | tee -a "$out"
fi

say ""
say "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
