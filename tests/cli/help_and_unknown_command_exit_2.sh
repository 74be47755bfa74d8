# kiln help prints the usage on stdout and exits 0; kiln alone and an unknown command print it on
# stderr and exit 2; version names the pipeline version.
k 0 help
show
k 0 --help
expect_grep "^usage: kiln <command> \[options\]" "$OUT" "--help prints the usage"
k 2
expect_eq "$(wc -c <"$OUT")" 0 "kiln alone prints nothing on stdout"
expect_grep "^usage: kiln" "$ERR" "kiln alone prints the usage on stderr"
k 2 frobnicate
expect_eq "$(wc -c <"$OUT")" 0 "an unknown command prints nothing on stdout"
expect_grep "unknown command 'frobnicate'" "$ERR" "an unknown command is named"
k 0 version
show | sed 's/^kiln [0-9]*\.[0-9]*\.[0-9]* /kiln <version> /'
