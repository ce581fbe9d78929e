package io.chronex.engine.cluster;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusteredMediaDriver;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.service.ClusteredServiceContainer;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.chronex.api.EngineConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.ClusterCounters;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.MemberStatus;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.NoOpLock;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One member of the cluster in this process: Aeron's media driver, archive and consensus module (the Raft part),
 * and the service container running {@link EngineClusteredService} on the node's data directory (or, for benchmarks,
 * {@link EchoClusteredService}: {@code --service echo}). Aeron's own
 * files go to DIR/cluster/ (archive and consensus state); the driver's to the config's aeronDir.
 */
public final class ClusterNode implements AutoCloseable {
    /** The services {@code bin/cluster-node --service} runs, the default first. */
    public static final String[] SERVICES = {"engine", "echo"};

    private final ClusteredMediaDriver driver;
    private final ClusteredServiceContainer container;
    private final MemberService service;
    private final Path clusterDir;
    private final AtomicReference<Throwable> stuck;
    /** GET /status on the member's host and status port; null when it could not bind (the member runs without it). */
    private final StatusResponder status;

    private ClusterNode(final ClusteredMediaDriver driver, final ClusteredServiceContainer container, final MemberService service,
                        final Path clusterDir, final AtomicReference<Throwable> stuck, final StatusResponder status) {
        this.driver = driver;
        this.container = container;
        this.service = service;
        this.clusterDir = clusterDir;
        this.stuck = stuck;
        this.status = status;
    }

    /** An error after which this member cannot go on without starting again, or null. */
    public Throwable stuck() {
        return stuck.get();
    }

    /** Where a node keeps Aeron's cluster files under its data directory. */
    public static Path clusterDir(final Path dataRoot) {
        return dataRoot.resolve("cluster");
    }

    /**
     * Starts member {@code id} of {@code cluster} on {@code data}: it joins the others (or waits for them) and
     * elects a leader; the service replays the log from the last snapshot before it serves.
     */
    public static ClusterNode start(final ClusterConfig cluster, final int id, final DataDirectory data, final EngineConfig config,
                                    final long checkpointEvery, final String idleName, final Consumer<String> log) {
        return start(cluster, id, data, config, checkpointEvery, idleName, "engine", log);
    }

    /**
     * As {@link #start(ClusterConfig, int, DataDirectory, EngineConfig, long, String, Consumer)}, with the service named by
     * {@code serviceName} ({@link #SERVICES}): "engine", or "echo", the benchmark floor that matches nothing.
     */
    public static ClusterNode start(final ClusterConfig cluster, final int id, final DataDirectory data, final EngineConfig config,
                                    final long checkpointEvery, final String idleName, final String serviceName,
                                    final Consumer<String> log) {
        return start(cluster, id, data, config, EngineClusteredService.Options.withCheckpointEvery(checkpointEvery), idleName,
            serviceName, log);
    }

    /** As above, with the engine service's checkpoints, snapshot files and storage reserve as {@code options} says. */
    public static ClusterNode start(final ClusterConfig cluster, final int id, final DataDirectory data, final EngineConfig config,
                                    final EngineClusteredService.Options options, final String idleName, final String serviceName,
                                    final Consumer<String> log) {
        return start(cluster, id, data, config, options, idleName, serviceName, TestFaults.NONE, log);
    }

