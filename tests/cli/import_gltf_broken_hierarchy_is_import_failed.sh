# Issue 18 item 6: a glTF whose structure breaks a rule of the specification fails with
# E_IMPORT_FAILED naming the rule and the JSON pointer, not E_LIMIT worded as a limit. Node 0
# listing itself twice as a child (a cycle) once read `"children" has 2 entries, above the limit
# 1` (E_LIMIT); a scene naming node 0 in a file without "nodes" read `"nodes" has 1 entries, above
# the limit 0`.
mktri assets/cycle.gltf
mktri assets/no_nodes.gltf
$PY - <<'PYEOF' || fail "editing the models"
import json
g = json.load(open("assets/cycle.gltf"))
g["nodes"][0]["children"] = [0, 0]
json.dump(g, open("assets/cycle.gltf", "w"))
g = json.load(open("assets/no_nodes.gltf"))
del g["nodes"]
json.dump(g, open("assets/no_nodes.gltf", "w"))
PYEOF
k 1 import assets/cycle.gltf
show
show_err
k 1 import --json assets/cycle.gltf
expect_eq "$(j "d['failed'][0]['error']['code']")" E_IMPORT_FAILED "the cycle's code"
expect_eq "$(j "d['failed'][0]['error']['json_pointer']")" /nodes/0/children/0 "the cycle's pointer"
expect_eq "$(j "d['failed'][0]['error']['message']")" \
    "cycle.gltf: /nodes/0/children/0: node 0 is its own child: the node hierarchy must not contain cycles" \
    "the cycle's message"
k 1 import assets/no_nodes.gltf
show
show_err
k 1 import --json assets/no_nodes.gltf
expect_eq "$(j "d['failed'][0]['error']['code']")" E_IMPORT_FAILED "the scene's code"
expect_eq "$(j "d['failed'][0]['error']['json_pointer']")" /scenes/0/nodes/0 "the scene's pointer"
