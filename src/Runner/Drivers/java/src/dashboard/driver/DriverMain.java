package dashboard.driver;

import dashboard.common.Catalogue;
import dashboard.common.Json;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;
import sun.misc.Signal;

/**
 * The java client driver (docs/driver-protocol.md, version 1): reads a job and then levels on stdin, runs each level
 * as a closed loop of one thread per client, and writes ready, p (progress, once a second), s, level and fail records on stdout.
 * Command line (Commons CLI): {@code [--transport counting|jdk]}, the HTTP transport of the SOAP clients (default
 * {@code counting}); a bad option exits 2 with a message naming it on stderr.
 */
public final class DriverMain {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_BAD_JOB = 2;
    static final int EXIT_INTERRUPTED = 130;

    /** A level line with its own cancel switch; END stands for end of input or SIGINT. */
    private record Work(Level level, LevelControl control, String error) {
        static final Work END = new Work(null, null, null);
    }

    /** The body of the {@code ready} record. */
    private record Ready(String driver, String runtime, String library) {
    }

    /** The body of the {@code level} record: the level's index and clients, its start (Unix ms) and length (µs). */
    private record LevelDone(int index, int clients, long startedUnixMs, long elapsedUs, boolean cancelled) {
    }

    /** The body of the {@code fail} record. */
    private record Fail(String message) {
    }

    private static final Options OPTIONS = new Options().addOption(Option.builder().longOpt("transport").hasArg()
            .argName("counting|jdk").desc("HTTP transport of the SOAP clients (counting)").build());

    private final PrintStream out;
    private final MetroClients.Transport transport;
    private final BlockingQueue<Work> queue = new LinkedBlockingQueue<>();
    private volatile LevelControl latest;
    private volatile boolean interrupted;

    private DriverMain(PrintStream out, MetroClients.Transport transport) {
        this.out = out;
        this.transport = transport;
    }

