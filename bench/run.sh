#!/bin/sh
# aii's benchmarks: measurements, not tests (no pass or fail). Prints the
# machine and its load, then each figure next to the target it is held
# against, every ratio from commands run side by side in one hyperfine call;
# the results and the commands are in docs/benchmarks.md. Needs hyperfine
# (Debian package hyperfine) and GNU time (/usr/bin/time) for peak memory.
#
#   bench/run.sh            everything (about 15 minutes on 2 cores)
#   bench/run.sh PART       one part: startup | prompt | stdin | peers | drain | tool | firstbyte | llama | jmh
#
# It builds (tests skipped), installs into a temporary prefix with
# make install (so the two startup caches are the ones users get), and writes
# everything it prints to bench/target/results.txt as well. The peer line
# (Codex's native `codex --version` and `codex execpolicy check`) is fetched
# once with `npm pack` (no install scripts run) into ~/.cache/aii/bench when
# npm's registry is reachable, and left out otherwise.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$root"
part=${1:-all}
runs=${RUNS:-30}
jdk=$(bin/find-jdk)
java=$jdk/bin/java
mkdir -p bench/target
out=$root/bench/target/results.txt
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
make -s install-files PREFIX="$tmp/prefix" > /dev/null 2>&1
aii=$tmp/prefix/bin/aii
HOME_BEFORE=$HOME
export HOME="$tmp/home"
mkdir -p "$HOME"

# median in ms of one command from hyperfine's CSV (command,mean,stddev,median,user,system,min,max)
median_ms() { awk -F, -v n="$2" 'NR == n + 1 { printf "%.1f", $4 * 1000 }' "$1"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# The yardstick of every start-up row: Java's hello world with default flags, in the same hyperfine call.
mkdir -p "$tmp/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello world"); } }\n' \
  > "$tmp/hello/Hello.java"
"$jdk/bin/javac" -d "$tmp/hello" "$tmp/hello/Hello.java"
hello="$java -cp $tmp/hello Hello"

if want startup; then
  say ""
  say "## short commands and --check (hyperfine, $runs runs after 5 warm-ups, side by side; median wall time)"
  hyperfine -N -w 5 -r "$runs" --export-csv "$tmp/startup.csv" \
    "$hello" "$aii --help" "$aii --list-allowed" "$aii --version" "$aii --check ls -la" \
    "$aii --check git log -1 --output=/tmp/x" > "$tmp/startup.txt"
  AII_JAVA_OPTS=-XX:AOTMode=off hyperfine -N -w 3 -r 10 --export-csv "$tmp/nocache.csv" "$aii --help" > /dev/null
  h=$(median_ms "$tmp/startup.csv" 1)
  say "java Hello (default flags): $h ms"
  i=2
  for c in "--help" "--list-allowed" "--version" "--check ls -la" "--check git log -1 --output=/tmp/x"; do
    t=$(median_ms "$tmp/startup.csv" $i)
    case $c in --check*) goal=1.5 ;; *) goal=1.2 ;; esac
    say "aii $c: $t ms = $(ratio "$t" "$h")x hello world (target: <= ${goal}x)"
    i=$((i + 1))
  done
  say "aii --help without the startup cache (-XX:AOTMode=off): $(median_ms "$tmp/nocache.csv" 1) ms"
fi

# serve NAME MODE FD: a loopback model server (dev.aii.bench.Serve MODE) that answers at once, or with
# MODE "tool 400" or "text 400" 400 ms after each first request of a pair, fed on descriptor FD (6 to 9)
# until unserve; sets $url.
serve() {
  rm -f "$tmp/serve-$1.in" "$tmp/serve-$1.out"
  mkfifo "$tmp/serve-$1.in"
  # shellcheck disable=SC2086 # $2 is the mode and, for a model that thinks, its milliseconds
  "$java" -cp "$cp" dev.aii.bench.Serve $2 < "$tmp/serve-$1.in" > "$tmp/serve-$1.out" &
  eval "exec $3> \"\$tmp/serve-$1.in\""
  url=""
  for _ in $(seq 1 100); do
    url=$(head -n 1 "$tmp/serve-$1.out" 2>/dev/null || true)
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "bench: the model server did not start" >&2; exit 1; }
}
# unserve NAME FD: stops it, then prints what it received (requests and body bytes per path).
unserve() {
  eval "exec $2>&-"
  for _ in $(seq 1 100); do
    [ "$(wc -l < "$tmp/serve-$1.out")" -lt 2 ] || break
    sleep 0.1
  done
  sleep 0.2
  sed 1d "$tmp/serve-$1.out"
}

