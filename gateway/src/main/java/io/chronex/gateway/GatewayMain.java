package io.chronex.gateway;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.JournalConfig;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.StorageGuard;
import io.chronex.runtime.Tool;

import java.io.IOException;
import java.net.BindException;
import java.nio.file.Path;
import java.util.Locale;

/** bin/gateway: runs one FIX 4.4 gateway on a data directory until SIGTERM. */
public final class GatewayMain {
    static final String USAGE = """
        Usage: bin/gateway --data-dir DIR --config FILE [--id N] [--port P] [--idle backoff|yield|busy]
                           [--storage-reserve SIZE]
               bin/gateway --rebuild-clordids --data-dir DIR --config FILE [--id N]

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
          --storage-reserve SIZE
                           free space to keep on the data directory's filesystem (default: the config's
                           storageReserve, else 256MiB). Below it new orders and replaces are refused (cancels
                           still go in); below half of it every request that would be journalled is refused; the
                           rejects' Text names storage. Below a quarter the gateway stops reading clients and
                           events until space is freed, then goes on by itself (docs/gateway.md, "When the disk
                           fills"); it does not start below a quarter
          --rebuild-clordids
                           do not serve: rebuild DIR/gateways/N/clordids.table (the ClOrdID text of every live
                           order) from the journal and the events the gateway answered, then exit 0. For a table
                           the gateway refused at start as damaged or disagreeing with the journal; the gateway
                           must be stopped
          --cluster FILE   (the script, bin/gateway) attach this host to the cluster FILE describes: starts
                           bin/bridge on DIR first unless it runs already, and waits up to 15 s for its first word
                           from the cluster: refused (FILE names another cluster) = exit 2, no gateway; no member
                           reachable yet = the gateway starts and orders wait in the journal. The gateway itself
                           works as ever, on DIR/commands and DIR/events, which the bridge links to the cluster
                           (docs/cluster.md)
          --bridge-id N    with --cluster: this host's id in the cluster's eyes (default 1; bin/bridge --help)
          --help           this text

        At start the gateway checks its files against each other and against the journal (docs/gateway.md,
        "What the gateway checks at start"); on any disagreement it exits 2 naming the file, what is wrong
        and what to do, and serves no one.

        SIGTERM (or Ctrl-C) logs every session out and exits 0. Logs go to standard output and to
        DIR/gateways/N/gateway.log; the pid is in DIR/gateways/N/gateway.pid while it runs.
        """;

    private GatewayMain() {
    }

    public static void main(final String[] argv) {
        Tool.run("gateway", USAGE, () -> run(argv));
    }

