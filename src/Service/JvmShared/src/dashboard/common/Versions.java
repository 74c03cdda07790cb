package dashboard.common;

import java.io.File;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Versions of what this JVM really loaded (docs/statistics.md, "Environment"): the runtime, and for a library the
 * implementation version of the package of one of its classes, else its jar's manifest ({@code Bundle-Version},
 * {@code Implementation-Version}), else the version in the jar's resolved file name. No hard-coded version strings.
 */
public final class Versions {
    private static final Pattern IN_FILE_NAME = Pattern.compile("-(\\d+(?:\\.\\d+)+(?:[.-][A-Za-z0-9]+)?)\\.jar$");

    private Versions() {
    }

    /** The JVM: {@code java.vm.name} and {@code java.runtime.version}, e.g. "OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1". */
    public static String jvm() {
        return System.getProperty("java.vm.name", "?") + " " + System.getProperty("java.runtime.version", "?");
    }

    /** The version of the library that holds class {@code className}, or "not on the class path" / "?" when it cannot be told. */
    public static String ofClass(String className) {
        Class<?> type;
        try {
            type = Class.forName(className, false, Versions.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return "not on the class path";
        }
        Package p = type.getPackage();
        if (p != null && p.getImplementationVersion() != null) {
            return p.getImplementationVersion();
        }
        try {
            CodeSource source = type.getProtectionDomain().getCodeSource();
            URL location = source == null ? null : source.getLocation();
            if (location == null) {
                return "?";
            }
            File file = new File(location.toURI());
            try (JarFile jar = new JarFile(file)) {
                Manifest manifest = jar.getManifest();
                if (manifest != null) {
                    Attributes main = manifest.getMainAttributes();
                    for (String key : new String[] {"Bundle-Version", "Implementation-Version"}) {
                        String value = main.getValue(key);
                        if (value != null && !value.isBlank()) {
                            return value.trim();
                        }
                    }
                }
            }
            Path real = file.toPath().toRealPath();
            Matcher m = IN_FILE_NAME.matcher(real.getFileName().toString());
            return m.find() ? m.group(1) : "?";
        } catch (Exception e) {
            return "?";
        }
    }

    /** A map that keeps insertion order, written by {@link Json#write} as a JSON object in that order. */
    public static Map<String, String> ordered() {
        return new LinkedHashMap<>();
    }
}