if want prompt; then
  say ""
  say "## the prompt path: a fresh aii to the end of the answer, against a loopback server that answers at once"
  say "(hyperfine, $runs runs after 5 warm-ups, side by side; median wall time)"
  serve text text 8
  text_url=$url
  AII_BASE_URL=$url hyperfine -N -w 5 -r "$runs" --export-csv "$tmp/prompt.csv" \
    "$hello" "$aii hi" "$aii --model fake-model hi" > /dev/null
  # -x against a server of its own: every odd request gets the call of pwd, every even one the answer.
  serve tool tool 9
  cd "$tmp"
  hyperfine -N -w 5 -r "$runs" --export-csv "$tmp/tool.csv" \
    "env AII_BASE_URL=$text_url $aii hi" "env AII_BASE_URL=$url $aii -x hi" > /dev/null
  # the same against a model that takes 400 ms before its first answer (a call of pwd, or Hello.)
  serve slowtool "tool 400" 7
  slowtool_url=$url
  serve slowtext "text 400" 6
  hyperfine -N -w 3 -r "$runs" --export-csv "$tmp/slowtool.csv" \
    "env AII_BASE_URL=$url $aii hi" "env AII_BASE_URL=$slowtool_url $aii -x hi" > /dev/null
  cd "$root"
  unserve slowtext 6 > /dev/null
  unserve slowtool 7 > /dev/null
  unserve tool 9 > /dev/null
  unserve text 8 > /dev/null
  h=$(median_ms "$tmp/prompt.csv" 1)
  t=$(median_ms "$tmp/prompt.csv" 2)
  say "java Hello: $h ms"
  say "aii hi: $t ms = $(ratio "$t" "$h")x hello world (target: <= 5x, stretch 3x)"
  m=$(median_ms "$tmp/prompt.csv" 3)
  say "aii --model fake-model hi: $m ms = $(ratio "$m" "$h")x hello world"
  one=$(median_ms "$tmp/tool.csv" 1)
  two=$(median_ms "$tmp/tool.csv" 2)
  say "aii -x hi, one auto-allowed call of pwd then the answer (two chat requests): $two ms; aii hi against the same server: $one ms"
  say "  difference: $(awk -v a="$two" -v b="$one" 'BEGIN { printf "%.1f", a - b }') ms for the first tool call of a fresh process and a second request (target: <= 15 ms over a warm call, see the tool part)"
  one=$(median_ms "$tmp/slowtool.csv" 1)
  two=$(median_ms "$tmp/slowtool.csv" 2)
  say "the same against a model that takes 400 ms to answer: aii -x hi $two ms, aii hi $one ms"
  say "  difference: $(awk -v a="$two" -v b="$one" 'BEGIN { printf "%.1f", a - b }') ms"
fi

