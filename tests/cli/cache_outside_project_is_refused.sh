# A --cache outside the project folder and the output folder is refused with E_OUTPUT_REFUSED
# (exit 2) before anything is written, by every command that opens the project.
mkpng assets/a.png 4 4 1
elsewhere=$KILN_CLI_TMP/elsewhere
# shellcheck disable=SC2086 # $cmd is a subcommand and its arguments
for cmd in "import --all" "report" "meta" "cache gc" "reimport assets/a.png"; do
    k 2 $cmd --cache "$elsewhere"
    expect_grep E_OUTPUT_REFUSED "$ERR" "$cmd, stderr"
    k 2 $cmd --cache "$elsewhere" --json
    expect_eq "$(j "d['error']['code']")" E_OUTPUT_REFUSED "$cmd --json"
done
k 2 import --all --cache ../elsewhere --json
show
k 2 import --all --cache .kiln/../../elsewhere --json
[ ! -e "$elsewhere" ] || fail "a refused command created $elsewhere"
[ ! -e .kiln ] || fail "a refused command created .kiln"
[ ! -e assets/a.png.meta ] || fail "a refused command wrote a .meta"
# Inside the project or the output folder is fine.
k 0 import --all --cache cache2 --json
[ -d cache2/objects ] || fail "--cache inside the project was not used"
k 0 import --all --out "$KILN_CLI_TMP/out" --cache "$KILN_CLI_TMP/out/c" --json
[ -d "$KILN_CLI_TMP/out/c/objects" ] || fail "--cache inside --out was not used"
