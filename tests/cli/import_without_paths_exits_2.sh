# import needs paths or --all: bad usage, exit 2, nothing written.
mkpng assets/a.png 4 4 1
k 2 import
show_err
k 2 import --json
show
k 2 import --force --json
expect_eq "$(j "d['error']['code']")" E_USAGE "import --force alone"
[ ! -e .kiln ] || fail "a usage error created .kiln"