if want stdin; then
  say ""
  say "## 10 MB of piped stdin (aii summarize < 10 MB file) against aii hi < /dev/null"
  head -c 10000000 /dev/urandom | base64 -w 76 | head -c 10000000 > "$tmp/ten-mb.txt"
  serve stdin text 8
  AII_BASE_URL=$url AII_CONTEXT_SIZE=100000000 hyperfine -w 2 -r 10 --export-csv "$tmp/stdin.csv" \
    "$aii hi < /dev/null" "$aii summarize < $tmp/ten-mb.txt" > /dev/null
  for f in /dev/null "$tmp/ten-mb.txt"; do
    AII_BASE_URL=$url AII_CONTEXT_SIZE=100000000 /usr/bin/time -f '%M' -o "$tmp/rss" "$aii" summarize < "$f" > /dev/null
    cat "$tmp/rss" >> "$tmp/stdin-rss.txt"
  done
  unserve stdin 8 > "$tmp/received.txt"
  base=$(median_ms "$tmp/stdin.csv" 1)
  big=$(median_ms "$tmp/stdin.csv" 2)
  say "aii hi < /dev/null: $base ms; aii summarize < 10 MB: $big ms (+$(awk -v a="$big" -v b="$base" 'BEGIN { printf "%.0f", a - b }') ms)"
  say "peak RSS: $(sed -n 1p "$tmp/stdin-rss.txt") KiB without input, $(sed -n 2p "$tmp/stdin-rss.txt") KiB with 10 MB = $(awk -v a="$(sed -n 2p "$tmp/stdin-rss.txt")" -v b="$(sed -n 1p "$tmp/stdin-rss.txt")" 'BEGIN { printf "%.1f", (a - b) / 9765.6 }')x the input over the baseline (target: <= 3x)"
  say "what the server received over all runs (each 10 MB request should appear once, under chat/completions only):"
  sed 's/^/  /' "$tmp/received.txt" | tee -a "$out"
fi

if want peers; then
  say ""
  say "## peers: Codex's native binary from npm's @openai/codex (hyperfine, side by side with aii)"
  codex_version=${CODEX_VERSION:-0.171.0}
  codex_dir=${XDG_CACHE_HOME:-$HOME_BEFORE/.cache}/aii/bench/codex-$codex_version
  codex=$codex_dir/package/vendor/x86_64-unknown-linux-musl/bin/codex
  if [ ! -x "$codex" ] && command -v npm > /dev/null; then
    mkdir -p "$codex_dir"
    ( cd "$codex_dir" && timeout 600 npm pack --silent "@openai/codex@$codex_version-linux-x64" > /dev/null 2>&1 \
        && tar -xzf "openai-codex-$codex_version-linux-x64.tgz" package/vendor/x86_64-unknown-linux-musl/bin/codex \
        && rm -f "openai-codex-$codex_version-linux-x64.tgz" ) || true
  fi
  if [ -x "$codex" ]; then
    printf 'prefix_rule(pattern=["ls"], decision="allow")\n' > "$tmp/rules.codexpolicy"
    hyperfine -N -w 5 -r "$runs" --export-csv "$tmp/peers.csv" \
      "$hello" "$codex --version" "$codex execpolicy check --rules $tmp/rules.codexpolicy ls -la" \
      "$aii --version" "$aii --check ls -la" > /dev/null 2>&1
    h=$(median_ms "$tmp/peers.csv" 1)
    i=2
    for c in "codex --version" "codex execpolicy check ls -la" "aii --version" "aii --check ls -la"; do
      t=$(median_ms "$tmp/peers.csv" $i)
      say "$c: $t ms = $(ratio "$t" "$h")x hello world"
      i=$((i + 1))
    done
  else
    say "(left out: @openai/codex@$codex_version could not be fetched with npm)"
  fi
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
  say ""
  say "## the first tool call of a fresh aii -x against its later ones (16 in one answer), timed on the wire by the model server"
  say "(target: the first <= 15 ms over a warm one; the model takes 400 ms to produce the first call, then 0)"
  "$java" -cp "$cp" dev.aii.bench.FirstToolCall "$aii" "$runs" 400 | tail -n 1 | tee -a "$out"
  say "(the same against a model that answers at once: the first call waits for the C library's binding)"
  "$java" -cp "$cp" dev.aii.bench.FirstToolCall "$aii" "$runs" 0 | tail -n 1 | tee -a "$out"
fi

if want firstbyte; then
  say ""
  say "## time aii adds between the server's first text byte and stdout (target: under 5 ms)"
  say "(the fake server sends with TCP_NODELAY, as Go servers such as Ollama do; without it the JDK HTTP server holds a small frame until the delayed ACK, about 40 ms, a server artefact)"
  "$java" -Dsun.net.httpserver.nodelay=true -cp "$cp" dev.aii.bench.FirstByte "$aii" 20 | tee -a "$out"
