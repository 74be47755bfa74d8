# An option a subcommand does not take is bad usage: exit 2, a message on stderr, and with --json
# the error document (E_USAGE) on stdout. Nothing is created.
for cmd in import reimport report meta inspect cache; do
    k 2 $cmd --bogus
    expect_eq "$(wc -c <"$OUT")" 0 "$cmd --bogus prints nothing on stdout without --json"
    expect_grep "unknown option --bogus" "$ERR" "$cmd --bogus names the option"
    k 2 $cmd --bogus --json
    show
    expect_eq "$(j "d['error']['code']")" E_USAGE "$cmd --bogus --json"
done
k 2 report --force --json
expect_eq "$(j "d['error']['message']")" "unknown option --force" "report does not take --force"
k 2 import --all -j 99 --json
show
k 2 import --all --json --root
k 2 cache gc --max-size lots --json
show
k 2 cache --json
show
k 2 report extra --json
show
k 2 inspect --json
show
[ ! -e .kiln ] || fail "a usage error created .kiln"
