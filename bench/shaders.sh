#!/bin/sh
# bench/shaders.sh — the shader benchmarks of issue 19 (docs/performance.md, "Shaders"):
#  1. bench_shader_cook: the import cook of each tests/shaders shader per shader and per variant,
#     its stages, the dependency listing, and glslc + spirv-val side by side;
#  2. the corpus ($KILN_BENCH_SHADER_CORPUS, default <repo>/../shared/corpus/shaders) imported as
#     one kiln project by the command: `kiln import --all -j 1`, then `-j 2` (each into an empty
#     cache), then a no-op import (everything cached), wall time of the whole command; with
#     KILN_BENCH_SHADER_OLD, the same by another build, alternately;
#  3. the start-up of the `kiln` command (`kiln --version`, perf stat) against `glslc --version`
#     and, with KILN_BENCH_KILN_BEFORE=PATH, a kiln built before shaders (main at d1f3b84, the
#     parent of the commit that linked shaderc, glslang, SPIRV-Tools and SPIRV-Cross), and what
#     the dynamic loader says (LD_DEBUG=statistics) and the constructors (.init_array) each has.
# Numbers are printed, never asserted.
#
#   sh bench/shaders.sh [BUILD_DIR]          (default: build)
#   KILN_BENCH_RUNS=N               runs per figure of 1 and 3 (default 5)
#   KILN_BENCH_SHADER_IMPORT_RUNS=N runs of each corpus import (default 1: -j 1 takes minutes)
#   KILN_BENCH_SHADER_KEEP=DIR      keep the imports' --json documents there
#   KILN_BENCH_KILN_BEFORE=PATH     another kiln command to time the start-up of
#   KILN_BENCH_SHADER_OLD=PATH      another kiln command (a build before a change) whose corpus
#                                   imports are timed too, alternating run by run with this
#                                   build's, into its own cache; the new/old ratio is printed
set -eu

