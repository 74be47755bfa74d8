# Every kiln command is a process, and every shared library it needs costs start-up time (a
# model cook of Fox takes about 3 ms; libcurl, libassimp or libcrypto would each add more than
# that). Those run only in the rare paths that need them and are opened there (curl_dl.c,
# assimp_dl.c); OpenSSL is not used at all (kiln's own SHA-256). This case keeps it so.
command -v readelf >/dev/null 2>&1 || exit 77
needed=$(readelf -d "$KILN_EXE" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for heavy in libcurl libassimp libcrypto libssl libdraco libgnutls; do
    if printf '%s\n' "$needed" | grep -q "^$heavy"; then
        fail "kiln links $heavy at start-up"
    fi
done
printf '%s\n' "$needed" | grep -q "^libc.so" || fail "readelf found no NEEDED entries"
