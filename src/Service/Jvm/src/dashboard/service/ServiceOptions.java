package dashboard.service;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;

/**
 * The command line of docs/jvm-service.md, parsed by Apache Commons CLI (Debian's libcommons-cli-java): --bind,
 * --advertise, --port NAME=PORT (repeated), --security-dir DIR (the host's security material, docs/security.md;
 * required when a secure variant is asked for, else null). Long options only, no abbreviations.
 */
record ServiceOptions(String bind, String advertise, Map<VariantKind, Integer> ports, Path securityDirectory) {

    private static final Options OPTIONS = new Options()
            .addOption(Option.builder().longOpt("bind").hasArg().argName("ADDRESS").desc("address to listen on (127.0.0.1)").build())
            .addOption(Option.builder().longOpt("advertise").hasArg().argName("HOST").desc("host name in the endpoints' URLs (localhost)").build())
            .addOption(Option.builder().longOpt("port").hasArg().argName("NAME=PORT").desc("serve variant NAME on PORT (repeated)").build())
            .addOption(Option.builder().longOpt("security-dir").hasArg().argName("DIR").desc("the host's security material").build());

    /**
     * Parses {@code args}. Throws {@link IllegalArgumentException} whose message names the offending option (an
     * unknown option, an option without its value, a malformed {@code --port}, a stray argument, a secure variant
     * without {@code --security-dir}); the service then writes {@code fail} and exits 2.
     */
    static ServiceOptions parse(String[] args) {
        CommandLine line;
        try {
            line = DefaultParser.builder().setAllowPartialMatching(false).build().parse(OPTIONS, args);
        } catch (UnrecognizedOptionException e) {
            throw new IllegalArgumentException("unknown option '" + e.getOption() + "' (the options are " + known() + ")");
        } catch (MissingArgumentException e) {
            throw new IllegalArgumentException("--" + e.getOption().getLongOpt() + " needs a value");
        } catch (ParseException e) {
            throw new IllegalArgumentException("bad command line: " + e.getMessage());
        }
        if (!line.getArgList().isEmpty()) {
            throw new IllegalArgumentException("unexpected argument '" + line.getArgList().get(0) + "' (the options are " + known() + ")");
        }
        String bind = required("--bind", line.getOptionValue("bind", "127.0.0.1"));
        String advertise = required("--advertise", line.getOptionValue("advertise", "localhost"));
        Path securityDirectory = line.hasOption("security-dir") ? Path.of(required("--security-dir", line.getOptionValue("security-dir"))) : null;
        Map<VariantKind, Integer> ports = new LinkedHashMap<>();
        String[] specs = line.getOptionValues("port");
        for (String spec : specs == null ? new String[0] : specs) {
            required("--port", spec);
            int eq = spec.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--port wants NAME=PORT, got '" + spec + "'");
            }
            String name = spec.substring(0, eq);
            VariantKind kind = VariantKind.parse(name).orElseThrow(
                    () -> new IllegalArgumentException("--port: unknown variant '" + name + "' (this JVM serves "
                            + VariantKind.values() + ")"));
            ports.put(kind, port(spec.substring(eq + 1), name));
        }
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("no variant to serve: give --port NAME=PORT at least once");
        }
        if (securityDirectory == null) {
            String secure = ports.keySet().stream().filter(VariantKind::isSecure).map(VariantKind::name).collect(Collectors.joining(", "));
            if (!secure.isEmpty()) {
                throw new IllegalArgumentException(secure + " need the security material: give --security-dir DIR (docs/security.md)");
            }
        }
        return new ServiceOptions(bind, advertise, java.util.Collections.unmodifiableMap(ports), securityDirectory);
    }

    private static String known() {
        return OPTIONS.getOptions().stream().map(o -> "--" + o.getLongOpt()).collect(Collectors.joining(", "));
    }

    private static String required(String option, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static int port(String text, String name) {
        try {
            int port = Integer.parseInt(text);
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port: port of " + name + " must be 0..65535, got '" + text + "'");
        }
    }

    /** The host name as it goes into a URL (IPv6 literals in brackets). */
    String advertiseInUrl() {
        return advertise.contains(":") && !advertise.startsWith("[") ? "[" + advertise + "]" : advertise;
    }
}
