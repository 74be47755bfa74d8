# libkiln_rt's krt_mount_cache given a project folder (or kiln's output folder) instead of the
# cache in it says which folder to mount (E_USAGE), instead of mounting 0 artifacts; the cache
# itself mounts. Run through kiln-rt-example; skipped when it was not built.
if [ ! -x "${KILN_RT_EXAMPLE:-}" ]; then
    echo "no kiln-rt-example at '${KILN_RT_EXAMPLE:-}'" >&2
    exit 77
fi
rt() {
    want=$1
    shift
    "$KILN_RT_EXAMPLE" "$@" >"$OUT" 2>"$ERR"
    got=$?
    printf '$ kiln-rt-example %s [exit %s]\n' "$*" "$got" | norm
    [ "$got" = "$want" ] || { cat "$ERR" >&2; fail "kiln-rt-example $*: exit $got, expected $want"; }
}
mkpng assets/a.png 8 8 1
k 0 import --all
rt 2 "$W" 'a.png#texture'
show_err
rt 2 "$W/.kiln" 'a.png#texture'
show_err
rt 2 "$W/assets" 'a.png#texture'
show_err
rt 0 "$W/.kiln/cache" 'a.png#texture'
show
