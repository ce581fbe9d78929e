package io.chronex.engine.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.logbuffer.Header;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandOrigin;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventHeader;
import io.chronex.queues.LedgerStatusFile;
import io.chronex.queues.SnapshotStore;
import io.chronex.queues.cluster.ClusterMessages;
import io.chronex.runtime.StorageGuard;
import net.openhft.chronicle.bytes.Bytes;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The engine as an Aeron Cluster service: applies each command the cluster's log delivers to the engine core,
 * keeps the node's own commands and events queues in log order ({@link NodeJournal}), and answers the bridge
 * that sent the command. Exactly once is built here, not by Aeron: each gateway host's commands carry its
 * journal index as a sequence, the last one applied per host is replicated state (in snapshots too), and a
 * command at or below it is a resend and is not applied again; a bridge that (re)connects says what it has
 * and is sent what it missed from the node's own events.
 */
public final class EngineClusteredService implements MemberService {
    private static final long LEDGER_EVERY_NANOS = 500_000_000L;
    /** bin/engine's defaults, which a member shares: a snapshot file every million commands, 256 MiB kept free. */
    public static final long DEFAULT_SNAPSHOT_EVERY = 1_000_000;

    /**
     * What bin/cluster-node sets beside the exchange: a checkpoint (state hash) in every {@code checkpointEvery}-th result, a
     * snapshot file every {@code snapshotEvery} commands (0: only with each cluster snapshot), and the free space to keep.
     */
    public record Options(long checkpointEvery, long snapshotEvery, long storageReserve) {
        /** bin/engine's defaults for the snapshot files and the reserve. */
        public static Options withCheckpointEvery(final long checkpointEvery) {
            return new Options(checkpointEvery, DEFAULT_SNAPSHOT_EVERY, StorageGuard.DEFAULT_RESERVE);
        }
    }

    private final DataDirectory data;
    private final EngineConfig config;
    /** The configuration as the journal records it (EngineConfigFile.text): every member's must be the same. */
    private final String configText;
    private final long checkpointEvery;
    private final long snapshotEvery;
    private final long storageReserve;
    private final Consumer<String> log;
    private MatchingEngine engine;
    /** Replicated: the last sequence (host journal index) applied per source (bridge id); -1 when none. */
    private final Long2LongHashMap lastApplied = new Long2LongHashMap(-1);
    private NodeJournal journal;
    private MissedResults missed;
    private Cluster cluster;
    private long nextCheckpointCount;
    /** The engine's command count at which the next snapshot file falls (Long.MAX_VALUE: none), the same on every member. */
    private long nextSnapshotCount;
    private MemberSnapshots snapshots;
    /** The journal index of the command the engine applied last, when it was applied live; -1 after a replayed one. */
    private long stateIndex = -1;
    /** Free space under DIR, looked at before each journal write; null until onStart. */
    private StorageGuard storage;
    /** The level last seen, for status and for saying each change once; any thread reads it. */
    private volatile StorageGuard.Level storageLevel = StorageGuard.Level.OK;
    /** Bytes the journal had written when the guard was last told. */
    private long toldGuard;

    private final Command command = new Command();
    private final Result result = new Result();
    private final EventHeader header = new EventHeader();
    private final CommandText text = new CommandText();
    private final CommandOrigin origin = new CommandOrigin();
    /** The command's bytes copied out of the log, where the journal's codec reads them. */
    private final Bytes<?> in = Bytes.allocateElasticDirect(512);
    /** RESULTs and WELCOMEs to the bridges. */
    private final Egress egress = new Egress(Egress.ENGINE_RETRY_NANOS);
    /** Commands this run applied: written by the service thread only, read by the member's status responder too. */
    private final AtomicLong applied = new AtomicLong();
    /** DATA/ledger for the monitor on this node (as bin/engine writes it); null without assets. */
    private LedgerStatusFile.Writer ledgerFile;
    private long nextLedgerNanos;
    /** The node journal's index of the last command answered live (-1: none in this run; a replay does not look them up). */
    private long lastCommandIndex = -1;
    private volatile Cluster.Role role = Cluster.Role.FOLLOWER;
    private long resends;
    /** Test faults ({@link TestFaults}); none outside tests. */
    private final TestFaults faults;

    /**
     * A service over the node's data directory (opened on the service's own thread, in onStart), for the exchange in
     * {@code config}, with a state-hash checkpoint every {@code checkpointEvery} commands as bin/engine writes them.
     */
    public EngineClusteredService(final DataDirectory data, final EngineConfig config, final long checkpointEvery,
                                  final Consumer<String> log) {
        this(data, config, Options.withCheckpointEvery(checkpointEvery), log);
    }

