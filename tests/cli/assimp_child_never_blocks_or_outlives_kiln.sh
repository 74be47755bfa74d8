# assimp runs in a child process (docs/fbx.md "The guarded child"). Two ways it used to stall:
# an OBJ whose mtllib names a FIFO blocked the child in open() until the parent's flat 60 s
# deadline killed it (twice per import: the dependency list, then the cook), and a kiln killed
# with -9 meanwhile left the child blocked forever, reparented to init. Now the child opens a file
# with O_NONBLOCK and reads only a regular one, dies with its parent (PR_SET_PDEATHSIG), and its
# deadline scales with the model's size (10 s + 1 s per MiB).
command -v pgrep >/dev/null 2>&1 || { echo "no pgrep" >&2; exit 77; }
mkdir -p assets/m assets/big
printf 'mtllib pipe.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n' >assets/m/tri.obj
mkfifo assets/m/pipe.mtl || { echo "cannot make a FIFO here" >&2; exit 77; }
start=$(date +%s)
k 0 import --all
took=$(($(date +%s) - start))
[ "$took" -lt 20 ] || fail "an OBJ whose .mtl is a FIFO took $took s to import"
expect_grep "1 assets: 1 imported, 0 cached, 0 failed" "$OUT" "the OBJ imports without its FIFO .mtl"
expect_grep '"pipe.mtl" (named by the model) not found' "$OUT" "the FIFO is not read"
rm assets/m/pipe.mtl assets/m/tri.obj

# A model assimp needs seconds for (20 MB of OBJ), named by a path no other process has in its
# command line: the forked child has kiln's. Kill kiln -9 while its child works; the child goes
# with it.
$PY - assets/big/kiln-orphan-check.obj <<'EOF'
import sys
n = 400000
with open(sys.argv[1], "w") as f:
    for i in range(n):
        f.write("v %d.%06d %d.5 0.25\n" % (i % 97, i, i % 89))
    for i in range(1, n - 1):
        f.write("f %d %d %d\n" % (i, i + 1, i + 2))
EOF
marker="$W/assets/big/kiln-orphan-check.obj"
"$KILN_EXE" import "$marker" >/dev/null 2>&1 &
kiln_pid=$!
child=
for _ in $(seq 1 200); do # up to 20 s for kiln to hash the file and fork
    child=$(pgrep -P "$kiln_pid" | head -1)
    [ -n "$child" ] && break
    sleep 0.1
done
[ -n "$child" ] || { kill -9 "$kiln_pid"; fail "kiln started no assimp child within 20 s"; }
kill -9 "$kiln_pid"
wait "$kiln_pid" 2>/dev/null
sleep 0.5
left=$(pgrep -f -- "$marker")
if [ -n "$left" ]; then
    # shellcheck disable=SC2086 # one pid per word
    kill -9 $left 2>/dev/null
    fail "assimp's child outlived kiln -9: $left"
fi
echo "no child left after kill -9"