build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${KILN_BENCH_RUNS:-5}
import_runs=${KILN_BENCH_SHADER_IMPORT_RUNS:-1}
corpus=${KILN_BENCH_SHADER_CORPUS:-$here/../shared/corpus/shaders}
kiln=$build/tools/kiln/kiln
case $kiln in /*) ;; *) kiln=$(pwd)/$kiln ;; esac

# 1. per shader and per variant
if [ -x "$build/bench/bench_shader_cook" ]; then
    "$build/bench/bench_shader_cook" --runs "$runs"
    echo
else
    echo "shaders.sh: $build/bench/bench_shader_cook is not built; skipped" >&2
fi

now() { date +%s.%N; }
# median of the numbers on stdin
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
tmp_startup=$(mktemp /tmp/kiln-bench-startup-XXXXXX)

# 2. the corpus as a project
if [ ! -d "$corpus/glsl" ]; then
    echo "shaders.sh: no shader corpus at $corpus (set KILN_BENCH_SHADER_CORPUS); skipped" >&2
else
    tmp=$(mktemp -d /tmp/kiln-bench-shaders-XXXXXX)
    trap 'rm -rf "$tmp" "$tmp_startup"' EXIT
    mkdir -p "$tmp/assets"
    cp -r "$corpus/glsl" "$corpus/hlsl" "$tmp/assets/"
    chmod -R u+w "$tmp/assets"
    # The HLSL sources are named .vert/.frag/...: the folder says their language. Vulkan 1.2 for
    # every shader (ray tracing and mesh shaders need SPIR-V 1.4); the upstream sources have
    # warnings, which stay warnings here. Everything else is the import's default (optimisation
    # performance).
    printf '{"shader": {"target": "vulkan1.2", "warnings_as_errors": false}}\n' > "$tmp/assets/glsl/folder.meta"
    printf '{"shader": {"language": "hlsl", "target": "vulkan1.2", "warnings_as_errors": false}}\n' > "$tmp/assets/hlsl/folder.meta"
    find "$tmp/assets" -exec touch -d '1 minute ago' {} +
    old=${KILN_BENCH_SHADER_OLD:-}
    case $old in '' | /*) ;; *) old=$(pwd)/$old ;; esac
    # import KILN OUT JOBS LOG: the wall time and the CPU time (user + system, of the command and
    # its threads; "-" without GNU time) in seconds. On a shared machine the wall time moves with
    # the other jobs and the disk; the CPU time is the steadier figure.
    import() {
        t0=$(now)
        if [ -x /usr/bin/time ]; then
            (cd "$tmp" && /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$1" import --all -j "$3" --root assets --out "$2" --json > "$4" 2>/dev/null) || true
        else
            (cd "$tmp" && "$1" import --all -j "$3" --root assets --out "$2" --json > "$4" 2>/dev/null) || true
        fi
        t1=$(now)
        cpu=-
        [ -x /usr/bin/time ] && cpu=$(tail -n 1 "$tmp/cpu" | awk '{print $1 + $2}')
        echo "$(echo "$t1 - $t0" | bc) $cpu"
    }
    statuses() { # statuses LOG: how many records of each status ("imported 442, failed 45")
        python3 -c 'import json,sys,collections
d=json.load(open(sys.argv[1]))
c=collections.Counter(r.get("status") for r in d.get("records",[]))
print(", ".join("%s %d" % (k, c[k]) for k in sorted(c)))' "$1" 2>/dev/null || echo "?"
    }
    # measure NAME RUNS JOBS EMPTY: RUNS imports by this build (and the old one, alternately),
    # each into an empty cache when EMPTY is 1; prints the medians
    measure() {
        : > "$tmp/times-new"
        : > "$tmp/times-old"
        r=0
        while [ $r -lt "$2" ]; do
            [ "$4" = 1 ] && rm -rf "$tmp/.kiln" "$tmp/.kiln-old"
            import "$kiln" .kiln "$3" "$tmp/log-$1.json" >> "$tmp/times-new"
            [ -n "$old" ] && import "$old" .kiln-old "$3" "$tmp/log-old-$1.json" >> "$tmp/times-old"
            r=$((r + 1))
        done
        new_t=$(cut -d' ' -f1 "$tmp/times-new" | median)
        new_c=$(cut -d' ' -f2 "$tmp/times-new" | median)
        line=$(printf '%8.3f s (cpu %s s)' "$new_t" "$new_c")
        if [ -n "$old" ]; then
            old_t=$(cut -d' ' -f1 "$tmp/times-old" | median)
            old_c=$(cut -d' ' -f2 "$tmp/times-old" | median)
            line="$line   old $(printf '%8.3f s (cpu %s s)' "$old_t" "$old_c")   new/old $(echo "$new_t / $old_t" | bc -l | xargs printf '%.3f')"
        fi
        echo "$line   $(statuses "$tmp/log-$1.json")"
    }
    shaders=$(find "$tmp/assets" -type f \( -name '*.vert' -o -name '*.frag' -o -name '*.comp' \
        -o -name '*.geom' -o -name '*.tesc' -o -name '*.tese' -o -name '*.mesh' -o -name '*.task' \
        -o -name '*.rgen' -o -name '*.rchit' -o -name '*.rmiss' -o -name '*.rahit' -o -name '*.rint' \
        -o -name '*.rcall' \) | wc -l)
    echo "corpus import: $shaders shader sources of $corpus as one project; $import_runs run(s) each (median wall time, s; median CPU time)"
    [ -n "$old" ] && echo "  (old: $old, run alternately with this build, into .kiln-old)"
    for j in 1 2; do
        printf '  kiln import --all -j %s (empty cache)  %s\n' "$j" "$(measure "$j" "$import_runs" "$j" 1)"
    done
    printf '  kiln import --all -j 2 (no-op)         %s\n' "$(measure noop "$runs" 2 0)"
    # A failed shader's failure is recorded under its key (docs/cache.md): the no-op above reports
    # them without compiling. Without the sources that failed, the no-op of what compiles:
    python3 -c 'import json,sys,os
d=json.load(open(sys.argv[1]))
for r in d.get("records",[]):
    if r.get("status")=="failed": os.remove(os.path.join(sys.argv[2], r["path"]))' "$tmp/log-2.json" "$tmp/assets"
    import "$kiln" .kiln 2 "$tmp/log-warm.json" > /dev/null
    [ -n "$old" ] && import "$old" .kiln-old 2 "$tmp/log-old-warm.json" > /dev/null
    printf '  the same without the failed sources    %s\n' "$(measure noop2 "$runs" 2 0)"
    # what failed, by first words of the error (KILN_BENCH_SHADER_KEEP=DIR keeps the logs)
    python3 -c 'import json,sys,collections
d=json.load(open(sys.argv[1]))
f=[r for r in d.get("records",[]) if r.get("status")=="failed"]
c=collections.Counter((r.get("error") or {}).get("code","?") if isinstance(r.get("error"),dict) else str(r.get("code","?")) for r in f)
print("  failed by code: " + (", ".join("%s %d" % (k, c[k]) for k in sorted(c)) or "none"))' "$tmp/log-2.json" 2>/dev/null || true
    if [ -n "${KILN_BENCH_SHADER_KEEP:-}" ]; then mkdir -p "$KILN_BENCH_SHADER_KEEP" && cp "$tmp"/log-*.json "$KILN_BENCH_SHADER_KEEP/"; fi
    echo
fi

# 3. start-up: `kiln --version` (the cheapest command), interleaved with glslc's and, when
# KILN_BENCH_KILN_BEFORE names one, a kiln built before shaders (tools/kiln without shaderc,
# glslang, SPIRV-Tools and SPIRV-Cross linked), KILN_BENCH_RUNS rounds of 50 starts each
echo "start-up ($runs rounds of perf stat -r 50, median of the rounds' mean wall and task-clock):"
if command -v perf >/dev/null 2>&1; then
    set -- "$kiln"
    [ -n "${KILN_BENCH_KILN_BEFORE:-}" ] && set -- "$@" "$KILN_BENCH_KILN_BEFORE"
    command -v glslc >/dev/null 2>&1 && set -- "$@" "$(command -v glslc)"
    r=0
    : > "$tmp_startup"
    while [ $r -lt "$runs" ]; do
        n=0
        for b in "$@"; do
            n=$((n + 1))
            perf stat -r 50 -x, -e task-clock,duration_time,page-faults "$b" --version 2>&1 >/dev/null |
                awk -F, -v n=$n '/task-clock/ {print n, "cpu", $1} /duration_time/ {print n, "wall", $1 / 1e6}
                    /page-faults/ {print n, "faults", $1}' >> "$tmp_startup"
        done
        r=$((r + 1))
    done
    n=0
    for b in "$@"; do
        n=$((n + 1))
        wall=$(awk -v n=$n '$1 == n && $2 == "wall" {print $3}' "$tmp_startup" | median)
        cpu=$(awk -v n=$n '$1 == n && $2 == "cpu" {print $3}' "$tmp_startup" | median)
        faults=$(awk -v n=$n '$1 == n && $2 == "faults" {print $3}' "$tmp_startup" | median)
        init=$(readelf -SW "$b" | awk '$2 == ".init_array" {print $6}')
        printf '  %-44s wall %6.2f ms  task-clock %6.2f ms  %4d page faults  %2d shared libs  %3d constructors  %5.1f MB\n' \
            "$b --version" "${wall:-0}" "${cpu:-0}" "${faults:-0}" "$(ldd "$b" | wc -l)" "$((0x${init:-0} / 8))" \
            "$(echo "$(stat -c %s "$b") / 1048576" | bc -l)"
        LD_DEBUG=statistics "$b" --version 2>&1 >/dev/null |
            sed -n 's/^ *[0-9]*: *//p' | grep -E 'total startup time|number of relocations:' |
            sed 's/^ */      ld.so: /'
    done
else
    echo "  perf is not installed: skipped"
fi
