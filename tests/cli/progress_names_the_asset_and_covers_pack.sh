# On a terminal the progress bar names the asset being worked on ("[###] 3/3 importing b.png"),
# and pack draws one over its compression ("compressing a.png#texture"); before, the bar said
# only "importing" and pack had none. A terminal comes from script(1) (util-linux); skipped
# without it. Without a terminal, or with --json or -q, nothing is drawn (as before).
command -v script >/dev/null 2>&1 || { echo "no script(1)" >&2; exit 77; }
mkpng assets/a.png 64 64 1
mkpng assets/b.png 64 64 2
mkpng assets/c.png 64 64 3
on_a_tty() { # on_a_tty ARGS...: kiln ARGS on a pseudo-terminal; its screen into $OUT
    cmd="'$KILN_EXE'"
    for a in "$@"; do cmd="$cmd '$a'"; done
    script -qec "$cmd" /dev/null >"$OUT" 2>&1 </dev/null || fail "kiln $* on a terminal"
    printf '$ kiln %s (on a terminal)\n' "$*"
}
on_a_tty import --all
tr '\r' '\n' <"$OUT" >"$KILN_CLI_TMP/screen"
expect_grep '^\[#*\] 3/3 importing [abc]\.png' "$KILN_CLI_TMP/screen" "the bar names the asset"
on_a_tty pack --all --compress zstd
tr '\r' '\n' <"$OUT" >"$KILN_CLI_TMP/screen"
expect_grep '^\[#*\] 3/3 compressing [abc]\.png#texture' "$KILN_CLI_TMP/screen" "pack's compression has a bar"
# Not on a terminal: no bar at all.
k 0 pack --all --compress zstd
expect_no_grep 'compressing' "$ERR" "no bar without a terminal"
