# A path the user names on the command line for a command's output may lie outside the project
# (kiln pack -o, kiln graph --ninja -o), as kiln texture's OUT and kiln model's OUTDIR always
# could; the sources and the paths written inside files stay confined (--cache, a PATH outside
# the root: other cases). A missing output folder is reported by its own name, never by the
# temporary file kiln writes first; pack creates the folders of its -o, as model does its OUTDIR.
mkpng assets/a.png 8 8 1
k 0 pack --all -o ../build/game.kpak
show
k 0 pack --verify ../build/game.kpak
show
k 0 pack --all -o ../made/for/it/game.kpak --json
expect_eq "$(j "d['output']")" "$TMPR/made/for/it/game.kpak" "pack output"
k 0 graph --ninja -o ../build/build.ninja
show
expect_grep "kiln_graph" ../build/build.ninja "the graph written outside the project"
expect_eq "$(ls -A ../build | tr '\n' ' ')" "build.ninja game.kpak " "nothing else beside the outputs"
k 1 graph --ninja -o ../nowhere/build.ninja
show_err
k 1 graph --ninja -o ../nowhere/build.ninja --json
show
k 1 texture assets/a.png ../nowhere/a.ktx2
show_err
k 1 texture assets/a.png ../nowhere/a.ktx2 --json
show
[ ! -e ../nowhere ] || fail "a failed write made ../nowhere"
# The default outputs stay where they were.
k 0 pack --all
expect_said "into <W>/.kiln/game.kpak\|into $W/.kiln/game.kpak" "default pack"
k 0 graph --ninja
[ -f .kiln/build.ninja ] || fail "graph --ninja wrote no .kiln/build.ninja"
