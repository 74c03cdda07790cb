#!/bin/sh
# Builds the java client driver (docs/driver-protocol.md) against Debian's jars: javac + wsimport + slice2java.
# Usage: build.sh OUTDIR  ->  OUTDIR/dashboard-driver.jar, OUTDIR/classpath (one line).
# The JAX-WS proxies come from the WSDL wsgen writes in the service build (src/Service/Jvm/build.sh, run into
# OUTDIR/service-build); the Ice proxies from src/Service/Jvm/slice/Benchmark.ice. No running service is needed.
set -eu

die() { echo "build.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: build.sh OUTDIR"
HERE=$(cd "$(dirname "$0")" && pwd)
SERVICE_DIR=$(cd "$HERE/../../../Service/Jvm" && pwd) || die "src/Service/Jvm not found next to src/Runner"
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
J=/usr/share/java

# The service build checks javac, slice2java and the JAX-WS/JAXB/Ice jars (naming the Debian package) and writes
# the WSDLs; it is skipped when up to date.
"$SERVICE_DIR/build.sh" "$OUT/service-build" || die "the service build (for its WSDL) failed"
# The service build checked these jars (and names their Debian packages); the driver runs on the same ones.
ICE_JAR=$(ls "$J"/ice-3.7*.jar 2>/dev/null | grep -v compat | sort | tail -n 1 || true)
[ -n "$ICE_JAR" ] || die "$J/ice-3.7.*.jar missing: apt-get install libzeroc-ice3.7-java"
ICESSL_JAR=$(ls "$J"/icessl-3.7*.jar 2>/dev/null | grep -v compat | sort | tail -n 1 || true)
[ -n "$ICESSL_JAR" ] || die "$J/icessl-3.7.*.jar missing: apt-get install libzeroc-ice3.7-java"
# Shared with the service: the JSON reader and the TLS / WS-Security code (compiled into both jars).
SHARED="$SERVICE_DIR/src/dashboard/common $SERVICE_DIR/src/dashboard/security"

RUNTIME_JARS="$J/jaxws-rt.jar:$J/jaxws-api.jar:$J/jws-api.jar:$J/jaxb-api.jar:$J/jaxb-impl.jar:$J/jaxb-core.jar:$J/javax.activation.jar:$J/javax.xml.soap-api.jar:$J/saaj-impl.jar:$J/FastInfoset.jar:$J/stax-ex.jar:$J/streambuffer.jar:$J/mimepull.jar:$J/metro-policy.jar:$J/istack-commons-runtime.jar:$J/gmbal.jar:$J/glassfish-management-api.jar:$ICE_JAR:$ICESSL_JAR:$J/wss4j.jar:$J/xmlsec.jar:$J/commons-logging.jar:$J/slf4j-api.jar:$J/slf4j-nop.jar:$J/gson.jar"
TOOLS_CP="$J/jaxws-tools.jar:$J/jaxws-rt.jar:$J/jaxb-xjc.jar:$J/jaxb-jxc.jar:$J/jaxb-api.jar:$J/jaxb-core.jar:$J/jaxb-impl.jar:$J/javax.activation.jar:$J/jaxws-api.jar:$J/jws-api.jar:$J/javax.xml.soap-api.jar:$J/saaj-impl.jar"

STAMP=$( (cd "$HERE" && find . -type f \( -name '*.java' -o -name build.sh \) | LC_ALL=C sort | xargs cat;
          find $SHARED -name '*.java' | LC_ALL=C sort | xargs cat;
          cat "$SERVICE_DIR/slice/Benchmark.ice" "$OUT/service-build/wsdl"/*/*; echo "$RUNTIME_JARS") | sha256sum | cut -d' ' -f1)
if [ -f "$OUT/dashboard-driver.jar" ] && [ -f "$OUT/classpath" ] && [ "$(cat "$OUT/.driver-stamp" 2>/dev/null)" = "$STAMP" ]; then
    echo "build.sh: $OUT/dashboard-driver.jar is up to date" >&2
    exit 0
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dashboard-driver-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/gen" "$WORK/classes/wsdl"

java -cp "$TOOLS_CP" com.sun.tools.ws.WsImport -quiet -Xnocompile -s "$WORK/gen" -d "$WORK/gen" -p dashboard.driver.soap \
    -wsdllocation /wsdl/soap11/BenchmarkService.wsdl "$OUT/service-build/wsdl/soap11/BenchmarkService.wsdl" >"$WORK/wsimport.log" 2>&1 \
    || { cat "$WORK/wsimport.log" >&2; die "wsimport failed"; }
slice2java --output-dir "$WORK/gen" "$SERVICE_DIR/slice/Benchmark.ice" || die "slice2java failed on Benchmark.ice"
find "$HERE/src" $SHARED "$WORK/gen" -name '*.java' > "$WORK/sources"
javac -nowarn -XDignore.symbol.file -encoding UTF-8 --release 17 -cp "$RUNTIME_JARS" -d "$WORK/classes" @"$WORK/sources" 2>"$WORK/javac.log" \
    || { cat "$WORK/javac.log" >&2; die "javac failed"; }
cp -r "$OUT/service-build/wsdl/soap11" "$OUT/service-build/wsdl/soap12" "$WORK/classes/wsdl/"

jar --create --file "$WORK/dashboard-driver.jar" --main-class dashboard.driver.DriverMain -C "$WORK/classes" .
mv "$WORK/dashboard-driver.jar" "$OUT/dashboard-driver.jar"
echo "$OUT/dashboard-driver.jar:$RUNTIME_JARS" > "$OUT/classpath"
echo "$STAMP" > "$OUT/.driver-stamp"
echo "build.sh: wrote $OUT/dashboard-driver.jar" >&2
