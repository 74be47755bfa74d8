# Every kiln command is a process, and every shared library it needs costs start-up time (a
# model cook of Fox takes about 3 ms; libcurl, libassimp or libcrypto would each add more than
# that). Those run only in the rare paths that need them and are opened there (curl_dl.c,
# assimp_dl.c); OpenSSL is not used at all (kiln's own SHA-256). The image and ASTC libraries
# (libspng, OpenEXRCore, libastcenc: ~0.3 ms per start with stb and zlib) are opened on the first
# PNG, EXR or ASTC (png_dl.c, exr_dl.c, astcenc_dl.cpp), and stb and zlib come from their static
# archives in static builds. GLFW (kiln view's window) and the X11 or Wayland libraries it needs
# are opened only by kiln view (view_glfw.c): mapped at start-up they cost ~0.75 ms per command
# (300 runs of `kiln version` with and without LD_PRELOAD=libglfw.so.3: 0.64 s against 0.87 s,
# 2026-12-07). This case keeps it so, for the NEEDED entries of the command and for
# everything the dynamic loader would map at start-up (a NEEDED of a NEEDED library too).
command -v readelf >/dev/null 2>&1 || exit 77
needed=$(readelf -d "$KILN_EXE" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
printf '%s\n' "$needed" | grep -q "^libc.so" || fail "readelf found no NEEDED entries"
# ld.so lists what it maps without running the program (as ldd does).
loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$KILN_EXE" 2>/dev/null | sed -n 's|^[[:space:]]*\([^ ]*/\)\{0,1\}\([^/ ]*\.so[^ ]*\).*|\2|p')
printf '%s\n' "$loaded" | grep -q "^libc.so" || fail "the dynamic loader listed no libraries"

heavy='libcurl libassimp libcrypto libssl libdraco libgnutls libspng libOpenEXR libastcenc libglfw libX11 libwayland'
# stb and zlib are linked statically where Debian's archives are installed, in static builds
# (a shared libkiln links them as shared libraries: nothing to check then).
if ! printf '%s\n' "$needed" | grep -q '^libkiln' && command -v cc >/dev/null 2>&1; then
    [ "$(cc -print-file-name=libstb.a)" != libstb.a ] && heavy="$heavy libstb.so"
    [ "$(cc -print-file-name=libz.a)" != libz.a ] && heavy="$heavy libz.so"
fi
for lib in $heavy; do
    if printf '%s\n' "$needed" | grep -q "^$lib"; then
        fail "kiln links $lib at start-up"
    fi
    if printf '%s\n' "$loaded" | grep -q "^$lib"; then
        fail "kiln loads $lib at start-up (through another library)"
    fi
done
