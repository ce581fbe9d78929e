package io.chronex.engine.cluster;

import io.aeron.archive.ArchiveMarkFile;
import io.aeron.cluster.service.ClusterMarkFile;
import io.aeron.driver.exceptions.ActiveDriverException;
import io.chronex.api.EngineConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.AeronLeftovers;
import io.chronex.runtime.Args;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.StopSignal;
import io.chronex.runtime.StorageGuard;
import io.chronex.runtime.Tool;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

/** bin/cluster-node: one member of the cluster, the engine as an Aeron Cluster service, until SIGTERM. */
public final class ClusterNodeMain {
    static final String USAGE = """
        Usage: bin/cluster-node --id N --cluster FILE --config FILE [--data-dir DIR] [--checkpoint-every N]
                                [--snapshot-every N] [--storage-reserve SIZE] [--idle backoff|yield|busy]
                                [--service engine|echo]

        Runs member N of the cluster that FILE describes: Aeron's media driver, archive and consensus module,
        and the engine as the clustered service. The members elect a leader (Raft); the leader's log orders
        every gateway host's commands, and every member applies them to the same engine and appends each
        command and its result to its own DIR/commands and DIR/events, in log order, exactly once, so
        bin/monitor, bin/audit, bin/journal-summary and bin/latency-report work on any member's directory.

          --id N             this member's id in FILE (0, 1, 2 in the shipped file)
          --cluster FILE     the members, their hosts and ports, timeouts (config/cluster.yaml ships three)
          --data-dir DIR     this member's data directory (default data/node-N); Aeron's archive (the log,
                             snapshots) and consensus files go to DIR/cluster
          --config FILE      the exchange: symbols, accounts, risk (config/engine.yaml); every member
                             must be given the same file
          --checkpoint-every N  the result of every N-th command also carries the engine's state hash, as
                             bin/engine writes it (default 1000000; 0 = none); the same on every member
          --snapshot-every N  write an engine snapshot file to DIR/snapshots every N commands, in bin/engine's format,
                             for bin/audit and the monitor (default 1000000; 0 = only with each cluster snapshot, which
                             always writes one too). Written on a thread of its own; the member's own recovery stays
                             Aeron's cluster snapshot
          --storage-reserve SIZE  free space to keep on DIR's filesystem (default 256MiB). Below half of it no snapshot
                             file is written; below a quarter the member applies no further command until space returns
                             (the log waits for it; a write past a full disk would kill it). Said in the log and in
                             GET /status (storage=)
          --idle MODE        backoff (default), yield or busy: how Aeron's and the service's threads wait
          --service NAME     engine (default): the exchange as above. echo: a benchmark floor, not an exchange: the same
                             member, bridge and gateway path, but every command is answered at once as accepted (a
                             new order rests, nothing matches), nothing is written to DIR's queues and no missed result
                             is resent (bin/bench-cluster compares the two); never trade on it
          --help             this text

        A member started alone waits for the others; a restarted one replays the log and catches up with the
        leader by itself. A member whose service Aeron leaves without the leader's log (a catch-up that cannot
        join it) starts itself again in the same process, with a line in the log. SIGTERM (or Ctrl-C) leaves
        the cluster and exits 0. Logs go to standard output and DIR/engine.log; the pid is in DIR/engine.pid
        (a member is its directory's engine: bin/engine refuses to run beside it).
        """;

    private ClusterNodeMain() {
    }

    public static void main(final String[] argv) {
        Tool.run("cluster-node", USAGE, () -> run(argv));
    }

    /** The file in a member's cluster directory that names the member whose log it holds. */
    static final String MEMBER_FILE = "member";

