#!/usr/bin/env bash
# Stages the container image's filesystem, less the application (Jib adds that), into DIR
# (make image; see docs/operations.md, "Container image"):
#   /opt/java            a jlink'ed runtime of the build's JDK, with the modules in tools/image/modules
#   /lib*, /usr/lib*     the shared libraries that runtime links, and the dynamic loader, as ldd lists them
#                        (the distroless way: no shell, no package manager, nothing else)
#   /etc                 passwd and group naming the non-root user signalman (65532), nsswitch.conf
#   /etc/signalman       the project's rules/ and replay-fixtures/, the default of the rules volume
#   /var/lib/signalman/data, /tmp   empty, for the data volume and the JVM's temporary files
# Jib (pom.xml, profile "image") lays DIR under the application from scratch.
set -euo pipefail
here=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
out=${1:?usage: stage-root.sh DIR}
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
[ -x "$java_home/bin/jlink" ] || { echo "stage-root.sh: no jlink in $java_home (a JDK is needed)" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out/etc/signalman" "$out/var/lib/signalman/data" "$out/tmp"
out=$(cd "$out" && pwd -P)

# The runtime: only the modules the server and its libraries use (tools/image/modules says why each).
modules=$(grep -v '^\s*#' "$here/tools/image/modules" | awk '{print $1}' | grep . | paste -sd, -)
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --compress=2 --output "$out/opt/java"
# Debian's JDK keeps its trust store outside the JDK (a symlink jlink does not follow): the image
# carries the build machine's, so https (--oidc-jwks, --notify-webhook) can verify servers.
if [ ! -s "$out/opt/java/lib/security/cacerts" ] && [ -s "$java_home/lib/security/cacerts" ]; then
    cp -L "$java_home/lib/security/cacerts" "$out/opt/java/lib/security/cacerts"
fi

# java.desktop is there for java.beans (Drools, MVEL): a server draws no window and plays no sound, so
# the native libraries that would link X11 and ALSA go, and their libraries with them.
rm -f "$out"/opt/java/lib/{libawt_xawt,libjawt,libsplashscreen,libjsound}.so

# The shared libraries: what ldd resolves for the launcher and every library of the runtime,
# outside the runtime itself, copied as files at the paths ldd names (symlinks resolved; no ld.so.cache:
# the loader's default directories hold them), the loader itself included.
libs=$(find "$out/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -print0 \
    | xargs -0 ldd 2>/dev/null \
    | awk '/=> \// { print $3 } /^[ \t]*\/[^ ]+ \(0x/ { print $1 }' | sort -u)
for lib in $libs; do
    case "$(readlink -f "$lib")" in "$out"/*) continue ;; esac
    mkdir -p "$out$(dirname "$lib")"
    cp -L "$lib" "$out$lib"
done
# The user: no shell, no home but the data directory.
printf 'root:x:0:0:root:/root:/sbin/nologin\nsignalman:x:65532:65532:signalman:/var/lib/signalman:/sbin/nologin\n' \
    > "$out/etc/passwd"
printf 'root:x:0:\nsignalman:x:65532:\n' > "$out/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$out/etc/nsswitch.conf"

# The default rules (the rules volume's content until a folder is mounted there) and golden histories.
cp -r "$here/rules" "$out/etc/signalman/rules"
cp -r "$here/replay-fixtures" "$out/etc/signalman/replay-fixtures"
