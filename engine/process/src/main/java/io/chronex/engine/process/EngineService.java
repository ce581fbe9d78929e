package io.chronex.engine.process;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.ConfigChange;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.QueueGap;
import io.chronex.queues.SnapshotEnvelope;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.SnapshotStore;
import io.chronex.runtime.StorageGuard;
import io.chronex.runtime.WholeFile;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.LedgerStatusFile;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The engine on the queues: reads the commands journal in order, applies each command, and appends
 * its whole result as one events excerpt naming the command's journal index. On start it finds the
 * last command answered (the index in the last events excerpt) and replays the journal up to it
 * without writing, so after any crash every command is answered exactly once.
 */
public final class EngineService implements AutoCloseable {
    private final SingleChronicleQueue commands;
    private final SingleChronicleQueue events;
    private final SnapshotStore snapshots;
    /** Snapshot after every this many answered commands; 0 = only on request and at stop. */
    private final long snapshotEvery;
    /**
     * A checkpoint (the state hash in the result) after each command that brings the engine's command count to a
     * multiple of this; 0 = none. The count, not this instance's answers, so that the same journal gets its
     * checkpoints in the same places however often the engine was restarted.
     */
    private final long checkpointEvery;
    /** Replaced, never changed in place, by a configuration change the journal records (rare: an operator's restart). */
    private MatchingEngine engine;
    /** The journal's configuration records as they were at start. */
    private final JournalConfig journalConfig;
    /** The configuration records answered so far: which one is in force. */
    private final JournalConfig.Follower configFollower;
    /** DATA/snapshots/config-records, where the records are, so that the next start need not read the whole journal. */
    private final Path configIndexFile;
    /** Every record in the journal (the engine appends them all, and read those before it started): their indices. */
    private volatile List<Long> knownRecords;
    /** The journal index through which {@link #knownRecords} are all the records, as last written to the index file. */
    private long configIndexThrough = -1;
    private final ExcerptTailer commandTailer;
    private final ExcerptAppender eventAppender;
    private final Command command = new Command();
    private final Result result = new Result();
    private final EventHeader header = new EventHeader();
    private final long[] rejects = new long[RejectReason.values().length];

    private final long recoveredThrough;
    private final Path restoredSnapshot;
    private final long replayedCommands;
    private final long recoveryNanos;
    private final long replayNanos;
    private long lastAnswered;
    private long answered;
    private long lastSnapshotNanos;
    private volatile long lastSnapshotWriteNanos;
    private volatile long snapshotsWritten;
    private final Consumer<String> warn;
    private final Consumer<String> info;
    /** Free space under the data directory, looked at before each command is read: a result must never be written past it. */
    private StorageGuard storage;
    private boolean pausedForStorage;
    private long lastPollNanos = System.nanoTime();
    /** Hears of a snapshot that could not be written: an error in the log, never "written". */
    private final Consumer<String> error;
    /** The configuration's hash (as pinned in snapshots/config.hash), sealed into every snapshot written. */
    private final long configHash;
    /** The newest snapshot copied but not yet picked up by the writer thread, or null. */
    private final AtomicReference<PendingSnapshot> pendingSnapshot = new AtomicReference<>();
    private final ExecutorService snapshotWriter = Executors.newSingleThreadExecutor(task -> {
        final Thread thread = new Thread(task, "snapshot-writer");
        thread.setDaemon(true);
        return thread;
    });
    /** Commands left before the periodic snapshot; a countdown rather than a division per command. */
    private long untilSnapshot;
    /**
     * The engine's command count at which the next checkpoint falls (Long.MAX_VALUE: none): a comparison per command
     * rather than a division. The count rises by one per command applied, and a malformed command leaves it.
     */
    private long nextCheckpointCount;
    /** DATA/ledger, the money totals the monitor shows; null when the configuration has no assets or the file cannot be made. */
    private final LedgerStatusFile.Writer ledgerFile;
    /** Set by the agent when a command failed part way: the state may hold half of it, so its totals are not published. */
    private boolean failedPartWay;
    /** The sealed state the current command's checkpoint hashed, or null. */
    private byte[] checkpointState;

    /** The engine's state after the command at journalIndex, waiting to be written. */
    private record PendingSnapshot(long journalIndex, byte[] state, long pauseNanos) {
    }

