#!/bin/sh
# Builds the java client driver (docs/driver-protocol.md) against Debian's jars: javac + wsimport + slice2java + protoc
# with the grpc-java plugin (src/Service/Contracts/Protos/benchmark.proto).
# Usage: build.sh OUTDIR [SERVICE_BUILD]  ->  OUTDIR/dashboard-driver.jar, OUTDIR/classpath (one line).
# The JAX-WS proxies come from the WSDL wsgen writes in the service build (src/Service/Jvm/build.sh, run into
# SERVICE_BUILD, default OUTDIR/service-build; the runner's build passes the service host's jvm/ folder, so that
# `dotnet build Dashboard.sln` compiles the service once, not twice); the Ice proxies from
# src/Service/Jvm/slice/Benchmark.ice. No running service is needed.
set -eu

die() { echo "build.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: build.sh OUTDIR [SERVICE_BUILD]"
HERE=$(cd "$(dirname "$0")" && pwd)
SERVICE_DIR=$(cd "$HERE/../../../Service/Jvm" && pwd) || die "src/Service/Jvm not found next to src/Runner"
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
SERVICE_BUILD=${2:-$OUT/service-build}
J=/usr/share/java

# The service build checks javac, slice2java and the JAX-WS/JAXB/Ice jars (naming the Debian package) and writes
# the WSDLs; it is skipped when up to date.
"$SERVICE_DIR/build.sh" "$SERVICE_BUILD" || die "the service build (for its WSDL) failed"
# The service build checked these jars (and names their Debian packages); the driver runs on the same ones.
ICE_JAR=$(ls "$J"/ice-3.7*.jar 2>/dev/null | grep -v compat | sort | tail -n 1 || true)
[ -n "$ICE_JAR" ] || die "$J/ice-3.7.*.jar missing: apt-get install libzeroc-ice3.7-java"
ICESSL_JAR=$(ls "$J"/icessl-3.7*.jar 2>/dev/null | grep -v compat | sort | tail -n 1 || true)
[ -n "$ICESSL_JAR" ] || die "$J/icessl-3.7.*.jar missing: apt-get install libzeroc-ice3.7-java"
# gRPC (variants AspNetGrpc*): Debian's gRPC for Java on its Netty transport; stubs generated here from the one .proto.
PROTO="$(cd "$HERE/../../../Service/Contracts/Protos" && pwd)/benchmark.proto" || die "src/Service/Contracts/Protos not found"
command -v protoc >/dev/null || die "protoc missing: apt-get install protobuf-compiler"
GRPC_PLUGIN=$(command -v grpc_java_plugin || true)
[ -n "$GRPC_PLUGIN" ] || die "grpc_java_plugin missing: apt-get install protobuf-compiler-grpc-java-plugin"
for jar in grpc-api grpc-context grpc-core grpc-netty grpc-protobuf grpc-protobuf-lite grpc-stub; do
    [ -f "$J/$jar.jar" ] || die "$J/$jar.jar missing: apt-get install libgrpc-java"
done
[ -f "$J/protobuf.jar" ] || die "$J/protobuf.jar missing: apt-get install libprotobuf-java"
[ -f "$J/netty-codec-http2.jar" ] || die "$J/netty-codec-http2.jar missing: apt-get install libnetty-java"
[ -f "$J/perfmark-api.jar" ] || die "$J/perfmark-api.jar missing: apt-get install libperfmark-java"
[ -f "$J/gson.jar" ] || die "$J/gson.jar missing: apt-get install libgoogle-gson-java"
[ -f "$J/guava.jar" ] || die "$J/guava.jar missing: apt-get install libguava-java"
[ -f "$J/commons-cli.jar" ] || die "$J/commons-cli.jar missing: apt-get install libcommons-cli-java"
GRPC_JARS="$J/grpc-api.jar:$J/grpc-context.jar:$J/grpc-core.jar:$J/grpc-netty.jar:$J/grpc-protobuf.jar:$J/grpc-protobuf-lite.jar:$J/grpc-stub.jar:$J/protobuf.jar:$J/guava.jar:$J/perfmark-api.jar:$J/gson.jar:$J/netty-buffer.jar:$J/netty-codec.jar:$J/netty-codec-http.jar:$J/netty-codec-http2.jar:$J/netty-codec-socks.jar:$J/netty-common.jar:$J/netty-handler.jar:$J/netty-handler-proxy.jar:$J/netty-resolver.jar:$J/netty-transport.jar"
# Shared with the service: JSON, the catalogue reader and the TLS / WS-Security code (compiled into both jars), and the
# one catalogue file (put into the jar as /catalogue.json).
SHARED=$(cd "$SERVICE_DIR/../JvmShared" && pwd)/src || die "src/Service/JvmShared not found"
CATALOGUE=$(cd "$SERVICE_DIR/../Contracts/Catalogue" && pwd)/catalogue.json
[ -f "$CATALOGUE" ] || die "$CATALOGUE missing"

RUNTIME_JARS="$J/jaxws-rt.jar:$J/jaxws-api.jar:$J/jws-api.jar:$J/jaxb-api.jar:$J/jaxb-impl.jar:$J/jaxb-core.jar:$J/javax.activation.jar:$J/javax.xml.soap-api.jar:$J/saaj-impl.jar:$J/FastInfoset.jar:$J/stax-ex.jar:$J/streambuffer.jar:$J/mimepull.jar:$J/metro-policy.jar:$J/istack-commons-runtime.jar:$J/gmbal.jar:$J/glassfish-management-api.jar:$ICE_JAR:$ICESSL_JAR:$J/wss4j.jar:$J/xmlsec.jar:$J/commons-logging.jar:$J/slf4j-api.jar:$J/slf4j-nop.jar:$J/commons-cli.jar:$GRPC_JARS"
TOOLS_CP="$J/jaxws-tools.jar:$J/jaxws-rt.jar:$J/jaxb-xjc.jar:$J/jaxb-jxc.jar:$J/jaxb-api.jar:$J/jaxb-core.jar:$J/jaxb-impl.jar:$J/javax.activation.jar:$J/jaxws-api.jar:$J/jws-api.jar:$J/javax.xml.soap-api.jar:$J/saaj-impl.jar"

STAMP=$( (cd "$HERE" && find . -type f \( -name '*.java' -o -name build.sh \) | LC_ALL=C sort | xargs cat;
          find "$SHARED" -name '*.java' | LC_ALL=C sort | xargs cat; cat "$CATALOGUE";
          cat "$SERVICE_DIR/slice/Benchmark.ice" "$PROTO" "$SERVICE_BUILD/wsdl"/*/*; echo "$RUNTIME_JARS") | sha256sum | cut -d' ' -f1)
if [ -f "$OUT/dashboard-driver.jar" ] && [ -f "$OUT/classpath" ] && [ "$(cat "$OUT/.driver-stamp" 2>/dev/null)" = "$STAMP" ]; then
    echo "build.sh: $OUT/dashboard-driver.jar is up to date" >&2
    exit 0
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dashboard-driver-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/gen" "$WORK/classes/wsdl"

java -cp "$TOOLS_CP" com.sun.tools.ws.WsImport -quiet -Xnocompile -s "$WORK/gen" -d "$WORK/gen" -p dashboard.driver.soap \
    -wsdllocation /wsdl/soap11/BenchmarkService.wsdl "$SERVICE_BUILD/wsdl/soap11/BenchmarkService.wsdl" >"$WORK/wsimport.log" 2>&1 \
    || { cat "$WORK/wsimport.log" >&2; die "wsimport failed"; }
slice2java --output-dir "$WORK/gen" "$SERVICE_DIR/slice/Benchmark.ice" || die "slice2java failed on Benchmark.ice"
protoc --plugin=protoc-gen-grpc-java="$GRPC_PLUGIN" -I "$(dirname "$PROTO")" --java_out="$WORK/gen" --grpc-java_out="$WORK/gen" "$PROTO" \
    || die "protoc failed on benchmark.proto"
find "$HERE/src" "$SHARED" "$WORK/gen" -name '*.java' > "$WORK/sources"
javac -nowarn -XDignore.symbol.file -encoding UTF-8 --release 17 -cp "$RUNTIME_JARS" -d "$WORK/classes" @"$WORK/sources" 2>"$WORK/javac.log" \
    || { cat "$WORK/javac.log" >&2; die "javac failed"; }
cp -r "$SERVICE_BUILD/wsdl/soap11" "$SERVICE_BUILD/wsdl/soap12" "$WORK/classes/wsdl/"
cp "$CATALOGUE" "$WORK/classes/catalogue.json" # read by dashboard.common.Catalogue

jar --create --file "$WORK/dashboard-driver.jar" --main-class dashboard.driver.DriverMain -C "$WORK/classes" .
mv "$WORK/dashboard-driver.jar" "$OUT/dashboard-driver.jar"
echo "$OUT/dashboard-driver.jar:$RUNTIME_JARS" > "$OUT/classpath"

# Class-data sharing (CDS, OUT/dashboard-driver.jsa): the classes a driver loads to set up its clients (JAX-WS, JAXB,
# Metro, Ice, gRPC and Netty, and the JDK's own) parsed once here and mapped by every driver start (DriverCommand.Java
# passes -XX:SharedArchiveFile when the file exists). CPU per start, quiet machine, 2026-11-27: metro 2.1 -> 1.3 s, ice 1.3 ->
# 0.7 s, gRPC 1.4 -> 0.7 s; a run starts one driver per cell. The class list comes from three training starts, one per
# stack, each on a job against a closed port (the driver sets up its clients, cannot connect and exits; no service).
# Start-up only: the same classes run. A JVM that cannot map the archive (another JDK build, a jar changed after the
# build) warns on stderr and loads its classes as without it.
rm -f "$OUT/dashboard-driver.jsa"
training() { # variant stack address
    printf '{"type":"job","protocol":1,"endpoint":{"name":"%s","stack":"%s","address":"%s","transport":"","encoding":"","securityMode":"None","credentialType":"None","wsdl":null},"payload":"UDTypeArray1000","timeoutMs":3000,"credentials":null,"caCertificate":null}\n%s\n' \
        "$1" "$2" "$3" '{"type":"level","index":0,"clients":1,"warmup":0,"requests":1,"durationMs":null}' \
        | java -XX:DumpLoadedClassList="$WORK/classes-$2.lst" -cp "$OUT/dashboard-driver.jar:$RUNTIME_JARS" dashboard.driver.DriverMain >>"$WORK/cds.log" 2>&1 || true
}
training MetroSoap11 metro http://127.0.0.1:9/benchmark
training IceTcp ice "benchmark:tcp -h 127.0.0.1 -p 9"
training AspNetGrpc aspnet http://127.0.0.1:9/
cat "$WORK"/classes-*.lst 2>/dev/null | grep -v '^#' | awk '!seen[$0]++' > "$WORK/classes.lst"
java -Xshare:dump -XX:SharedClassListFile="$WORK/classes.lst" -XX:SharedArchiveFile="$OUT/dashboard-driver.jsa" \
    -cp "$OUT/dashboard-driver.jar:$RUNTIME_JARS" >>"$WORK/cds.log" 2>&1 || rm -f "$OUT/dashboard-driver.jsa"
[ -s "$OUT/dashboard-driver.jsa" ] || { rm -f "$OUT/dashboard-driver.jsa"; echo "build.sh: no class-data sharing archive (drivers start without it): $(tail -n 3 "$WORK/cds.log")" >&2; }
echo "$STAMP" > "$OUT/.driver-stamp"
echo "build.sh: wrote $OUT/dashboard-driver.jar" >&2