    /** Parses, then opens the gateway and runs its loop on its thread until SIGTERM or Ctrl-C; returns the exit code. */
    private static int run(final String[] argv) throws Exception {
        final Args args = Args.parse(argv, java.util.Set.of("--data-dir", "--config", "--id", "--port", "--idle",
            "--storage-reserve"),
            java.util.Set.of("--rebuild-clordids"), 0);
        final int id = args.intNumber("--id", 1, 1, DataDirectory.MAX_GATEWAY_ID);
        final int portOption = args.intNumber("--port", -1, 0, 65535);
        final String idleName = args.choice("--idle", "backoff", IdleStrategies.CHOICES);
        final Path configFile = args.readableFile("--config", "config/gateway.yaml");
        final GatewayConfig config = GatewayConfig.load(configFile);
        if (config.sessionsOf(id).isEmpty()) {
            throw new Args.UsageException(configFile + " has no session for gateway " + id + " (sessions say 'gateway: N', default 1)");
        }
        final String open = config.sessionsOf(id).stream().filter(s -> s.password() == null).map(GatewayConfig.Session::senderCompId)
            .collect(java.util.stream.Collectors.joining(", "));
        final String reserveOption = args.string("--storage-reserve", null);
        final long storageReserve = reserveOption != null ? StorageGuard.parseSize(reserveOption) : config.storageReserve();
        final int port = portOption >= 0 ? portOption : config.port();
        if (!args.flag("--rebuild-clordids")) {
            // A gateway that cannot serve is refused before it creates or touches the data directory.
            try {
                Framer.preflight(config, port);
            } catch (final IOException e) {
                // The likeliest holder of the port is this gateway already running: said so, as its lock would say it.
                final Path pidFile = args.path("--data-dir", Path.of("data")).resolve("gateways").resolve(Integer.toString(id))
                    .resolve("gateway.pid");
                final String running = runningPid(pidFile);
                throw new Args.UsageException("cannot listen on " + config.bind() + ":" + port + ": " + e.getMessage()
                    + (running == null ? "" : " (gateway " + id + " is already running on this data directory, pid " + running + ")"));
            } catch (final IllegalStateException e) {
                throw new Args.UsageException(e.getMessage());
            }
        }
        final DataDirectory data = DataDirectory.openForTool(args.path("--data-dir", Path.of("data")));
        // The engine answers under the configuration its journal records: a gateway naming symbols from another file would
        // route 55=ACME to another symbol. Checked once the journal records one (a gateway started first has nothing to check).
        JournalConfig.ofDirectory(data).forTool(data, config.engineConfigFile());
        final RunFiles run;
        try {
            run = RunFiles.start(data.gatewayDir(id), "gateway");
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        if (!open.isEmpty()) {
            // Fine on one machine, a hole on a network.
            run.log("warning: sessions %s have no password: anyone who can reach the port and knows the CompID can log on as them"
                + " (demo only; see config/gateway-production.yaml)", open);
        }
        try {
            if (args.flag("--rebuild-clordids")) {
                return rebuildClOrdIds(config, id, data, run);
            }
            return DutyCycle.run("gateway-" + id, () -> open(config, id, port, data, idleName, run, storageReserve),
                IdleStrategies.byName(idleName), message -> run.log("%s", message));
        } finally {
            run.stop();
        }
    }

    /** The pid in a pid file when that process is alive, else null. */
    private static String runningPid(final Path pidFile) {
        try {
            final String pid = java.nio.file.Files.readString(pidFile).trim();
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false) ? pid : null;
        } catch (final IOException | NumberFormatException e) {
            return null;
        }
    }

    private static int rebuildClOrdIds(final GatewayConfig config, final int id, final DataDirectory data, final RunFiles run) {
        try {
            run.log("%s", ClOrdIdCheck.rebuild(config, id, data));
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        return 0;
    }

    /** On the gateway's thread: Chronicle refuses a tailer that recovery used on another thread. */
    private static GatewayAgent open(final GatewayConfig config, final int id, final int port, final DataDirectory data,
                                     final String idleName, final RunFiles run, final long storageReserve) throws IOException {
        final StorageGuard storage = StorageGuard.forDirectory(data.root(), storageReserve);
        if (storage.recheck() == StorageGuard.Level.EXHAUSTED) {
            // Recovery writes (marks, cancels on disconnect): on a disk this full that could end the process half way.
            throw new Args.UsageException("not started: " + storage.describe() + ", below a quarter of the reserve; free space"
                + " (or lower --storage-reserve) and start again");
        }
        final Gateway gateway;
        try {
            gateway = new Gateway(config, id, port, data, run::log, storage);
        } catch (final BindException e) {
            throw new Args.UsageException("cannot listen on " + config.bind() + ":" + port + ": " + e.getMessage());
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        return new GatewayAgent(gateway, id, run, String.format(Locale.ROOT, "gateway %d started: chronex %s, Java %s, data dir %s,"
            + " listening on %s:%d (%s) as %s, %d sessions, idle %s, storage reserve %d MiB", id, Tool.version(),
            System.getProperty("java.version"), data.root(), config.bind(), gateway.port(),
            config.tls() == null ? "plain TCP" : "TLS: " + config.tls().describe(), config.compId(), config.sessionsOf(id).size(),
            idleName, storageReserve >> 20), config.tls());
    }

}