    /** As above, with the snapshot files and the storage reserve {@code options} says (bin/cluster-node's options). */
    public EngineClusteredService(final DataDirectory data, final EngineConfig config, final Options options,
                                  final Consumer<String> log) {
        this(data, config, options, TestFaults.NONE, log);
    }

    /** As above, with test faults ({@link TestFaults}). */
    EngineClusteredService(final DataDirectory data, final EngineConfig config, final Options options, final TestFaults faults,
                           final Consumer<String> log) {
        this.faults = faults;
        this.data = data;
        this.config = config;
        this.configText = io.chronex.queues.EngineConfigFile.text(config);
        this.checkpointEvery = options.checkpointEvery();
        this.snapshotEvery = options.snapshotEvery();
        this.storageReserve = options.storageReserve();
        this.log = log;
    }

    /** For tests: free space as a test says it is (a real disk cannot be filled and emptied at will); before onStart. */
    void storageGuard(final StorageGuard guard) {
        storage = guard;
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        this.cluster = cluster;
        egress.start(cluster);
        journal = new NodeJournal(data);
        missed = new MissedResults(journal);
        if (snapshotImage != null) {
            final ServiceSnapshot.Loaded loaded = ServiceSnapshot.load(snapshotImage, cluster.idleStrategy());
            engine = MatchingEngine.restore(loaded.engine());
            loaded.lastApplied().forEach(lastApplied::put);
            if (journal.heldThrough() < loaded.logPosition()) {
                throw new IllegalStateException("this node's journal in " + data.root() + " ends at log position "
                    + journal.heldThrough() + ", before the cluster snapshot it starts from (log position " + loaded.logPosition()
                    + "): the commands between cannot be written again. Start the node with an empty data directory and an empty"
                    + " cluster directory, so that it copies the whole log from the other members.");
            }
            log.accept("restored the cluster snapshot at log position " + loaded.logPosition() + " (" + engine.commandCount()
                + " commands applied, " + lastApplied.size() + " gateway hosts)");
        } else {
            engine = new MatchingEngine(config);
        }
        nextCheckpointCount = checkpointEvery > 0 ? (engine.commandCount() / checkpointEvery + 1) * checkpointEvery : Long.MAX_VALUE;
        nextSnapshotCount = snapshotEvery > 0 ? (engine.commandCount() / snapshotEvery + 1) * snapshotEvery : Long.MAX_VALUE;
        if (storage == null) {
            storage = StorageGuard.forDirectory(data.root(), storageReserve);
        }
        snapshots = new MemberSnapshots(data.snapshots(), journal.commands(), io.chronex.engine.MatchingEngine.configHash(config),
            new SnapshotStore(data.snapshots()), log);
        snapshots.keepFree(storage.reserve() / 2);
        ledgerFile = engine.assets().isEmpty() ? null : LedgerStatusFile.openOrWarn(data.root(), engine.assets(), log);
        log.accept("node journal holds the log through position " + journal.heldThrough() + "; the log is replayed from there on");
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer, final int offset,
                                 final int length, final Header logHeader) {
        final byte type = ClusterMessages.type(buffer, offset, length);
        if (type == ClusterMessages.COMMAND) {
            onCommand(session, buffer, offset, length, logHeader.position(), timestamp);
        } else if (type == ClusterMessages.HELLO) {
            onHello(session, ClusterMessages.source(buffer, offset), ClusterMessages.sequence(buffer, offset));
        } else {
            // Deterministic on every node, so it stops nothing: an unknown message is dropped, with a line in the log.
            log.accept("ignored a message of " + length + " bytes and type " + type + " from session " + session.id());
        }
    }

