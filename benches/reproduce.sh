#!/usr/bin/env bash
# Every command whose output BENCHMARKS.md quotes, in the document's order, each output saved to
# OUT/NAME.txt with the time and the load average before and after it (BENCHMARKS.md says which
# file each section's figures came from). Needs a release build of the package
# (`maturin develop --release`), the peers (`pip install ".[compare]"`) and valgrind; about an
# hour on the 2-core machine. `ONLY="analysis peers"` runs only the named steps.
#
#     bash benches/reproduce.sh /tmp/bench-run
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benches/reproduce.sh OUT_DIR}
mkdir -p "$out"

load() { cut -d' ' -f1-3 /proc/loadavg; }

# step NAME COMMAND...: run COMMAND, its output (and stderr) to OUT/NAME.txt.
step() {
    local name=$1
    shift
    if [[ -n "${ONLY:-}" && " $ONLY " != *" $name "* ]]; then
        return
    fi
    echo "$name: $*" >&2
    {
        echo "\$ $*"
        echo "# $(date -u +%FT%TZ), load average $(load)"
        "$@" 2>&1
        echo "# $(date -u +%FT%TZ), load average $(load)"
    } >"$out/$name.txt"
}

# callgrind ARGS...: the instruction count of one run of `python ARGS` (OpenBLAS on one thread:
# numpy's idle OpenBLAS threads spin, and callgrind would count them).
callgrind() {
    OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null python "$@" 2>&1 | grep -E "Collected|^[0-9]+$" || true
}

step guard python benches/test_speed_guard.py
step analysis cargo bench -p xueliu-core --bench analysis
step score cargo bench -p xueliu-core --bench score
step game cargo bench -p xueliu-core --bench game
step env cargo bench -p xueliu-core --bench env
step bots cargo bench -p xueliu-core --bench bots
step ismcts cargo bench -p xueliu-core --bench ismcts
step python python -m pytest benches/test_bench_analysis.py benches/test_bench_game.py \
    benches/test_bench_bots.py benches/test_bench_env.py --benchmark-enable
step vecenv python benches/test_bench_env.py
step hot_paths python benches/hot_paths.py main
step peer_calls python benches/peer_calls.py
step peers python benches/compare.py
step server_core python benches/server_load.py core --tables 10 --hands 8
step server_instructions bash -c "$(declare -f callgrind); for h in 1 4; do callgrind benches/server_instructions.py 2 \$h; done"
step arena taskset -c 1 python benches/arena.py
step arena_instructions bash -c "$(declare -f callgrind); for m in process in-process; do for h in 2 12; do echo \$m \$h; callgrind benches/arena_instructions.py \$m \$h; done; done"
