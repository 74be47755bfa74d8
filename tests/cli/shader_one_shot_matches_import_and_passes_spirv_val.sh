# kiln shader (issue 19, item 9): one shader compiled without a project through the import's
# code. For every test shader, with its .meta's settings passed as --settings: the .kshader is
# byte for byte the cooked file an import of the same source makes (in another folder and
# process), and every variant written as .spv passes spirv-val (the SPIRV-Tools command, an
# independent check) for the shader's target. Also the shorthands (--stage, --entry, --define,
# --include-dir), and the refusals: an unknown variant, an .spv of several variants without
# --variant, a source outside --root, a missing include naming its line.
command -v spirv-val >/dev/null 2>&1 || { echo "no spirv-val" >&2; exit 77; }
cp -R "$KILN_SOURCE_DIR/tests/shaders" assets/shaders
rm -rf assets/shaders/broken assets/shaders/CMakeLists.txt assets/shaders/check_reference.sh
printf '{"shader": {"include_dirs": ["shaders/include"]}}\n' >assets/shaders/folder.meta
k 0 import --all --json
cp "$OUT" "$KILN_CLI_TMP/import.json"
mkdir -p "$KILN_CLI_TMP/one"
checked=0
for src in assets/shaders/*.vert assets/shaders/*.frag assets/shaders/*.comp assets/shaders/*.mesh \
    assets/shaders/*.hlsl; do
    rel=${src#assets/}
    base=$(basename "$src")
    settings=$($PY - "$src" <<'PY'
import json, os, sys
meta = sys.argv[1] + ".meta"
s = json.load(open(meta))["import"] if os.path.exists(meta) else {}
s.setdefault("shader", {})["include_dirs"] = ["shaders/include"]
print(json.dumps(s))
PY
)
    k 0 shader "$src" "$KILN_CLI_TMP/one/$base.kshader" --root assets --settings "$settings" --json
    cp "$OUT" "$KILN_CLI_TMP/one.json"
    $PY - "$KILN_CLI_TMP/import.json" "$rel" "$KILN_CLI_TMP/one/$base.kshader" <<'PY' || fail "$rel: kiln shader differs from the import"
import hashlib, json, sys
rec = [r for r in json.load(open(sys.argv[1]))["records"] if r["path"] == sys.argv[2]][0]
want = [o["sha256"] for o in rec["outputs"] if o["label"] == "shader"][0]
got = hashlib.sha256(open(sys.argv[3], "rb").read()).hexdigest()
sys.exit(0 if got == want else "import %s, kiln shader %s" % (want, got))
PY
    target=$($PY -c "import json; print(json.load(open('$KILN_CLI_TMP/one.json'))['settings']['target'])")
    for v in $($PY -c "import json; print(' '.join(x['name'] for x in json.load(open('$KILN_CLI_TMP/one.json'))['variants']))"); do
        k 0 shader "$src" "$KILN_CLI_TMP/one/$base.$v.spv" --root assets --settings "$settings" --variant "$v"
        spirv-val --target-env "$target" "$KILN_CLI_TMP/one/$base.$v.spv" ||
            fail "$rel variant $v: spirv-val refused it"
        checked=$((checked + 1))
    done
done
expect_eq "$checked" 10 "every variant of the six shaders went through spirv-val"
# The shorthands.
k 0 shader assets/shaders/pbr_forward.frag out.spv --root assets --include-dir shaders/include \
    --define NORMAL_MAP --define LIGHTS=4 --json
expect_eq "$(j "d['variants'][0]['defines']")" '{"LIGHTS":"4","NORMAL_MAP":null}' "--define"
k 0 shader assets/shaders/unlit_texture.hlsl out.kshader --stage fragment --entry PSMain
show
# Refusals.
k 2 shader assets/shaders/pbr_forward.frag out.spv --root assets \
    --settings '{"shader": {"include_dirs": ["shaders/include"], "variants": {"a": {}, "b": {"NORMAL_MAP": null}}}}'
show_err
k 2 shader assets/shaders/flat_color.frag out.spv --variant nope
show_err
k 2 shader assets/shaders/flat_color.frag out.spv --root assets/shaders/include
show_err
k 1 shader assets/shaders/pbr_forward.frag out.spv
show_err
k 2 shader assets/shaders/unlit_texture.hlsl out.spv
show_err
