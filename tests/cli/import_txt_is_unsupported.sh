# A file of a kind kiln does not import: E_IMPORT_UNSUPPORTED (exit 1) when named; --all does not
# even list it.
mkpng assets/a.png 4 4 1
echo "not an image" >assets/notes.txt
k 1 import assets/notes.txt
show
show_err
k 1 import --json assets/notes.txt
show
k 0 import --all --json
expect_eq "$(j "[r['path'] for r in d['records']]")" '["a.png"]' "--all lists only sources"
k 0 report --json
expect_eq "$(j "[r['path'] for r in d['assets']]")" '["a.png"]' "report lists only sources"
