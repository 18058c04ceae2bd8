#!/usr/bin/env bash
# The root file system of the gym4j image, built from scratch: a JRE cut with jlink from the build's JDK,
# the C libraries it and the name service load (found with ldd, copied at their paths), a passwd entry for
# the non-root user 65532, and empty /tmp and /work. Usage: rootfs.sh JDK_HOME OUTPUT_DIR CLASSES_DIR
set -euo pipefail
JDK="$1"
OUT="$2"
# the image needs a JDK 25 or newer: Maven itself may run on an older one (the build compiles through a
# toolchain), so then take the newest JDK 25+ under /usr/lib/jvm, as the gym4j launcher does
major() { sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true; }
if [ "$(major "$JDK")" = "" ] || [ "$(major "$JDK")" -lt 25 ]; then
  best=""
  for candidate in /usr/lib/jvm/*/; do
    candidate="${candidate%/}"
    version="$(major "$candidate")"
    if [ -n "$version" ] && [ "$version" -ge 25 ] && [ -x "$candidate/bin/jlink" ] \
        && { [ -z "$best" ] || [ "$version" -gt "$(major "$best")" ]; }; then
      best="$candidate"
    fi
  done
  [ -n "$best" ] || { echo "rootfs.sh: $JDK is older than JDK 25 and /usr/lib/jvm has no JDK 25+" >&2; exit 1; }
  JDK="$best"
fi
# this module has no classes of its own, but Jib insists on reading its classes directory
mkdir -p "$3"
rm -rf "$OUT"
mkdir -p "$OUT/opt" "$OUT/etc" "$OUT/tmp" "$OUT/work"

# every module the servers use at run time; java.se keeps the JDK's public API whole for environments
"$JDK/bin/jlink" --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.management,jdk.zipfs,jdk.naming.dns,jdk.net \
  --strip-debug --no-man-pages --no-header-files --compress=zip-6 --output "$OUT/opt/java"

copy_lib() {
  local lib="$1"
  [ -e "$OUT$lib" ] && return 0
  mkdir -p "$OUT$(dirname "$lib")"
  cp -L "$lib" "$OUT$lib"
}

# the loader and libraries the JRE links against, directly or through its own .so files
while read -r lib; do
  copy_lib "$lib"
done < <(find "$OUT/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) ! -name '*awt*' ! -name '*splash*' -exec ldd {} \; 2>/dev/null \
  | grep -oE '(/[^ ]+\.so[^ ]*)' | sort -u)
# loaded with dlopen, so ldd does not list them: host names and user names are looked up through these
for name in libnss_files.so.2 libnss_dns.so.2 libresolv.so.2; do
  # awk reads to the end: leaving early would kill ldconfig with SIGPIPE, which pipefail turns into a failure
  found="$(ldconfig -p | awk -v n="$name" '!done && $1 == n && /x86-64|x86_64|64/ {print $NF; done = 1}')"
  [ -n "$found" ] && copy_lib "$found"
done

printf 'root:x:0:0:root:/root:/sbin/nologin\ngym4j:x:65532:65532:gym4j:/work:/sbin/nologin\n' > "$OUT/etc/passwd"
printf 'root:x:0:\ngym4j:x:65532:\n' > "$OUT/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$OUT/etc/nsswitch.conf"