    /**
     * Refuses a member whose host in the cluster file is not an address of this machine: it could not bind its ports, or
     * worse, on an address it can bind that the others do not reach it on, it would wait for ever. Said before anything starts.
     */
    static void checkHostIsHere(final ClusterConfig cluster, final int id) {
        final String host = cluster.member(id).host();
        final InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (final UnknownHostException e) {
            throw new Args.UsageException(cluster.file() + ": member " + id + "'s host '" + host + "' does not resolve here");
        }
        try {
            if (address.isLoopbackAddress() || address.isAnyLocalAddress() || NetworkInterface.getByInetAddress(address) != null) {
                return;
            }
        } catch (final SocketException e) {
            throw new Args.UsageException("cannot list this host's addresses to check member " + id + "'s host: " + e.getMessage());
        }
        throw new Args.UsageException(cluster.file() + ": member " + id + "'s host '" + host + "' (" + address.getHostAddress()
            + ") is not an address of this host: start member " + id + " on the host the cluster file names, or correct the file");
    }

    /**
     * Refuses a configuration other than the one the member's journal records: every member applies the same log to the
     * same exchange, and one that ran another would answer differently from the others (bin/engine refuses the same way).
     */
    static void checkConfiguration(final DataDirectory data, final EngineConfig config, final Path file) {
        final String recorded = NodeJournal.recordedConfiguration(data);
        if (recorded != null && !recorded.equals(EngineConfigFile.text(config))) {
            throw new Args.UsageException(file + " is not the configuration " + data.root() + "'s journal records (bin/audit config"
                + " --data-dir " + data.root() + " prints it): every member runs the one the cluster started with; give this member"
                + " that file");
        }
    }

    /**
     * Refuses a data directory that holds another member's log (DIR/cluster/member names it): its archive and journal are that
     * member's, and a second member on them would answer for it. The first start on a directory writes the file.
     */
    static void checkDirectoryIsMine(final Path dataRoot, final int id) throws IOException {
        final Path file = ClusterNode.clusterDir(dataRoot).resolve(MEMBER_FILE);
        if (Files.exists(file)) {
            final String text = Files.readString(file).strip();
            if (!text.equals(Integer.toString(id))) {
                throw new Args.UsageException(dataRoot + " is member " + text + "'s data directory (" + file + " says so): its log and"
                    + " journal are that member's. Give member " + id + " its own directory (an empty one copies the log from the others)");
            }
            return;
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, id + "\n");
    }

    /** How long a start waits for the mark files of a member killed a moment ago to go stale (Aeron: 10 s). */
    private static final long MARK_FILE_WAIT_MS = 30_000;

    /**
     * Starts the member; while Aeron still takes the mark files of a killed predecessor for a live process (their
     * heartbeat is at most 10 s old), waits and tries again, so that a script may restart a member right after kill -9.
     * Null when stopped (SIGTERM) while waiting.
     */
    private static ClusterNode startWhenFilesAreFree(final ClusterConfig cluster, final int id, final DataDirectory data,
                                                     final EngineConfig config, final EngineClusteredService.Options options,
                                                     final String idleName, final String serviceName, final TestFaults faults,
                                                     final RunFiles run, final StopSignal stop) {
        final long deadline = System.currentTimeMillis() + MARK_FILE_WAIT_MS;
        boolean said = false;
        clearLeftovers(cluster, id, data, run);
        while (true) {
            try {
                return ClusterNode.start(cluster, id, data, config, options, idleName, serviceName, faults,
                    line -> run.log("%s", line));
            } catch (final RuntimeException e) {
                if (!activeMarkFile(e) || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                if (!said) {
                    run.log("cluster-node %d: the cluster files in %s still look in use (a member killed less than 10 s ago?);"
                        + " waiting for them to go stale", id, ClusterNode.clusterDir(data.root()));
                    said = true;
                }
                if (stop.await(500)) {
                    return null; // stopped while waiting: nothing was started
                }
            }
        }
    }

    /**
     * What a member killed a moment ago left of Aeron's files, cleared so that this start need not wait for them to go stale:
     * the mark files in this member's cluster directory (the engine lock run holds says no live member uses them) and the
     * media driver directory when its cnc file names a process that is gone. The waiting above stays for anything else.
     */
    private static void clearLeftovers(final ClusterConfig cluster, final int id, final DataDirectory data, final RunFiles run) {
        final Path dir = ClusterNode.clusterDir(data.root());
        final int marks = AeronLeftovers.setAsideMarkFiles(dir.resolve(ClusterMarkFile.FILENAME),
            dir.resolve(ClusterMarkFile.markFilenameForService(0)), dir.resolve("archive").resolve(ArchiveMarkFile.FILENAME));
        final Path driverDir = cluster.aeronDirOf("node-" + id);
        final boolean driver = AeronLeftovers.clearDeadDriverDirectory(driverDir);
        if (marks > 0 || driver) {
            final String driverText = driver ? "; the media driver directory " + driverDir + " of a process that is gone removed" : "";
            run.log("cluster-node %d: %d Aeron mark files of the previous run set aside (*%s)%s", id, marks,
                AeronLeftovers.SET_ASIDE_SUFFIX, driverText);
        }
    }

    private static boolean activeMarkFile(final Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            // Agrona's MarkFile says "active mark file detected: FILE" (archive, consensus module and service container alike);
            // the media driver throws ActiveDriverException while its predecessor's heartbeat is fresh.
            final String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(java.util.Locale.ROOT);
            if (t instanceof ActiveDriverException || message.contains("active mark file")) {
                return true;
            }
        }
        return false;
    }

