# Every subcommand answers --help and -h with its usage and options on stdout, exit 0 (import
# --help was "unknown option", exit 2); the commands whose assets read settings add one line per
# settings group with its fields and point at `kiln help settings`; `kiln help COMMAND` is the
# same text. The options after --help are not judged, and nothing is opened or written.
for cmd in import reimport report meta inspect texture model gltf pack graph cache watch; do
    k 0 "$cmd" --help
    expect_grep "^usage: kiln $cmd" "$OUT" "$cmd --help: usage"
    expect_grep "^  -h, --help" "$OUT" "$cmd --help: the common options"
    [ -s "$ERR" ] && fail "$cmd --help wrote on stderr"
    k 0 "$cmd" -h --no-such-option
    expect_grep "^usage: kiln $cmd" "$OUT" "$cmd -h: usage"
done
[ -e .kiln ] && fail "--help opened the project"
k 0 import --help
show
k 0 texture --help
expect_grep "kiln help settings" "$OUT" "texture --help points at help settings"
expect_grep "^  texture  format srgb mipmaps normal_map flip_green max_size quality supercompression shape ibl$" "$OUT" \
    "texture --help lists the texture fields"
expect_grep "^           cube_layout basis_quality uastc_rdo$" "$OUT" "the texture fields wrap under their group"
expect_no_grep "^  model " "$OUT" "texture --help lists no model fields"
k 0 model --help
expect_grep "^  model    lods lod_error" "$OUT" "model --help lists the model fields"
expect_grep "^  fbx      scale up_axis skins animations animation_fps$" "$OUT" "model --help lists the fbx fields"
k 0 cache --help
expect_no_grep "kiln help settings" "$OUT" "cache gc reads no settings"
k 0 help reimport
show
k 2 help frobnicate
show_err
# An unknown command with --json: the error document (docs/cli.md "Errors"), no usage.
k 2 frobnicate --json
expect_eq "$(j "(d['command'], d['error']['code'], d['error']['message'])")" \
    '["frobnicate", "E_USAGE", "unknown command '"'"'frobnicate'"'"'"]' "unknown command document"
expect_no_grep "usage" "$ERR" "no usage with --json"