    /** The {@code --transport} of {@code args}; IllegalArgumentException naming the bad option or value. */
    static MetroClients.Transport transport(String[] args) {
        try {
            var line = DefaultParser.builder().setAllowPartialMatching(false).build().parse(OPTIONS, args);
            if (!line.getArgList().isEmpty()) {
                throw new IllegalArgumentException("unexpected argument '" + line.getArgList().get(0) + "' (the option is --transport)");
            }
            return MetroClients.Transport.parse(line.getOptionValue("transport", "counting"));
        } catch (UnrecognizedOptionException e) {
            throw new IllegalArgumentException("unknown option '" + e.getOption() + "' (the option is --transport)");
        } catch (MissingArgumentException e) {
            throw new IllegalArgumentException("--" + e.getOption().getLongOpt() + " needs a value");
        } catch (ParseException e) {
            throw new IllegalArgumentException("bad command line: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        // The JDK keeps at most http.maxConnections idle keep-alive connections per server (default 5): raise it above
        // any level's clients (at most 300) so that, on the jdk transport, each client finds an idle connection in the
        // keep-alive cache instead of reconnecting per request (read once, when the cache class loads).
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", "1000");
        }
        // Name SAAJ's factory: the deprecated lookup it would use otherwise logs a warning for every new factory.
        if (System.getProperty("javax.xml.soap.SAAJMetaFactory") == null) {
            System.setProperty("javax.xml.soap.SAAJMetaFactory", "com.sun.xml.messaging.saaj.soap.SAAJMetaFactoryImpl");
        }
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 20),
                false, StandardCharsets.UTF_8);
        System.setOut(System.err); // only protocol records may reach standard output
        MetroClients.Transport transport;
        try {
            transport = transport(args);
        } catch (IllegalArgumentException e) {
            System.err.println("java-driver: " + e.getMessage());
            System.exit(EXIT_BAD_JOB);
            return;
        }
        System.exit(new DriverMain(out, transport).run());
    }

    private int run() {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Job job;
        Payload payload;
        String first;
        try {
            first = in.readLine();
        } catch (IOException e) {
            return refuse("cannot read the job line: " + e.getMessage());
        }
        if (first == null) {
            return refuse("end of input before the job line");
        }
        try {
            job = Job.parse(first);
            payload = Payload.of(job.payload());
        } catch (IllegalArgumentException e) {
            return refuse(e.getMessage());
        }

        // Which variants this driver calls is the catalogue's (client java); how, the variant's stack says.
        if (!Catalogue.variantsOf("java").contains(job.variant())) {
            return fail("the java driver does not call variant '" + job.variant() + "' (it calls "
                    + String.join(", ", Catalogue.variantsOf("java")) + ")");
        }
        ClientFactory factory;
        try {
            factory = switch (job.stack()) {
                case "metro", "wcfbindings" -> new MetroClients(job, payload, transport);
                case "ice" -> new IceClients(job, payload);
                case "aspnet" -> new GrpcClients(job, payload);
                default -> throw new IllegalArgumentException("the java driver serves the metro, wcfbindings (SOAP) and ice stacks and the gRPC variants, not '" + job.stack() + "'");
            };
        } catch (IllegalArgumentException e) {
            return refuse(e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return fail("cannot set up " + job.variant() + " clients: " + Failures.describe(e));
        }

        String runtime = "OpenJDK " + Runtime.version();
        out.println(Json.record("ready", new Ready("java", runtime, factory.library())));
        out.flush();

        Signal.handle(new Signal("INT"), s -> {
            interrupted = true;
            cancelLatest();
            queue.offer(Work.END);
        });
        Thread reader = new Thread(() -> readCommands(in), "stdin-reader");
        reader.setDaemon(true);
        reader.start();

        LevelRunner runner = new LevelRunner(factory, out);
        try {
            while (true) {
                Work work = queue.take();
                if (work == Work.END) {
                    break;
                }
                if (work.error() != null) {
                    return fail("bad command from the runner: " + work.error());
                }
                LevelRunner.Result r = runner.run(work.level(), work.control());
                if (r.noClientConnected() != null) {
                    return fail("no client could connect to " + job.address() + ": " + r.noClientConnected());
                }
                out.append(r.samples());
                out.println(Json.record("level", new LevelDone(work.level().index(), work.level().clients(),
                        r.startedUnixMs(), r.elapsedUs(), r.cancelled())));
                out.flush();
                if (interrupted) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            runner.closeAll();
            factory.close();
        }
        return interrupted ? EXIT_INTERRUPTED : EXIT_OK;
    }

    /** Reads level and cancel lines until end of input; a cancel applies to the last level read. */
    private void readCommands(BufferedReader in) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Object parsed = Json.parse(line);
                if (!(parsed instanceof Map<?, ?> map)) {
                    throw new IllegalArgumentException("a command line must be a JSON object");
                }
                Object type = map.get("type");
                if ("level".equals(type)) {
                    LevelControl control = new LevelControl();
                    Level level = Level.from(map);
                    latest = control;
                    queue.offer(new Work(level, control, null));
                } else if ("cancel".equals(type)) {
                    cancelLatest();
                } else {
                    throw new IllegalArgumentException("unknown command type '" + type + "'");
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("java-driver: bad input: " + e.getMessage());
            queue.offer(new Work(null, null, e.getMessage()));
            return;
        }
        cancelLatest(); // end of input: cancel what runs, then exit
        queue.offer(Work.END);
    }

    private void cancelLatest() {
        LevelControl c = latest;
        if (c != null) {
            c.cancel();
        }
    }

    private int refuse(String message) {
        System.err.println("java-driver: job not understood: " + message);
        return EXIT_BAD_JOB;
    }

    private int fail(String message) {
        System.err.println("java-driver: " + message);
        out.println(Json.record("fail", new Fail(message)));
        out.flush();
        return EXIT_FAILED;
    }
}