    private static int run(final String[] argv) throws Exception {
        final Args args = Args.parse(argv, "--id", "--cluster", "--data-dir", "--config", "--checkpoint-every", "--snapshot-every",
            "--storage-reserve", "--idle", "--service");
        args.required("--id", "--id 0");
        final int id = args.intNumber("--id", 0, 0, 127);
        final String idleName = args.choice("--idle", "backoff", IdleStrategies.CHOICES);
        final String serviceName = args.choice("--service", "engine", ClusterNode.SERVICES);
        final EngineClusteredService.Options options = new EngineClusteredService.Options(
            args.number("--checkpoint-every", 1_000_000, 0, Long.MAX_VALUE),
            args.number("--snapshot-every", EngineClusteredService.DEFAULT_SNAPSHOT_EVERY, 0, Long.MAX_VALUE),
            StorageGuard.parseSize(args.string("--storage-reserve", "256MiB")));
        final ClusterConfig cluster = ClusterConfig.load(args.readableFile("--cluster", "config/cluster.yaml"));
        cluster.member(id);
        checkHostIsHere(cluster, id);
        final EngineConfig config = EngineConfigFile.load(args.readableFile("--config", "config/engine.yaml"));
        final DataDirectory data = DataDirectory.openForTool(args.path("--data-dir", Path.of("data", "node-" + id)));
        final RunFiles run;
        try {
            run = RunFiles.start(data.root(), "engine");
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        try {
            checkDirectoryIsMine(data.root(), id);
            checkConfiguration(data, config, args.readableFile("--config", "config/engine.yaml"));
        } catch (final Args.UsageException e) {
            run.stop();
            throw e;
        }
        final StopSignal stop = StopSignal.register();
        try {
            run.log("cluster-node %d starting on %s: members %s, leader heartbeat timeout %d ms%s", id, data.root(), cluster.ids(),
                cluster.leaderHeartbeatTimeoutMs(), "echo".equals(serviceName) ? "; service echo (a benchmark floor)" : "");
            // Test faults, never set outside tests: this run's service has them, a restarted one does not (it must catch up).
            TestFaults faults = TestFaults.fromProperties();
            if (faults.any()) {
                run.log("cluster-node %d: TEST FAULTS %s until the member restarts itself", id, faults);
            }
            while (true) {
                try (ClusterNode node = startWhenFilesAreFree(cluster, id, data, config, options, idleName, serviceName,
                    faults, run, stop)) {
                    faults = TestFaults.NONE;
                    if (node == null) {
                        break;
                    }
                    run.log("cluster-node %d running (cluster files in %s)", id, node.clusterDirectory());
                    boolean stopped = false;
                    while (!stopped && node.stuck() == null) {
                        stopped = stop.await(200);
                    }
                    if (stopped) {
                        run.log("cluster-node %d stopping: %d commands applied by this run", id, node.service().applied());
                        break;
                    }
                    run.log("cluster-node %d: %s; starting the member again (it replays its log and joins the leader)", id,
                        node.stuck().getMessage());
                }
            }
            return 0;
        } finally {
            run.stop();
        }
    }
}
