package dashboard.service;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The command line of docs/jvm-service.md: --bind, --advertise, --port NAME=PORT (repeated), --security-dir DIR (the
 * host's security material, docs/security.md; required when a secure variant is asked for, else null).
 */
record ServiceOptions(String bind, String advertise, Map<VariantKind, Integer> ports, Path securityDirectory) {

    static ServiceOptions parse(String[] args) {
        String bind = "127.0.0.1";
        String advertise = "localhost";
        Path securityDirectory = null;
        Map<VariantKind, Integer> ports = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (arg) {
                case "--bind" -> bind = required(arg, value);
                case "--advertise" -> advertise = required(arg, value);
                case "--security-dir" -> securityDirectory = Path.of(required(arg, value));
                case "--port" -> {
                    String spec = required(arg, value);
                    int eq = spec.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--port wants NAME=PORT, got '" + spec + "'");
                    }
                    String name = spec.substring(0, eq);
                    VariantKind kind = VariantKind.parse(name).orElseThrow(
                            () -> new IllegalArgumentException("unknown variant '" + name + "' (this JVM serves "
                                    + VariantKind.values() + ")"));
                    ports.put(kind, port(spec.substring(eq + 1), name));
                }
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
            i++;
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
            throw new IllegalArgumentException("port of " + name + " must be 0..65535, got '" + text + "'");
        }
    }

    /** The host name as it goes into a URL (IPv6 literals in brackets). */
    String advertiseInUrl() {
        return advertise.contains(":") && !advertise.startsWith("[") ? "[" + advertise + "]" : advertise;
    }
}
