package io.chronex.gateway;

import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.runtime.IdleStrategies;
import io.chronex.queues.DataDirectory;
import io.chronex.runtime.RunFiles;
import org.agrona.concurrent.IdleStrategy;
import sun.misc.Signal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** bin/gateway: runs one FIX 4.4 gateway on a data directory until SIGTERM. */
public final class GatewayMain {
    static final String USAGE = """
        Usage: bin/gateway --data-dir DIR --config FILE [--id N] [--port P] [--idle backoff|yield|busy]

        Runs a FIX 4.4 acceptor: clients log on with a SenderCompID configured for this gateway, their
        orders go to DIR/commands (the journal) and the engine's results come back from DIR/events as
        ExecutionReports. Everything sent is kept under DIR/gateways/N/, so a client that was away, or a
        gateway that was killed, catches up through the normal FIX resend: nothing lost, nothing twice.

          --data-dir DIR   the data directory the engine uses (default ./data)
          --config FILE    CompID, listen address, limits and sessions (YAML; see config/gateway.yaml and
                           docs/operating.md); symbols come from the engine configuration it names
          --id N           this gateway's id, 1..999 (default 1); it serves the sessions with 'gateway: N'
          --port P         TCP port (default: the config's port); 0 picks a free one, printed at start
          --idle MODE      backoff (default: spin, yield, then park up to 1 ms), yield (never sleeps but gives
                           way to anything runnable) or busy (spin; give it a core of its own)
          --help           this text

        SIGTERM (or Ctrl-C) logs every session out and exits 0. Logs go to standard output and to
        DIR/gateways/N/gateway.log; the pid is in DIR/gateways/N/gateway.pid while it runs.
        """;

    private GatewayMain() {
    }

    public static void main(final String[] args) throws Exception {
        Path dataDir = Path.of("data");
        Path configFile = null;
        int id = 1;
        int port = -1;
        String idle = "backoff";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--help", "-h" -> {
                    System.out.print(USAGE);
                    return;
                }
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, "--data-dir"));
                case "--config" -> configFile = Path.of(value(args, ++i, "--config"));
                case "--id" -> id = number(value(args, ++i, "--id"), "--id", 1, DataDirectory.MAX_GATEWAY_ID);
                case "--port" -> port = number(value(args, ++i, "--port"), "--port", 0, 65535);
                case "--idle" -> idle = value(args, ++i, "--idle");
                default -> fail("unknown option " + args[i]);
            }
        }
        if (configFile == null) {
            fail("--config FILE is required (for example config/gateway.yaml)");
        }
        if (!Files.isReadable(configFile)) {
            fail("cannot read config file " + configFile);
        }
        final IdleStrategy idleStrategy = IdleStrategies.byName(idle);
        if (idleStrategy == null) {
            fail("--idle must be " + IdleStrategies.NAMES + ", not '" + idle + "'");
        }
        final GatewayConfig config;
        try {
            config = GatewayConfig.load(configFile);
        } catch (final ConfigException e) {
            fail(e.getMessage());
            return;
        }
        if (config.sessionsOf(id).isEmpty()) {
            fail(configFile + " has no session for gateway " + id + " (sessions say 'gateway: N', default 1)");
        }
        final DataDirectory data;
        final RunFiles run;
        try {
            data = DataDirectory.open(dataDir);
            run = RunFiles.start(data.gatewayDir(id), "gateway");
        } catch (final IllegalStateException e) {
            fail(e.getMessage());
            return;
        }
        final Gateway gateway;
        try {
            gateway = new Gateway(config, id, port >= 0 ? port : config.port(), data, run::log);
        } catch (final java.net.BindException e) {
            run.stop();
            fail("cannot listen on " + config.bind() + ":" + (port >= 0 ? port : config.port()) + ": " + e.getMessage());
            return;
        } catch (final IllegalStateException e) {
            run.stop();
            fail(e.getMessage());
            return;
        }
        run.log("gateway %d started: chronex %s, Java %s, data dir %s, listening on %s:%d as %s, %d sessions, idle %s",
            id, version(), System.getProperty("java.version"), data.root(), config.bind(), gateway.port(), config.compId(),
            config.sessionsOf(id).size(), idle);

        final AtomicBoolean running = new AtomicBoolean(true);
        Signal.handle(new Signal("TERM"), signal -> running.set(false));
        Signal.handle(new Signal("INT"), signal -> running.set(false));
        long nextStatus = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        int loops = 0;
        try {
            while (running.get()) {
                idleStrategy.idle(gateway.doWork());
                if ((++loops & 1023) == 0 && System.nanoTime() >= nextStatus) {
                    run.log("status: %s", gateway.status());
                    nextStatus = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                }
            }
            run.log("gateway %d stopping: %s", id, gateway.status());
            run.log("return path latency: %s", gateway.latency());
        } finally {
            gateway.close();
            run.stop();
        }
        System.exit(0);
    }

    private static String version() {
        final String version = GatewayMain.class.getPackage().getImplementationVersion();
        return version == null ? "(development build)" : version;
    }

    private static int number(final String value, final String option, final int min, final int max) {
        try {
            final int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        fail(option + " must be a whole number from " + min + " to " + max + ", not '" + value + "'");
        return 0;
    }

    private static String value(final String[] args, final int index, final String option) {
        if (index >= args.length) {
            fail(option + " needs a value");
        }
        return args[index];
    }

    private static void fail(final String message) {
        System.err.println("gateway: " + message);
        System.err.println("Try 'bin/gateway --help'.");
        System.exit(2);
    }
}