    /** An engine service that snapshots only on request and at stop; warnings go to standard error. */
    public EngineService(final DataDirectory data, final EngineConfig config) {
        this(data, config, 0, System.err::println);
    }

    /**
     * Opens the queues and recovers: finds the last command answered, restores the newest good
     * snapshot at or before it (else starts from the configuration), and replays the journal from
     * there up to that command without writing anything.
     */
    public EngineService(final DataDirectory data, final EngineConfig config, final long snapshotEvery, final Consumer<String> warn) {
        this(data, config, snapshotEvery, warn, message -> { });
    }

    /** As above; {@code info} hears of each snapshot written while serving (from the snapshot-writer thread). */
    public EngineService(final DataDirectory data, final EngineConfig config, final long snapshotEvery, final Consumer<String> warn,
                         final Consumer<String> info) {
        this(data, config, snapshotEvery, DEFAULT_CHECKPOINT_EVERY, warn, info);
    }

    /** Checkpoints in the results every bin/engine --checkpoint-every commands unless said otherwise. */
    public static final long DEFAULT_CHECKPOINT_EVERY = 1_000_000;

    /** As above, with a checkpoint in the result of every {@code checkpointEvery}-th command the engine applies (0: none). */
    public EngineService(final DataDirectory data, final EngineConfig config, final long snapshotEvery, final long checkpointEvery,
                         final Consumer<String> warn, final Consumer<String> info) {
        this(data, config, snapshotEvery, checkpointEvery, warn, info, warn);
    }

    /** As above; {@code error} hears of each snapshot taken while serving that could not be written. */
    public EngineService(final DataDirectory data, final EngineConfig config, final long snapshotEvery, final long checkpointEvery,
                         final Consumer<String> warn, final Consumer<String> info, final Consumer<String> error) {
        this(data, config, snapshotEvery, checkpointEvery, warn, info, error, new SnapshotStore(data.snapshots()));
    }

