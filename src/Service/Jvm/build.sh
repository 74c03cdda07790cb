#!/bin/sh
# Builds the JVM service (docs/jvm-service.md) against Debian's jars: javac + slice2java + wsgen, no Maven.
# Usage: build.sh OUTDIR  ->  OUTDIR/dashboard-service.jar, OUTDIR/classpath (one line),
#        and OUTDIR/wsdl/soap11, OUTDIR/wsdl/soap12 (wsgen's WSDLs, for client code generation).
# Skips the work when nothing under this folder changed since the last build into OUTDIR. Two builds into one OUTDIR
# (the service host's and the java driver's, side by side in `dotnet build Dashboard.sln`) take turns (flock on
# OUTDIR/.build.lock): the second finds the first's output up to date.
set -eu

die() { echo "build.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: build.sh OUTDIR"
HERE=$(cd "$(dirname "$0")" && pwd)
# Java shared with the java driver (JSON, the catalogue reader, TLS and WS-Security), and the one catalogue file.
SHARED=$(cd "$HERE/../JvmShared" && pwd) || die "src/Service/JvmShared not found next to src/Service/Jvm"
CATALOGUE=$(cd "$HERE/../Contracts/Catalogue" && pwd)/catalogue.json
[ -f "$CATALOGUE" ] || die "$CATALOGUE missing"
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
if [ -z "${DASHBOARD_JVM_BUILD_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
    export DASHBOARD_JVM_BUILD_LOCKED=1
    exec flock "$OUT/.build.lock" sh "$0" "$@"
fi
J=/usr/share/java

command -v javac >/dev/null 2>&1 || die "javac not found: apt-get install openjdk-17-jdk-headless"
command -v jar >/dev/null 2>&1 || die "jar not found: apt-get install openjdk-17-jdk-headless"
command -v slice2java >/dev/null 2>&1 || die "slice2java not found: apt-get install zeroc-ice-compilers"
need() { [ -f "$J/$1" ] || die "$J/$1 missing: apt-get install $2"; }
need jaxws-rt.jar libjaxws-java
need jaxws-tools.jar libjaxws-java
need jaxws-api.jar libjaxws-api-java
need jws-api.jar libjws-api-java
need jaxb-api.jar libjaxb-api-java
need jaxb-impl.jar libjaxb-java
need jaxb-core.jar libjaxb-java
need jaxb-xjc.jar libjaxb-java
need jaxb-jxc.jar libjaxb-java
need javax.xml.soap-api.jar libsaaj-java
need saaj-impl.jar libsaaj-ri-java
need FastInfoset.jar libfastinfoset-java
need javax.activation.jar libactivation-java
# WS-Security (docs/security.md): WSS4J 1.6 on Apache Santuario; they log through commons-logging and SLF4J (no-op).
need wss4j.jar libwss4j-java
need xmlsec.jar libxml-security-java
need commons-logging.jar libcommons-logging-java
need slf4j-api.jar libslf4j-java
need slf4j-nop.jar libslf4j-java
# JSON of the protocol lines, credentials.json and the catalogue (../JvmShared/src/dashboard/common).
need gson.jar libgoogle-gson-java
# The command line (src/dashboard/service/ServiceOptions.java).
need commons-cli.jar libcommons-cli-java
ICE_JAR=$(ls "$J"/ice-3.7*.jar 2>/dev/null | grep -v compat | sort | tail -n 1 || true)
[ -n "$ICE_JAR" ] || die "$J/ice-3.7.*.jar missing: apt-get install libzeroc-ice3.7-java"
ICESSL_JAR=$(ls "$J"/icessl-3.7*.jar 2>/dev/null | grep -v compat | sort | tail -n 1 || true)
[ -n "$ICESSL_JAR" ] || die "$J/icessl-3.7.*.jar missing: apt-get install libzeroc-ice3.7-java"

RUNTIME_JARS="$J/jaxws-rt.jar:$J/jaxws-api.jar:$J/jws-api.jar:$J/jaxb-api.jar:$J/jaxb-impl.jar:$J/jaxb-core.jar:$J/javax.activation.jar:$J/javax.xml.soap-api.jar:$J/saaj-impl.jar:$J/FastInfoset.jar:$J/stax-ex.jar:$J/streambuffer.jar:$J/mimepull.jar:$J/metro-policy.jar:$J/istack-commons-runtime.jar:$J/gmbal.jar:$J/glassfish-management-api.jar:$ICE_JAR:$ICESSL_JAR:$J/wss4j.jar:$J/xmlsec.jar:$J/commons-logging.jar:$J/slf4j-api.jar:$J/slf4j-nop.jar:$J/gson.jar:$J/commons-cli.jar"
WSGEN_CP="$J/jaxws-tools.jar:$J/jaxws-rt.jar:$J/jaxb-xjc.jar:$J/jaxb-jxc.jar:$J/jaxb-api.jar:$J/jaxb-core.jar:$J/jaxb-impl.jar:$J/javax.activation.jar:$J/jaxws-api.jar:$J/jws-api.jar:$J/javax.xml.soap-api.jar:$J/saaj-impl.jar"

STAMP=$( (cd "$HERE" && find . -type f \( -name '*.java' -o -name '*.ice' -o -name build.sh \) | LC_ALL=C sort | xargs cat;
          find "$SHARED" -name '*.java' | LC_ALL=C sort | xargs cat; cat "$CATALOGUE"; echo "$RUNTIME_JARS") | sha256sum | cut -d' ' -f1)
if [ -f "$OUT/dashboard-service.jar" ] && [ -f "$OUT/classpath" ] && [ "$(cat "$OUT/.service-stamp" 2>/dev/null)" = "$STAMP" ]; then
    echo "build.sh: $OUT/dashboard-service.jar is up to date" >&2
    exit 0
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dashboard-service-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/slice" "$WORK/classes" "$WORK/wsgen-src" "$WORK/wsdl11" "$WORK/wsdl12"

slice2java --output-dir "$WORK/slice" "$HERE/slice/Benchmark.ice" || die "slice2java failed on slice/Benchmark.ice"
find "$HERE/src" "$SHARED/src" "$WORK/slice" -name '*.java' > "$WORK/sources"
javac -nowarn -XDignore.symbol.file -encoding UTF-8 --release 17 -cp "$RUNTIME_JARS" -d "$WORK/classes" @"$WORK/sources" 2>"$WORK/javac.log" \
    || { cat "$WORK/javac.log" >&2; die "javac failed"; }

# wsgen at build time: Debian's JAX-WS lacks the repackaged ASM its runtime needs to generate wrapper classes.
wsgen() { java -cp "$WSGEN_CP" com.sun.tools.ws.WsGen -cp "$WORK/classes:$RUNTIME_JARS" "$@" dashboard.service.BenchmarkService >"$WORK/wsgen.log" 2>&1 \
    || { cat "$WORK/wsgen.log" >&2; die "wsgen failed"; }; }
wsgen -keep -s "$WORK/wsgen-src" -d "$WORK/classes" -wsdl -r "$WORK/wsdl11"
wsgen -extension -s "$WORK/wsgen-src" -d "$WORK/classes" -wsdl:Xsoap1.2 -r "$WORK/wsdl12"

# The contract's byte is unsigned (0..255): mark ByteSimple's value and result xs:unsignedByte (a Java short).
W="$WORK/wsgen-src/dashboard/service/jaxws"
sed -i 's/^\(    private [Ss]hort value;\)$/    @javax.xml.bind.annotation.XmlSchemaType(name = "unsignedByte")\n\1/' "$W/ByteSimple.java"
sed -i 's/^\(    private short byteSimpleResult;\)$/    @javax.xml.bind.annotation.XmlSchemaType(name = "unsignedByte")\n\1/' "$W/ByteSimpleResponse.java"
grep -q unsignedByte "$W/ByteSimple.java" && grep -q unsignedByte "$W/ByteSimpleResponse.java" \
    || die "wsgen's ByteSimple wrappers changed shape: cannot mark them xs:unsignedByte"
javac -nowarn -encoding UTF-8 --release 17 -cp "$WORK/classes:$RUNTIME_JARS" -d "$WORK/classes" "$W/ByteSimple.java" "$W/ByteSimpleResponse.java"
for f in "$WORK"/wsdl11/*.xsd "$WORK"/wsdl12/*.xsd; do
    awk '/<xs:complexType name="ByteSimple(Response)?">/{b=1} b&&/type="xs:short"/{sub(/xs:short/,"xs:unsignedByte"); b=0} {print}' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done

cp "$CATALOGUE" "$WORK/classes/catalogue.json" # read by dashboard.common.Catalogue
jar --create --file "$WORK/dashboard-service.jar" -C "$WORK/classes" .
rm -rf "$OUT/wsdl"
mkdir -p "$OUT/wsdl"
cp -r "$WORK/wsdl11" "$OUT/wsdl/soap11"
cp -r "$WORK/wsdl12" "$OUT/wsdl/soap12"
mv "$WORK/dashboard-service.jar" "$OUT/dashboard-service.jar"
echo "$OUT/dashboard-service.jar:$RUNTIME_JARS" > "$OUT/classpath"
echo "$STAMP" > "$OUT/.service-stamp"
echo "build.sh: wrote $OUT/dashboard-service.jar" >&2