    private void onCommand(final ClientSession session, final DirectBuffer buffer, final int offset, final int length,
                           final long logPosition, final long timestamp) {
        final int source = ClusterMessages.source(buffer, offset);
        final long sequence = ClusterMessages.sequence(buffer, offset);
        if (sequence <= lastApplied.get(source)) {
            return; // a resend of a command already applied: its result was sent, or is found again by the bridge's HELLO
        }
        final long readNanos = System.nanoTime();
        in.clear();
        in.ensureCapacity(length);
        for (int i = ClusterMessages.HEADER_LENGTH; i < length; i++) {
            in.writeByte(buffer.getByte(offset + i));
        }
        header.hops.clear();
        lastApplied.put(source, sequence);
        if (CommandCodec.read(in, command, header.hops, text) != DecodeStatus.OK) {
            // A bridge answers what it cannot decode itself and never sends it; one that does anyway (another version?) still
            // gets the answer bin/engine gives, and the members' journals, which hold only commands, are left alone.
            log.accept("an undecodable command from gateway host " + source + " at sequence " + Long.toHexString(sequence)
                + " is answered as malformed");
            result.rejectMalformed();
            header.checkpoint = false;
            header.stateHash = 0;
            header.commandIndex = -1;
            answer(session, source, sequence, header, result);
            return;
        }
        final boolean held = journal.holds(logPosition);
        if (held && !journal.unansweredAt(logPosition)) {
            engine.apply(command, result); // replayed after a restart: already in this node's journal with its result
            if (engine.commandCount() == nextCheckpointCount) {
                nextCheckpointCount += checkpointEvery; // the checkpoint is in the journal already
            }
            if (engine.commandCount() == nextSnapshotCount) {
                nextSnapshotCount += snapshotEvery; // written by the run that answered it, if it could
            }
            stateIndex = -1; // its journal index is not looked up on replay
            countApplied();
            return;
        }
        // The log committed this command: it cannot be refused, only waited with (the cluster's log waits for this service).
        awaitSpace();
        if (!held) {
            journal.recordConfigurationIfFirst(configText, cluster.timeUnit().toNanos(timestamp));
        }
        header.commandIndex = held ? journal.lastCommandIndex() : journal.appendCommand(command, header,
            text, origin.set(source, sequence, logPosition));
        header.hops.engineReadNanos = readNanos;
        engine.apply(command, result);
        checkpoint();
        header.hops.engineDoneNanos = System.nanoTime();
        journal.appendResult(header, result);
        storage.wrote(journal.bytesWritten() - toldGuard);
        toldGuard = journal.bytesWritten();
        lastCommandIndex = header.commandIndex;
        stateIndex = header.commandIndex;
        countApplied();
        answer(session, source, sequence, header, result);
        if (engine.commandCount() == nextSnapshotCount) {
            nextSnapshotCount += snapshotEvery;
            snapshotFile("every " + snapshotEvery + " commands");
        }
        if (result.commandType == CommandType.SNAPSHOT && !result.isRejected()) {
            requestSnapshot();
        }
    }

    /**
     * bin/admin snapshot in cluster mode: the leader asks its consensus module for a cluster snapshot (Aeron's control
     * toggle, as ClusterTool's snapshot does), which every member then takes at the same log position. Not on replay.
     */
    private void requestSnapshot() {
        if (cluster.role() != Cluster.Role.LEADER) {
            return;
        }
        final AtomicCounter toggle = ClusterControl.findControlToggle(cluster.aeron().countersReader(), cluster.context().clusterId());
        if (toggle == null || !ClusterControl.ToggleState.SNAPSHOT.toggle(toggle)) {
            log.accept("a SNAPSHOT command was applied but the consensus module is busy (toggle " + (toggle == null ? "not found"
                : ClusterControl.ToggleState.get(toggle)) + "); no cluster snapshot this time");
            return;
        }
        log.accept("a SNAPSHOT command was applied: cluster snapshot requested");
    }

    /** A bridge (re)connected: resends the results of its commands it does not have, then says where it stands. */
    private void onHello(final ClientSession session, final int source, final long hasThrough) {
        final long last = lastApplied.get(source);
        long resent = 0;
        if (cluster.role() == Cluster.Role.LEADER && hasThrough < last) {
            // Only the leader's answers reach anyone; followers would read their journals for nothing.
            resent = missed.find(source, hasThrough, (sequence, h, r) -> answer(session, source, sequence, h, r));
            resends += resent;
        }
        egress.welcome(session, source, last, resent);
        log.accept("gateway host " + source + " connected (session " + session.id() + "): it has results through "
            + Long.toHexString(hasThrough) + ", the cluster applied its commands through " + Long.toHexString(last)
            + (resent > 0 ? "; resent " + resent + " results" : ""));
    }

    /** Sends one result to the bridge, naming the command by its host's journal index. */
    private void answer(final ClientSession session, final int source, final long sequence, final EventHeader h, final Result r) {
        egress.result(session, source, sequence, h, r);
    }

    private void checkpoint() {
        header.checkpoint = false;
        header.stateHash = 0;
        if (engine.commandCount() == nextCheckpointCount) {
            nextCheckpointCount += checkpointEvery;
            header.checkpoint = true;
            header.stateHash = MatchingEngine.sealedStateHash(MatchingEngine.sealSnapshot(engine.snapshotUnsealed()));
        }
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
        final long start = System.nanoTime();
        final byte[] state = engine.snapshot();
        ServiceSnapshot.write(snapshotPublication, cluster.idleStrategy(), cluster.logPosition(), lastApplied, state);
        log.accept(String.format(java.util.Locale.ROOT, "cluster snapshot at log position %d: %d bytes of engine state in %.1f ms",
            cluster.logPosition(), state.length, (System.nanoTime() - start) / 1e6));
        snapshotFile("with the cluster snapshot at log position " + cluster.logPosition());
    }