    /** As above, writing snapshots through {@code store} (tests: a store whose writes fail). */
    EngineService(final DataDirectory data, final EngineConfig config, final long snapshotEvery, final long checkpointEvery,
                  final Consumer<String> warn, final Consumer<String> info, final Consumer<String> error, final SnapshotStore store) {
        final long start = System.nanoTime();
        this.error = error;
        this.checkpointEvery = checkpointEvery;
        this.info = info;
        this.commands = data.commands();
        this.events = data.events();
        this.snapshots = store;
        this.snapshotEvery = snapshotEvery;
        this.warn = warn;
        this.storage = StorageGuard.forDirectory(data.root(), StorageGuard.DEFAULT_RESERVE);
        this.untilSnapshot = snapshotEvery;
        this.commandTailer = commands.createTailer();
        this.eventAppender = events.createAppender();
        final int unfinished = snapshots.deleteUnfinished();
        if (unfinished > 0) {
            warn.accept("deleted " + unfinished + " unfinished snapshot file(s) in " + data.snapshots()
                + " (a stop while one was being written)");
        }
        this.recoveredThrough = lastAnsweredCommand(data);
        if (recoveredThrough < 0 && !snapshots.indices().isEmpty()) {
            // Snapshots are written only after answers: results were recorded and are gone, which a fresh start would hide.
            throw new IllegalStateException(data.root().resolve("events") + " holds no result, but " + data.snapshots() + " has snapshots"
                + " up to journal index " + Long.toHexString(snapshots.indices().get(0)) + ": the events queue was lost or replaced."
                + " Restore it from a copy taken with the engine stopped. To answer the whole journal again into a new events queue"
                + " instead (the same results, new timestamps; gateways that sent reports refuse to start until their"
                + " directories are moved aside), move the snapshots aside and start again.");
        }
        // The journal says which configuration it was written under once it records one; before that (a new directory, or
        // one written before records existed) the file does, checked against the hash pinned at the first start.
        this.configIndexFile = JournalConfig.indexFile(data);
        this.journalConfig = JournalConfig.read(commands, configIndexFile);
        this.knownRecords = journalConfig.entries().stream().map(JournalConfig.Entry::index).toList();
        final io.chronex.queues.ConfigRecordIndex onDisk = io.chronex.queues.ConfigRecordIndex.read(configIndexFile);
        if (onDisk == null || !onDisk.records().equals(knownRecords)) {
            writeConfigIndex(journalConfig.through()); // else it still holds: no fsync on the way to serving
        } else {
            configIndexThrough = onDisk.through();
        }
        final JournalConfig.Entry first = journalConfig.first();
        final EngineConfig initial = first == null ? config : first.config();
        this.configHash = checkConfiguration(data, initial, recoveredThrough >= 0, warn);
        final SnapshotFiles.Restored<MatchingEngine> restored = recoveredThrough < 0 ? null : SnapshotFiles.newestUpTo(data.snapshots(),
            recoveredThrough, MatchingEngine::restore, new SnapshotFiles.Expect(configHash, commands), warn);
        refuseArchivedHistory(data, restored);
        final MatchingEngine startState;
        if (restored == null) {
            startState = new MatchingEngine(initial, 4096);
            this.restoredSnapshot = null;
        } else {
            startState = restored.state();
            this.restoredSnapshot = restored.file();
            if (!commandTailer.moveToIndex(restored.journalIndex())) {
                throw new IllegalStateException("snapshot " + restored.file() + " was taken after journal index "
                    + Long.toHexString(restored.journalIndex()) + ", which the commands journal does not have");
            }
            try (DocumentContext dc = commandTailer.readingDocument()) {
                // Step over the command the snapshot already includes.
                if (!dc.isPresent()) {
                    throw new IllegalStateException("cannot read journal index " + Long.toHexString(restored.journalIndex()));
                }
            }
        }
        final JournalConfig.Entry taken = journalConfig.takenThrough(restored == null ? -1 : restored.journalIndex());
        final JournalReplay replay = new JournalReplay(startState, new JournalConfig.Follower(taken == null ? null : taken.config()));
        long replayed = 0;
        final long replayStart = System.nanoTime();
        if (recoveredThrough >= 0 && (restored == null || restored.journalIndex() < recoveredThrough)) {
            replayed = replay.replay(commandTailer, recoveredThrough, data.root());
        }
        this.engine = replay.engine();
        this.configFollower = replay.follower();
        this.replayedCommands = replayed;
        this.replayNanos = System.nanoTime() - replayStart;
        this.lastAnswered = recoveredThrough;
        // A checkpoint at the recovered count was written by the instance that answered it: the next one is after it.
        this.nextCheckpointCount = checkpointEvery > 0 ? (engine.commandCount() / checkpointEvery + 1) * checkpointEvery : Long.MAX_VALUE;
        final List<AssetSpec> assets = engine.assets();
        this.ledgerFile = assets.isEmpty() ? null : LedgerStatusFile.openOrWarn(data.root(), assets, warn);
        publishLedger(System.currentTimeMillis());
        this.recoveryNanos = System.nanoTime() - start;
    }

    /**
     * Recovery never reads an archived day: bin/admin archive moves only days before the newest snapshot. Should that snapshot
     * be gone or refused, starting from an older one or from the configuration would replay a journal that has lost its
     * first days, and answer the rest from a wrong state: refused, saying what would do.
     */
    private void refuseArchivedHistory(final DataDirectory data, final SnapshotFiles.Restored<MatchingEngine> restored) {
        final ArchivedCycles archived = ArchivedCycles.ofDataDirectory(data.root());
        final int through = archived.lastCycle("commands");
        if (through < 0 || restored != null && ArchivedCycles.cycleOfIndex(restored.journalIndex()) > through) {
            return;
        }
        throw new IllegalStateException("the journal's days through " + java.time.LocalDate.ofEpochDay(through) + " were archived to "
            + archived.other() + " (" + data.root().resolve(ArchivedCycles.FILE) + "), and "
            + (restored == null ? "no snapshot in " + data.snapshots() + " could be used (see the warnings above)"
                : "the snapshot that could be used, " + restored.file() + ", is before them")
            + ": recovery would need the archived days. Put back the newest snapshot, or the archived days (docs/operating.md,"
            + " Archiving past days)");
    }

    /**
     * Writes the ledger's totals after the last command answered into DATA/ledger (bin/engine: about twice a second, on the
     * engine thread; a few stores per asset, no allocation).
     */
    public void publishLedger(final long epochMillis) {
        if (ledgerFile == null) {
            return;
        }
        ledgerFile.publish(engine, engine.commandCount(), lastAnswered, epochMillis);
    }