    /** As above, the engine service with test faults ({@link TestFaults}). */
    static ClusterNode start(final ClusterConfig cluster, final int id, final DataDirectory data, final EngineConfig config,
                             final EngineClusteredService.Options options, final String idleName, final String serviceName,
                             final TestFaults faults, final Consumer<String> log) {
        final ClusterConfig.Member me = cluster.member(id);
        final String aeronDir = cluster.aeronDirOf("node-" + id).toString();
        final Path clusterDir = clusterDir(data.root());
        final AtomicReference<Throwable> stuck = new AtomicReference<>();
        final ErrorHandler errors = error -> {
            log.accept("aeron: " + withCauses(error));
            if (String.valueOf(error.getMessage()).contains("Cluster log must be contiguous")) {
                // Aeron's service gave up joining the leader's log (seen once in ClusterKillTest, a restarted ex-leader
                // catching up): it stays without a log for good unless the member starts again, which ClusterNodeMain does.
                stuck.compareAndSet(null, error);
            }
        };
        final String terms = "term-length=" + cluster.termLength();

        final MediaDriver.Context driverContext = new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(IdleStrategies.clusterByName(idleName))
            .termBufferSparseFile(true)
            .publicationTermBufferLength(cluster.termLength())
            .ipcTermBufferLength(cluster.termLength())
            // Not dirDeleteOnStart: that skips Aeron's check for a live driver, so a second process given the same
            // directory would wipe a running one's. Without it a stale directory (a killed process's) is replaced anyway.
            .dirDeleteOnStart(false)
            .dirDeleteOnShutdown(true)
            .errorHandler(errors);
        final String localControl = "aeron:ipc?term-length=64k";
        final Archive.Context archiveContext = new Archive.Context()
            .aeronDirectoryName(aeronDir)
            .archiveDir(clusterDir.resolve("archive").toFile())
            .archiveId(id)
            .controlChannel("aeron:udp?endpoint=" + me.endpoint(me.archivePort()))
            .localControlChannel(localControl)
            .replicationChannel("aeron:udp?endpoint=" + me.host() + ":0")
            .recordingEventsEnabled(false)
            // fileSyncLevel (config/cluster.yaml): 0 leaves the log in the page cache, 1 fsyncs its data, 2 data and metadata
            .fileSyncLevel(cluster.fileSyncLevel())
            .catalogFileSyncLevel(cluster.fileSyncLevel())
            .threadingMode(ArchiveThreadingMode.SHARED)
            .idleStrategySupplier(() -> IdleStrategies.clusterByName(idleName))
            .errorHandler(errors);
        final AeronArchive.Context archiveClient = new AeronArchive.Context()
            .lock(NoOpLock.INSTANCE)
            .controlRequestChannel(localControl)
            .controlRequestStreamId(archiveContext.localControlStreamId())
            .controlResponseChannel(localControl)
            .aeronDirectoryName(aeronDir);
        final ConsensusModule.Context consensusContext = new ConsensusModule.Context()
            .clusterMemberId(id)
            .clusterMembers(cluster.clusterMembers())
            .clusterDir(clusterDir.toFile())
            .archiveContext(archiveClient.clone())
            .serviceCount(1)
            .fileSyncLevel(cluster.fileSyncLevel())
            .ingressChannel("aeron:udp?" + terms)
            .logChannel("aeron:udp?" + terms)
            .replicationChannel("aeron:udp?endpoint=" + me.host() + ":0")
            .leaderHeartbeatTimeoutNs(TimeUnit.MILLISECONDS.toNanos(cluster.leaderHeartbeatTimeoutMs()))
            .leaderHeartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(cluster.leaderHeartbeatIntervalMs()))
            .electionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(cluster.electionTimeoutMs()))
            .sessionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(cluster.sessionTimeoutMs()))
            .idleStrategySupplier(() -> IdleStrategies.clusterByName(idleName))
            .authenticatorSupplier(() -> new ClusterNameAuthenticator(cluster.name(), log))
            .errorHandler(errors);
        final MemberService service = switch (serviceName) {
            case "engine" -> new EngineClusteredService(data, config, options, faults, log);
            case "echo" -> new EchoClusteredService(log);
            default -> throw new IllegalArgumentException("no service " + serviceName + " (engine or echo)");
        };
        final ClusteredServiceContainer.Context serviceContext = new ClusteredServiceContainer.Context()
            .aeronDirectoryName(aeronDir)
            .archiveContext(archiveClient.clone())
            .clusterDir(clusterDir.toFile())
            .clusteredService(service)
            .serviceId(0)
            .idleStrategySupplier(() -> IdleStrategies.clusterByName(idleName))
            .errorHandler(errors);
        ClusteredMediaDriver driver = null;
        try {
            driver = ClusteredMediaDriver.launch(driverContext, archiveContext, consensusContext);
            final ClusteredServiceContainer container = ClusteredServiceContainer.launch(serviceContext);
            return new ClusterNode(driver, container, service, clusterDir, stuck,
                serveStatus(me, driver.mediaDriver().context().countersManager(), service, log));
        } catch (final RuntimeException e) {
            if (driver != null) {
                driver.close();
            }
            throw e;
        }
    }

    /**
     * The member's status responder on its own host and status port. A port it cannot bind (another process holds it)
     * is said in the log and the member runs without it: a member that trades but shows as down beats one that does not start.
     */
    private static StatusResponder serveStatus(final ClusterConfig.Member me, final CountersReader counters,
                                               final MemberService service, final Consumer<String> log) {
        final long pid = ProcessHandle.current().pid();
        final String where = me.endpoint(me.statusPort());
        try {
            final StatusResponder responder = new StatusResponder(new InetSocketAddress(me.host(), me.statusPort()),
                () -> new MemberStatus(me.id(), ClusterCounters.read(counters), service.applied(), pid, service.storage()));
            log.accept("status served on http://" + where + MemberStatus.PATH);
            return responder;
        } catch (final IOException | RuntimeException e) {
            log.accept("status NOT served on " + where + " (" + e + "): the member runs without it, and bin/cluster-status and"
                + " bin/monitor --cluster show it as down");
            return null;
        }
    }

    public MemberService service() {
        return service;
    }

    /** Where the member answers GET /status; null when it does not. */
    public InetSocketAddress statusAddress() {
        return status == null ? null : status.address();
    }

    /** DIR/cluster: the archive (the log, snapshots) and the consensus module's state. */
    public File clusterDirectory() {
        return clusterDir.toFile();
    }

    @Override
    public void close() {
        if (status != null) {
            status.close(); // first: it reads the driver's counters, which closing the driver unmaps
        }
        container.close();
        driver.close();
    }

    /**
     * An error with its causes on one line ("A; caused by B; caused by C"): Aeron wraps what our service throws (a start
     * that failed says only "failed to start service=0 ..."), and the reason is in the cause.
     */
    static String withCauses(final Throwable error) {
        final StringBuilder text = new StringBuilder(String.valueOf(error));
        Throwable cause = error.getCause();
        for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
            text.append("; caused by ").append(cause);
        }
        return text.toString();
    }
}