    /**
     * Hands the state after the last command applied to the snapshot writer, unless the disk is short (below half the reserve
     * a snapshot file would eat what the journals need) or that command's journal index is not known (it was replayed).
     */
    private void snapshotFile(final String why) {
        if (stateIndex < 0) {
            if (engine.commandCount() > 0) {
                log.accept("no snapshot file " + why + ": the last command was replayed from the log, and its journal index is"
                    + " not looked up");
            }
            return;
        }
        if (checkStorage().compareTo(StorageGuard.Level.CRITICAL) >= 0) {
            log.accept("no snapshot file " + why + ": " + storage.describe() + " (below half the reserve the journals come first)");
            return;
        }
        snapshots.take(stateIndex, engine, why);
    }

    /** The guard's level now; a change is said in the log once. */
    private StorageGuard.Level checkStorage() {
        final StorageGuard.Level level = storage.level(System.nanoTime());
        if (level != storageLevel) {
            final StorageGuard.Level was = storageLevel;
            storageLevel = level;
            log.accept("storage " + level.name().toLowerCase(java.util.Locale.ROOT) + " (was " + was.name().toLowerCase(
                java.util.Locale.ROOT) + "): " + storage.describe() + "; " + consequence(level));
        }
        return level;
    }

    private static String consequence(final StorageGuard.Level level) {
        return switch (level) {
            case OK -> "snapshot files are written again";
            case LOW -> "below the reserve: commands are still applied and journalled, snapshot files still written";
            case CRITICAL -> "below half the reserve: no snapshot files until space returns; commands still applied and journalled";
            case EXHAUSTED -> "below a quarter: this member applies nothing more until space returns (the log waits for it; the"
                + " other members go on)";
        };
    }

    /**
     * Before a journal write, below a quarter of the reserve: waits, on the service's own idle strategy (which keeps its
     * duties to Aeron going), until space returns. A write into a page the disk cannot back would kill the member with SIGBUS.
     */
    private void awaitSpace() {
        if (checkStorage() != StorageGuard.Level.EXHAUSTED) {
            return;
        }
        final IdleStrategy idle = cluster.idleStrategy();
        idle.reset();
        while (checkStorage() == StorageGuard.Level.EXHAUSTED) {
            idle.idle();
        }
    }

    /** The storage level last seen: ok, low, critical or exhausted; any thread. */
    @Override
    public String storage() {
        return storageLevel.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Snapshot files written by this run (tests). */
    MemberSnapshots snapshots() {
        return snapshots;
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
    }

    /**
     * Between log messages, on the service's thread: the queues' next pages touched ahead of the appends, and the money
     * totals into DATA/ledger about twice a second.
     */
    @Override
    public int doBackgroundWork(final long nowNs) {
        final int touched = journal != null && journal.touchAhead() ? 1 : 0;
        if (ledgerFile == null || nowNs - nextLedgerNanos < 0) {
            return touched;
        }
        nextLedgerNanos = nowNs + LEDGER_EVERY_NANOS;
        ledgerFile.publish(engine, engine.commandCount(), lastCommandIndex, System.currentTimeMillis());
        return 1;
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
        role = newRole;
        log.accept("role: " + newRole);
    }

    /** This node's role as the service last heard it. */
    @Override
    public Cluster.Role role() {
        return role;
    }

    @Override
    public void onTerminate(final Cluster cluster) {
        log.accept("terminating: " + applied.getPlain() + " commands applied by this run, " + resends + " results resent, "
            + egress.dropped() + " answers left for bridges to ask again");
        if (ledgerFile != null) {
            ledgerFile.publish(engine, engine.commandCount(), lastCommandIndex, System.currentTimeMillis());
            ledgerFile.close();
        }
        if (snapshots != null) {
            snapshots.close(); // before the journal: the writer reads the command it fingerprints
        }
        if (journal != null) {
            journal.close();
            journal = null; // no touching ahead on closed queues, should the container call doBackgroundWork again
        }
    }

    /** Commands this run applied (the replay included); any thread. */
    @Override
    public long applied() {
        return applied.getAcquire();
    }

    /** A release store, no fence: one writer, and the readers (status, shutdown) need no more than a recent value. */
    private void countApplied() {
        final long count = applied.getPlain() + 1;
        applied.setRelease(count);
        if (faults.any()) {
            faults.afterCommand(count, cluster.context().errorHandler());
        }
    }
}