    /**
     * The configuration is part of history: replaying the journal under another one would rewrite
     * it. The first start records a hash of the configuration; later starts must match it.
     */
    private static long checkConfiguration(final DataDirectory data, final EngineConfig config, final boolean answeredBefore,
                                           final Consumer<String> warn) {
        final long hash = MatchingEngine.configHash(config);
        final Path file = data.snapshots().resolve(SnapshotFiles.CONFIG_HASH);
        try {
            if (!Files.exists(file) && answeredBefore) {
                // Lost, not new: the results were answered under some configuration, and the snapshots' headers say which.
                final Long recorded = hashInSnapshots(data.snapshots());
                if (recorded == null) {
                    throw new IllegalStateException(file + " is missing, but " + data.root().resolve("events") + " holds results: the"
                        + " configuration they were answered under is not known, and replaying the journal under another would change"
                        + " history. Restore the file from a copy; if this configuration is certainly the one the directory ran"
                        + " under, write its hash there: echo " + Long.toHexString(hash) + " > " + file);
                }
                if (recorded != hash) {
                    throw new IllegalStateException(file + " is missing, and the snapshots say " + data.root() + " was answered"
                        + " under another configuration (config hash " + Long.toHexString(recorded) + ", this one "
                        + Long.toHexString(hash) + "). Use the original configuration or a new data directory.");
                }
                warn.accept(file + " was missing: written again from the snapshots' headers, which name this configuration");
                WholeFile.write(file, Long.toHexString(hash) + "\n");
            } else if (Files.exists(file)) {
                final String recorded = Files.readString(file).trim();
                if (!recorded.equals(Long.toHexString(hash))) {
                    throw new IllegalStateException("this configuration differs from the one " + data.root()
                        + " was started with (config hash " + Long.toHexString(hash) + ", recorded " + recorded
                        + "); replaying the journal under it would change history."
                        + " Use the original configuration or a new data directory. (A directory written before the journal recorded"
                        + " its configuration: start once with the original file, which records it, then restart with the new one"
                        + " and --apply-config-change.)");
                }
            } else {
                WholeFile.write(file, Long.toHexString(hash) + "\n");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot check " + file + ": " + e.getMessage(), e);
        }
        return hash;
    }

    /** The configuration hash in the newest snapshot header that reads whole, or null when no snapshot does. */
    private static Long hashInSnapshots(final Path dir) {
        for (final long index : SnapshotFiles.indices(dir)) {
            try {
                return SnapshotEnvelope.open(Files.readAllBytes(dir.resolve(SnapshotFiles.name(index)))).configHash();
            } catch (final IOException | IllegalArgumentException e) {
                // damaged or old: the next one may say
            }
        }
        return null;
    }

    /**
     * The journal index named by the last events excerpt, or -1 when nothing was answered yet.
     * Checks that the excerpt found really is the last: on a truncated queue Chronicle's backward
     * way to the end falls back to the start with only a warning, and recovering from there would
     * answer every command again.
     */
    private long lastAnsweredCommand(final DataDirectory data) {
        final long next;
        try (ExcerptTailer end = events.createTailer()) {
            next = end.toEnd().index();
        } catch (final IllegalStateException e) {
            // Chronicle's way to the end stops at an excerpt a writer killed mid-append left unfinished, when the queue's index
            // already names it ("NOT_REACHED index"): the last answer is then the last excerpt that reads.
            warn.accept("the events queue ends in an excerpt left unfinished by a stop mid-write (" + e.getMessage()
                + "): reading the queue through to find the last result");
            return lastAnsweredByReading(data);
        }
        if (next != 0 && events.rollCycle().toSequenceNumber(next) > 0) {
            // The last excerpt is the one before the end, in the same day's file: it must be there,
            // and nothing after it (nothing writes the events queue yet).
            try (ExcerptTailer tailer = events.createTailer()) {
                if (!tailer.moveToIndex(next - 1)) {
                    throw damagedEvents(data, "its last excerpt, " + Long.toHexString(next - 1) + ", is not there");
                }
                final long commandIndex;
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent() || dc.index() != next - 1) {
                        throw damagedEvents(data, "its last excerpt, " + Long.toHexString(next - 1) + ", cannot be read");
                    }
                    commandIndex = lastEvent(data, dc);
                }
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (dc.isPresent()) {
                        throw damagedEvents(data, "excerpt " + Long.toHexString(dc.index()) + " follows its end");
                    }
                }
                return commandIndex;
            }
        }
        // The end is the start of a day's file (or of the queue): read backwards into the days before.
        try (ExcerptTailer tailer = events.createTailer().direction(TailerDirection.BACKWARD).toEnd();
             DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent() ? lastEvent(data, dc) : -1;
        }
    }

    /** The journal index the last events excerpt that reads names, read from the start; -1 when none does. */
    private long lastAnsweredByReading(final DataDirectory data) {
        long last = -1;
        try (ExcerptTailer tailer = events.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return last;
                    }
                    last = lastEvent(data, dc);
                }
            }
        }
    }

    private long lastEvent(final DataDirectory data, final DocumentContext dc) {
        final DecodeStatus status = EventCodec.read(dc.wire().bytes(), header, result);
        if (status != DecodeStatus.OK) {
            throw new IllegalStateException("cannot read the last events excerpt (index " + Long.toHexString(dc.index()) + ") in "
                + data.root().resolve("events") + ": " + status);
        }
        return header.commandIndex;
    }

    private static IllegalStateException damagedEvents(final DataDirectory data, final String what) {
        return new IllegalStateException("the events queue in " + data.root().resolve("events") + " is damaged or truncated: " + what
            + ". Without its last excerpt the engine cannot tell which commands were answered. Restore the data directory"
            + " from a backup, or move events/ aside to answer the whole journal again (every client would then see its"
            + " answers a second time).");
    }

    /**
     * Benchmarks and tests only (-Dchronex.engine.slowDownMicros=N, default 0): every command's match is
     * made N µs longer by a spin, so that latency tools and the regression gate can be shown a slower
     * engine. A static final 0 lets the JIT drop the check entirely.
     */
    private static final long SLOW_DOWN_NANOS = Long.getLong("chronex.engine.slowDownMicros", 0) * 1_000L;

    private void decodeAndApply(final Bytes<?> in, final long index) {
        if (SLOW_DOWN_NANOS > 0) {
            final long until = System.nanoTime() + SLOW_DOWN_NANOS;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }
        // A command that fails to decode early must not inherit the previous command's routing.
        header.hops.clear();
        final long at = in.readPosition();
        final DecodeStatus status = CommandCodec.read(in, command, header.hops);
        if (status == DecodeStatus.OK) {
            engine.apply(command, result);
        } else if (ConfigRecord.is(in, at, in.readLimit() - at)) {
            answerConfiguration(in, at, index);
        } else {
            // Answered, so the journal position is not retried forever; nothing in the engine changes.
            result.rejectMalformed();
        }
    }

    /** A configuration record: taken (the engine then runs under it) or rejected, as recovery and the audit answer it. */
    private void answerConfiguration(final Bytes<?> in, final long at, final long index) {
        final ConfigChange change = configFollower.answer(in, at, in.readLimit() - at, index, result);
        if (result.isRejected()) {
            warn.accept("the configuration record at journal index " + Long.toHexString(index) + " is not taken (" + result.rejectReason
                + "): bin/audit config says why");
        }
        if (change != null) {
            engine = engine.reconfigured(change);
            info.accept("configuration change taken at journal index " + Long.toHexString(index) + ": "
                + String.join("; ", change.differences()));
        }
        in.readPosition(in.readLimit());
    }

    /**
     * Makes the journal record the configuration {@code file} (bin/engine's --config): the first time, as the one its
     * history is written under; after that it must equal the one recorded last, or, when {@code applyChange}, it is
     * recorded as a change the engine takes when it reaches it. Returns what was done, for the log.
     *
     * @throws ConfigMismatch when the file differs and no change was asked for, or the change cannot be made
     */
    public String recordConfiguration(final EngineConfig file, final boolean applyChange) {
        final EngineConfig recorded = journalConfig.latest();
        try (ExcerptAppender appender = commands.createAppender()) {
            if (recorded == null) {
                final long index = ConfigRecord.append(appender, ConfigRecord.Kind.INITIAL, epochNanos(), recordable(file));
                recorded(index);
                return "configuration recorded in the journal at index " + Long.toHexString(index);
            }
            final ConfigChange change = ConfigChange.between(recorded, file);
            if (change.isEmpty()) {
                return "configuration as recorded in the journal (index " + Long.toHexString(journalConfig.last().index()) + ")";
            }
            final String differences = "\n  " + String.join("\n  ", change.differences());
            if (!change.applicable()) {
                throw new ConfigMismatch("the configuration differs from the one the journal records (index "
                    + Long.toHexString(journalConfig.last().index()) + ") in ways the engine cannot change:\n  "
                    + String.join("\n  ", change.refusals()) + "\nStart with the recorded one (bin/audit config --data-dir DIR"
                    + " prints it), changed only in what a change may touch (docs/operating.md).");
            }
            if (!applyChange) {
                throw new ConfigMismatch("the configuration differs from the one the journal records (index "
                    + Long.toHexString(journalConfig.last().index()) + "):" + differences + "\nStart with the recorded one"
                    + " (bin/audit config --data-dir DIR prints it), or restart with --apply-config-change to journal the change.");
            }
            final long index = ConfigRecord.append(appender, ConfigRecord.Kind.CHANGE, epochNanos(), recordable(file));
            recorded(index);
            return "configuration change journalled at index " + Long.toHexString(index) + ":" + differences;
        }
    }

    /**
     * Writes the index of the journal's records ({@link io.chronex.queues.ConfigRecordIndex}): at start, after a record is
     * appended, and with each snapshot. A cache: one that cannot be written only means the next start reads the journal.
     */
    private synchronized void writeConfigIndex(final long through) {
        configIndexThrough = Math.max(configIndexThrough, through);
        try {
            Files.createDirectories(configIndexFile.getParent());
            new io.chronex.queues.ConfigRecordIndex(knownRecords, configIndexThrough).write(configIndexFile);
        } catch (final IOException | UncheckedIOException e) {
            warn.accept("cannot write " + configIndexFile + " (" + e.getMessage() + "): the next start reads the whole journal to"
                + " find its configuration records");
        }
    }

    /** A record appended by this engine: known, and the index file says so. */
    private void recorded(final long index) {
        final List<Long> known = new java.util.ArrayList<>(knownRecords);
        known.add(index);
        knownRecords = List.copyOf(known);
        writeConfigIndex(configIndexThrough);
    }

    /**
     * The configuration's text as a record holds it, checked to read back as this configuration (a record every reader
     * would refuse must never be journalled: a configuration whose text is larger than a record may be, say).
     */
    private static String recordable(final EngineConfig file) {
        final String text = EngineConfigFile.text(file);
        try {
            if (EngineConfigFile.parse("record", text.getBytes(java.nio.charset.StandardCharsets.UTF_8)).equals(file)) {
                return text;
            }
        } catch (final io.chronex.runtime.ConfigYaml.ConfigException e) {
            throw new ConfigMismatch("the configuration cannot be recorded in the journal: its text does not read back ("
                + e.getMessage() + ")");
        }
        throw new ConfigMismatch("the configuration cannot be recorded in the journal: its text reads back as another one");
    }

    /** The configuration file and the journal disagree: the engine does not start (bin/engine exits 2). */
    public static final class ConfigMismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConfigMismatch(final String message) {
            super(message);
        }
    }

    private static long epochNanos() {
        final java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** A command failed part way (the agent caught what poll threw): close publishes no totals from the half-changed state. */
    public void failedPartWay() {
        failedPartWay = true;
    }

    /** A stretch of the journal after the last command answered that cannot be read although commands follow it; null if none. */
    public QueueGap journalGap() {
        return QueueGap.after(commands, lastAnswered);
    }

    /** Keeps {@code reserve} bytes free under the data directory (bin/engine --storage-reserve); pauses below a quarter of it. */
    public void storageReserve(final long reserve) {
        storage = StorageGuard.forDirectory(commands.file().toPath().getParent(), reserve);
        snapshots.keepFree(reserve / 2);
    }

    /** For tests: free space as a test says it is (a real disk cannot be filled and emptied at will). */
    void storageGuard(final StorageGuard guard) {
        storage = guard;
    }

    /** Whether the engine is paused because the filesystem is nearly full. */
    public boolean pausedForStorage() {
        return pausedForStorage;
    }

    /** Processes the next command if there is one; returns whether it did. */
    public boolean poll() {
        // The clock of the last read or empty poll: no clock read of its own per command (the guard needs 50 ms resolution).
        if (storage.level(lastPollNanos) == StorageGuard.Level.EXHAUSTED) {
            lastPollNanos = System.nanoTime(); // paused: time must move for the guard to read the filesystem again
            // Before the command is read: applied and then not written, it would be answered twice after a restart.
            if (!pausedForStorage) {
                pausedForStorage = true;
                warn.accept("paused: " + storage.describe() + "; no command is read until space is freed (the engine goes on by"
                    + " itself, nothing is lost: commands wait in the journal)");
            }
            return false;
        }
        if (pausedForStorage) {
            pausedForStorage = false;
            warn.accept("resumed: " + storage.describe());
        }
        try (DocumentContext dc = commandTailer.readingDocument()) {
            if (!dc.isPresent()) {
                lastPollNanos = System.nanoTime();
                return false;
            }
            final long readNanos = System.nanoTime();
            lastPollNanos = readNanos;
            final long index = dc.index();
            decodeAndApply(dc.wire().bytes(), index);
            header.commandIndex = index;
            header.hops.engineReadNanos = readNanos;
            checkpoint();
            header.hops.engineDoneNanos = System.nanoTime();
            try (DocumentContext out = eventAppender.writingDocument()) {
                header.hops.engineAppendNanos = System.nanoTime();
                final long at = out.wire().bytes().writePosition();
                EventCodec.write(out.wire().bytes(), header, result);
                storage.wrote(out.wire().bytes().writePosition() - at + Integer.BYTES); // and the excerpt's header
            }
            lastAnswered = index;
            if (result.commandType != CommandType.CONFIGURATION) { // a configuration record is said in the log on its own
                rejects[result.rejectReason.ordinal()]++;
                answered++;
            }
        }
        final boolean periodic = snapshotEvery > 0 && --untilSnapshot == 0;
        if (periodic || (result.commandType == CommandType.SNAPSHOT && !result.isRejected())) {
            untilSnapshot = snapshotEvery;
            snapshotInBackground();
        }
        return true;
    }

    /**
     * Puts the state hash into this command's result when the engine's command count reaches a multiple of
     * checkpointEvery (a malformed command does not count: it changes nothing). The hash is that of the whole
     * state, a snapshot's checksum, so it costs a snapshot's copy and its hash on this thread (docs/recovery.md);
     * the state so copied becomes the periodic snapshot when one is due as well.
     */
    private void checkpoint() {
        header.checkpoint = false;
        header.stateHash = 0;
        checkpointState = null;
        if (engine.commandCount() == nextCheckpointCount) {
            nextCheckpointCount += checkpointEvery;
            checkpointState = MatchingEngine.sealSnapshot(engine.snapshotUnsealed());
            header.checkpoint = true;
            header.stateHash = MatchingEngine.sealedStateHash(checkpointState);
        }
    }

    /**
     * Copies the state after the last answered command and leaves its checksum, the write and the
     * fsync (most of the cost) to the snapshot-writer thread, so matching stops only for the copy.
     * Should the writer still be behind, the copy not yet started is replaced by this newer one.
     */
    private void snapshotInBackground() {
        final long start = System.nanoTime();
        final byte[] state = checkpointState != null ? checkpointState : engine.snapshotUnsealed();
        lastSnapshotNanos = System.nanoTime() - start;
        if (pendingSnapshot.getAndSet(new PendingSnapshot(lastAnswered, state, lastSnapshotNanos)) == null) {
            snapshotWriter.execute(this::writePendingSnapshot);
        }
    }

    /** On the snapshot-writer thread. A snapshot that cannot be written only means a longer replay after a crash. */
    private void writePendingSnapshot() {
        final PendingSnapshot snapshot = pendingSnapshot.getAndSet(null);
        if (snapshot == null) {
            return;
        }
        final long start = System.nanoTime();
        try {
            final Path file = write(snapshot.journalIndex(), MatchingEngine.sealSnapshot(snapshot.state()));
            writeConfigIndex(snapshot.journalIndex());
            lastSnapshotWriteNanos = System.nanoTime() - start;
            snapshotsWritten++;
            info.accept(String.format(java.util.Locale.ROOT,
                "snapshot %s written in %.2f ms (%d bytes); matching paused %.3f ms for the copy",
                file.getFileName(), lastSnapshotWriteNanos / 1e6, snapshot.state().length, snapshot.pauseNanos() / 1e6));
        } catch (final UncheckedIOException e) {
            error.accept(e.getMessage() + "; nothing was left in its place, the engine goes on, and recovery would start from"
                + " an older snapshot");
        }
    }

    /**
     * Seals the snapshot's file header and writes it (on the snapshot-writer thread while serving): the journal's
     * command at journalIndex is read once more for its fingerprint, so that nothing is added to the engine thread's
     * work per command. Throws an UncheckedIOException when the file could not be written whole.
     */
    private Path write(final long journalIndex, final byte[] sealed) {
        final java.util.OptionalLong fingerprint = SnapshotFiles.commandFingerprint(commands, journalIndex);
        if (fingerprint.isEmpty()) {
            final String message = "cannot write snapshot " + SnapshotFiles.name(journalIndex) + ": the commands journal has no"
                + " command at " + Long.toHexString(journalIndex) + " to fingerprint";
            throw new UncheckedIOException(message, new IOException(message));
        }
        return snapshots.write(journalIndex, configHash, fingerprint.getAsLong(), sealed);
    }

    /** Waits until every snapshot taken so far is on disk (or has failed with a warning). */
    public void awaitSnapshots() {
        try {
            snapshotWriter.submit(() -> { }).get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final ExecutionException e) {
            throw new IllegalStateException("snapshot writer failed", e.getCause());
        }
    }

    /**
     * Writes a snapshot of the state after the last answered command on this thread, once the
     * background ones are done (at stop: nothing else runs); null before the first command.
     *
     * @throws UncheckedIOException when it could not be written whole (nothing is left in its place)
     */
    public Path snapshot() {
        awaitSnapshots();
        if (lastAnswered < 0) {
            return null;
        }
        final long start = System.nanoTime();
        final Path file = write(lastAnswered, engine.snapshot());
        writeConfigIndex(lastAnswered);
        lastSnapshotNanos = System.nanoTime() - start;
        lastSnapshotWriteNanos = lastSnapshotNanos;
        snapshotsWritten++;
        return file;
    }

    /**
     * How long the last snapshot stopped the engine thread: the copy of the state for one taken
     * while serving, the copy, write and fsync for {@link #snapshot()}.
     */
    public long lastSnapshotNanos() {
        return lastSnapshotNanos;
    }

    /** How long writing the last snapshot to disk took (write and fsync; on the writer thread while serving). */
    public long lastSnapshotWriteNanos() {
        return lastSnapshotWriteNanos;
    }

    /** Snapshots on disk since start (a superseded or failed one does not count). */
    public long snapshotsWritten() {
        return snapshotsWritten;
    }

    /** The snapshot recovery started from, or null when it started from the configuration. */
    public Path restoredSnapshot() {
        return restoredSnapshot;
    }

    public long lastAnswered() {
        return lastAnswered;
    }

    /** Commands answered by this instance (not counting the replay). */
    public long answered() {
        return answered;
    }

    public long recoveredThrough() {
        return recoveredThrough;
    }

    public long replayedCommands() {
        return replayedCommands;
    }

    /** Of {@link #recoveryNanos()}, the time spent replaying the journal. */
    public long replayNanos() {
        return replayNanos;
    }

    public long recoveryNanos() {
        return recoveryNanos;
    }

    /** Answers by reject reason since start (index = ordinal; NONE counts accepted commands). */
    public long[] rejectCounts() {
        return rejects;
    }

    public long stateHash() {
        return engine.stateHash();
    }

    @Override
    public void close() {
        snapshotWriter.shutdown();
        try {
            // A snapshot being written is finished: it is cheaper than the replay it saves.
            snapshotWriter.awaitTermination(1, TimeUnit.MINUTES);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!failedPartWay) {
            publishLedger(System.currentTimeMillis()); // the totals after the last command answered
        }
        if (ledgerFile != null) {
            ledgerFile.close();
        }
        commands.close();
        events.close();
    }
}
