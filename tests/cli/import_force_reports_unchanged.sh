# import --force processes again over the existing entries and says the bytes came out the same.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 4 4 2
k 0 import --all
k 0 import --all --force
show
k 0 import --all --force --json
expect_eq "$(j "[(r['status'], r['unchanged']) for r in d['records']]")" \
    '[["imported", true], ["imported", true]]' "forced import"
expect_eq "$(j "[w for r in d['records'] for w in r['warnings']]")" '[]' "warnings"
k 0 report --json
expect_eq "$(j "d['totals']['up_to_date']")" 2 "report after --force"
