# kiln report --check is a CI gate: exit 0 when every asset is up to date, else exit 1 with one
# line per other asset on stderr (its state, and the error of an invalid one) and a count; the
# report itself prints as without --check (also with --json). Plain report still exits 0.
mkpng assets/a.png 4 4 1
mkpng assets/b.png 4 4 2
k 1 report --check
show_err
k 0 report
k 0 import --all
k 0 report --check
[ -s "$ERR" ] && fail "report --check said something with every asset up to date"
mkpng assets/b.png 4 4 3
printf '{"import": {"texture": {"colour": 1}}}' >assets/a.png.meta
mkpng assets/c.png 4 4 4
k 1 report --check
show
show_err
k 1 report --check --json
expect_eq "$(j "[(a['path'], a['state']) for a in d['assets']]")" \
    '[["a.png", "invalid"], ["b.png", "stale"], ["c.png", "not_imported"]]' "the document is printed too"
k 2 report --check --bogus
