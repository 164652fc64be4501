#!/usr/bin/env bash
# The 16-core figures of the scale-out and squares issues, in parts that each end within a
# 10-minute call on a lent 16-core machine (docs/cluster.md, "The 16-core check"). The machine has
# numpy, numba, pandas and rich but no solvers; the native searches need nothing more.
#
#   bash scripts/device_check.sh A|B|C [OUT]     # bench rows and the log go to OUT (default: $OUT or .)
#
#   A  16 threads: stones a(4), squares n = 24 and 26, percolation a(9), stones a(5), squares a(28..30)
#   B  1 thread:   stones a(4), squares n = 24 and 26, percolation a(9)   (the speed-ups' baselines)
#   C  16 threads: squares a(31..35), then the n = 8 stones hunt for what is left of 9 minutes
#   D  16 threads: a(39) (--bound 714), resumed from a journal copy in results/journals/a39 when one
#      is there (results/journals/README.md), else started; journaled into OUT/journals: copy that
#      journal back into the run's folder (runs/j39) and resume it there with the same command (its
#      rows, written on the device, are re-checked on a sample there). The key holds the squares
#      package's hash: `workbench journals` shows whether a copy is found, "0 of" if not.
set -u
part=${1:?part A, B, C or D}
out=${2:-${OUT:-.}}
mkdir -p "$out"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 WORKBENCH_JOURNALS=/tmp/wb-journals
py=${PYTHON:-python3}
began=$SECONDS
budget=${BUDGET:-540}    # seconds for the part, inside a 600-s call
left() { echo $((budget - (SECONDS - began))); }
bench() {   # bench THREADS LABEL [--n N ...]: stop a case that would run past the part's 9 minutes
    local threads=$1 label=$2
    shift 2
    [ "$(left)" -gt 10 ] || { echo "skipped (no time left): $label $*"; return; }
    timeout "$(left)" $py -m workbench bench --threads "$threads" --label "$label" "$@" -o "$out/bench.csv" \
        || echo "stopped or failed: $label $* (threads $threads)"
}
{
    nproc
    $py -c "import numba, numpy; print('numba', numba.__version__, 'numpy', numpy.__version__)"
    # compile the kernels once (numba caches them), so that no timed case pays for it
    $py -m workbench solve stones --n 2 --solver search --threads 2 --quiet >/dev/null
    $py -m workbench solve squares --n 12 --solver search --threads 2 --quiet >/dev/null
    $py -m workbench count percolation --n 5 --formulation transfer --threads 2 --quiet >/dev/null
    echo "warm-up done at $((SECONDS - began)) s"
    case $part in
    A)  bench 16 "scale-out: exact search a(4)"
        bench 16 "native exact search, whole run" --n 24
        bench 16 "scale-out: exact search, whole run" --n 26
        bench 16 "scale-out: transfer-matrix count a(9)"
        bench 16 "scale-out: exact search a(5)"
        bench 16 "scale-out: exact search, whole run" --n 28 --n 29 --n 30 ;;
    B)  bench 1 "scale-out: exact search a(4)"
        bench 1 "native exact search, whole run" --n 24
        bench 1 "scale-out: exact search, whole run" --n 26
        bench 1 "scale-out: transfer-matrix count a(9)" ;;
    C)  bench 16 "scale-out: exact search, whole run" --n 31 --n 32 --n 33 --n 34 --n 35
        [ "$(left)" -gt 60 ] && timeout "$(left)" $py -m workbench.puzzles.stones.hunt 8 \
            --time-limit "$(($(left) - 20))" --threads 16 --out "$out/stones-8.json" ;;
    D)  export WORKBENCH_JOURNALS=$out/journals
        proof() {   # proof N BOUND LOOKAHEAD FILE: a table row, or a journal to resume from
            local t=$(($(left) - 20))
            [ "$t" -gt 30 ] || { echo "skipped (no time left): n = $1"; return; }
            timeout $((t + 15)) $py -m workbench table squares --n "$1" --solver search --bound "$2" \
                --lookahead "$3" --threads 16 --time-limit "$t" --quiet -o "$out/$4" || echo "stopped: n = $1"
        }
        mkdir -p "$out/journals" && cp results/journals/a39/*.sqlite "$out/journals/" 2>/dev/null
        proof 39 714 0 squares-39.csv
        rm -f "$out"/journals/*.lock; $py -m workbench journals --dir "$out/journals" ;;
    *)  echo "part A, B, C or D"; exit 2 ;;
    esac
    echo "part $part done at $((SECONDS - began)) s"
} 2>&1 | tee "$out/device-$part.log"