fi

# llama_server FILE CONTEXT: llama-server -m FILE on a free loopback port, one thread, one slot of CONTEXT
# tokens, as the real-server suite starts it; waits until it is ready and sets $server_url and $server_pid.
llama_server() {
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$llama_server_bin" -m "$1" --host 127.0.0.1 --port "$port" -t 1 -c "$2" -np 1 --jinja --no-webui \
    > "$tmp/llama-server-$port.log" 2>&1 &
  server_pid=$!
  server_url=http://127.0.0.1:$port/v1
  for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$port/health" > /dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "bench: llama-server did not start: $(tail -n 5 "$tmp/llama-server-$port.log")" >&2
  exit 1
}

if want llama; then
  say ""
  say "## llama.cpp in the process (--model-file) against llama-server -m, the same file, one thread each"
  say "(hyperfine, ${LLAMA_RUNS:-5} runs after 1 warm-up; median wall time; tokens/s from the difference of a long and a short answer)"
  # built once per machine into the real HOME's cache (15 to 30 minutes the first time), as the real-server suite does
  llama_server_bin=$(HOME=$HOME_BEFORE sh aii-llama/llama-server.sh)
  natives=$(ls -d aii-llamacpp/target/natives/*/ | head -n 1)
  natives=${natives%/}
  # make install-files installs the jars only: the installed aii finds the libraries the build left here.
  export AII_LLAMACPP_DIR="$root/$natives"
  include=aii-llamacpp/target/llamacpp/include
  template=aii-llamacpp/target/llamacpp/templates/Qwen-Qwen2.5-7B-Instruct.jinja
  models=$tmp/models
  "$java" -cp "$cp" dev.aii.bench.LlamaModels "$models" "$template"
  "$java" -cp "$cp" dev.aii.bench.RandomLlama "$models/random-f16.gguf" "$template"
  gcc -O1 -I"$include" -o "$tmp/quantize" bench/src/main/c/quantize.c -L"$natives" -l:"$(basename "$(ls "$natives"/libllama.v*.so)")" \
    -Wl,-rpath,"$root/$natives"
  "$tmp/quantize" "$models/random-f16.gguf" "$models/random-q4km.gguf" > "$tmp/quantize.log" 2>&1
  rm -f "$models/random-f16.gguf"
  lruns=${LLAMA_RUNS:-5}
  # served-once.sh FILE CONTEXT: what a one-shot costs with a server: start llama-server, wait until it is ready,
  # ask it once, stop it.
  cat > "$tmp/served-once.sh" <<SCRIPT
port=\$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$llama_server_bin" -m "\$1" --host 127.0.0.1 --port "\$port" -t 1 -c "\$2" -np 1 --jinja --no-webui > /dev/null 2>&1 &
until curl -sf "http://127.0.0.1:\$port/health" > /dev/null 2>&1; do sleep 0.05; done
AII_BASE_URL="http://127.0.0.1:\$port/v1" "$aii" go > /dev/null 2>&1
kill \$!
SCRIPT
  cd "$tmp"
  # row NAME SHORT_FILE SHORT_CONTEXT LONG_FILE LONG_CONTEXT TOKENS: TOKENS more tokens in the long answer than in
  # the short one; every aii run ends its answer at the model's end or at the context's.
  row() {
    for kind in short long; do
      if [ "$kind" = short ]; then file=$2; ctx=$3; else file=$4; ctx=$5; fi
      hyperfine -N -i -w 1 -r "$lruns" --export-csv "$tmp/llama-$1-$kind-in.csv" \
        "env AII_MODEL_FILE=$file AII_THREADS=1 AII_CONTEXT_SIZE=$ctx $aii go" > /dev/null
      llama_server "$file" "$ctx"
      hyperfine -N -i -w 1 -r "$lruns" --export-csv "$tmp/llama-$1-$kind-srv.csv" \
        "env AII_BASE_URL=$server_url $aii go" > /dev/null
      kill "$server_pid"; wait "$server_pid" 2> /dev/null || true
    done
    in_s=$(median_ms "$tmp/llama-$1-short-in.csv" 1); in_l=$(median_ms "$tmp/llama-$1-long-in.csv" 1)
    srv_s=$(median_ms "$tmp/llama-$1-short-srv.csv" 1); srv_l=$(median_ms "$tmp/llama-$1-long-srv.csv" 1)
    in_rate=$(awk -v t="$6" -v a="$in_l" -v b="$in_s" 'BEGIN { printf "%.1f", t * 1000 / (a - b) }')
    srv_rate=$(awk -v t="$6" -v a="$srv_l" -v b="$srv_s" 'BEGIN { printf "%.1f", t * 1000 / (a - b) }')
    say "$1: tokens/s in the process $in_rate, through llama-server $srv_rate = $(ratio "$in_rate" "$srv_rate")x (target: >= 0.95x)"
    # A fresh one-shot: aii from its start to the answer's end, against starting llama-server and asking it.
    hyperfine -N -i -w 1 -r "$lruns" --export-csv "$tmp/llama-$1-fresh.csv" \
      "env AII_MODEL_FILE=$4 AII_THREADS=1 AII_CONTEXT_SIZE=$5 $aii go" "sh $tmp/served-once.sh $4 $5" > /dev/null
    fresh_in=$(median_ms "$tmp/llama-$1-fresh.csv" 1); fresh_srv=$(median_ms "$tmp/llama-$1-fresh.csv" 2)
    say "$1: a fresh one-shot to the last token: $fresh_in ms in the process, $fresh_srv ms starting llama-server and asking it (target: below)"
    env AII_MODEL_FILE="$4" AII_THREADS=1 AII_CONTEXT_SIZE="$5" /usr/bin/time -f '%M' -o "$tmp/rss-in" "$aii" go > /dev/null 2>&1 || true
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    /usr/bin/time -f '%M' -o "$tmp/rss-srv" "$llama_server_bin" -m "$4" --host 127.0.0.1 --port "$port" -t 1 -c "$5" \
      -np 1 --jinja --no-webui > /dev/null 2>&1 &
    timed=$!
    until curl -sf "http://127.0.0.1:$port/health" > /dev/null 2>&1; do sleep 0.05; done
    AII_BASE_URL=http://127.0.0.1:$port/v1 "$aii" go > /dev/null 2>&1 || true
    pkill -P "$timed" 2> /dev/null || true
    wait "$timed" 2> /dev/null || true
    # GNU time writes "Command exited with non-zero status N" first when the answer ends in an error (a full context).
    rss_in=$(tail -n 1 "$tmp/rss-in"); rss_srv=$(tail -n 1 "$tmp/rss-srv")
    say "$1: peak RSS $rss_in KiB in the process, llama-server $rss_srv KiB: +$(awk -v a="$rss_in" -v b="$rss_srv" 'BEGIN { printf "%.0f", (a - b) / 1024 }') MiB (target: <= +60 MiB)"
  }
  row "tiny model (1 layer, F32)" "$models/tiny-lines-100.gguf" 4096 "$models/tiny-lines-1500.gguf" 4096 1400
  row "random 0.4B (24 layers, Q4_K_M)" "$models/random-q4km.gguf" 160 "$models/random-q4km.gguf" 288 128
  cd "$root"
fi

if want jmh; then
  say ""
  say "## JMH (policy target: under 2 us = 2000 ns per decision)"
  # One fork, 3 warm-up and 5 measured iterations of 1 s: about 6 minutes for every benchmark here.
  "$java" -cp "$cp" org.openjdk.jmh.Main -foe true -f 1 -wi 3 -i 5 -w 1s -r 1s \
    -jvmArgsAppend "--enable-native-access=ALL-UNNAMED" "${JMH_INCLUDE:-dev.aii.bench}" 2>&1 | sed -n '/^Benchmark /,$p' | tee -a "$out"
fi

say ""
say "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
