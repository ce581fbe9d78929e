package io.chronex.replay.audit;

import io.chronex.api.EngineConfig;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.TimeSeek;
import io.chronex.runtime.Args;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * bin/audit verify: re-executes the journal through a fresh engine built from the configuration and compares every
 * result with the one the engine recorded ({@link VerifyPart}). With more than one thread the journal is cut into
 * parts at snapshots (the engine's, and those earlier audit runs kept): each part starts from the snapshot at its
 * start and must reach, at its end, the state hash of the snapshot the next part starts from, so the parts chain
 * into one re-execution from the configuration. The first difference in journal order is printed. Reads only: the
 * queues are opened read-only; snapshots are kept in DIR/audit-index for the next run.
 */
final class Verify {
    /**
     * What a run found; {@code firstMismatch} is the journal index of the first difference, -1 when none;
     * {@code unanswered} is -1 when a difference stopped the run before the journal's end was reached.
     */
    record Outcome(long verified, long mismatches, long firstMismatch, long unanswered, long nanos, long replayed, int checkpointsEqual,
                   int parts, int threads) {
        String resultLine() {
            return "RESULT verified=" + verified + " mismatches=" + mismatches + " first_mismatch_index="
                + (firstMismatch < 0 ? "-" : "0x" + Long.toHexString(firstMismatch))
                + " unanswered=" + (unanswered < 0 ? "-" : Long.toString(unanswered)) + " checkpoints_equal=" + checkpointsEqual;
        }
    }

    private final EngineConfig config;
    private final JournalConfig journalConfig;
    private final PrintStream out;
    private final int threads;
    /** A part shorter than this many commands is not worth a restore ({@code -Dchronex.audit.verifyPart=N} for tests). */
    private final long minPart = Math.max(1, Long.getLong("chronex.audit.verifyPart", 250_000));

    Verify(final EngineConfig config, final PrintStream out) {
        this(config, out, Runtime.getRuntime().availableProcessors());
    }

    Verify(final EngineConfig config, final PrintStream out, final int threads) {
        this(config, null, out, threads);
    }

    /**
     * Re-executes from {@code config}, the configuration the history starts under; {@code journalConfig} is the journal's
     * records (null: read from the data directory when run).
     */
    Verify(final EngineConfig config, final JournalConfig journalConfig, final PrintStream out, final int threads) {
        this.config = config;
        this.journalConfig = journalConfig;
        this.out = out;
        this.threads = Math.max(1, threads);
    }

    /**
     * Refuses a configuration other than the one the data directory is pinned to
     * (snapshots/config.hash, written by the engine's first start): verifying under another would
     * test a different engine. A directory without the file (never served by bin/engine) is said.
     */
    static void checkPinned(final DataDirectory data, final EngineConfig config, final String configFile, final PrintStream out) {
        final Path pin = data.snapshots().resolve(SnapshotFiles.CONFIG_HASH);
        final String hash = Long.toHexString(MatchingEngine.configHash(config));
        if (!Files.exists(pin)) {
            out.println("note: " + data.shownAs() + " has no " + SnapshotFiles.CONFIG_HASH + " (no engine ever started on it): verifying"
                + " under " + configFile + " as given");
            return;
        }
        final String pinned;
        try {
            pinned = Files.readString(pin).trim();
        } catch (final IOException e) {
            throw new Args.UsageException("cannot read " + pin + ": " + e.getMessage());
        }
        if (!pinned.equals(hash)) {
            throw new Args.UsageException(configFile + " is not the configuration " + data.shownAs() + " was started with (its hash is "
                + hash + ", the directory is pinned to " + pinned + "): a re-execution under it would verify another engine");
        }
    }

    /** Re-executes the whole journal; prints the first difference if there is one. */
    Outcome run(final DataDirectory data) {
        return run(data, -1);
    }

    /**
     * Re-executes the journal and compares the results of the commands from journal index {@code from} on
     * (-1: all), starting from the newest snapshot taken before it (the commands between it and
     * {@code from} are applied, not compared). At every checkpoint the run passes (a state hash in a result, a
     * snapshot), the re-executed engine's state hash is compared with the recorded one. Prints the first
     * difference, with the last checkpoint whose state was still equal.
     */
    Outcome run(final DataDirectory data, final long from) {
        final long start = System.nanoTime();
        final KeptSnapshots kept = new KeptSnapshots(data, config, out);
        final NavigableMap<Long, Path> snapshots = Checkpoints.snapshots(data.snapshots(), kept.dir());
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            final SnapshotFiles.Expect expect = new SnapshotFiles.Expect(MatchingEngine.configHash(config), commands);
            final SnapshotFiles.Restored<MatchingEngine> snapshot = from < 0 ? null : SnapshotFiles.newestUpTo(data.snapshots(),
                from - 1, MatchingEngine::restore, expect, warning -> out.println("note: " + warning));
            final long after = snapshot == null ? -1 : snapshot.journalIndex();
            if (from >= 0) {
                out.printf("starting from %s, verifying from journal index 0x%x%n", snapshot == null
                    ? "a fresh engine (no snapshot before it)" : SnapshotFiles.name(after), from);
            }
            final List<VerifyPart> parts = plan(commands, events, after, data.snapshots(), snapshots, expect);
            parts.get(0).startWith(snapshot == null ? new MatchingEngine(config) : snapshot.state(), after);
            // Checkpoints inside parts: the engine's snapshots (a kept one says nothing the engine recorded; each costs a hash).
            final NavigableMap<Long, Path> engines = Checkpoints.snapshots(data.snapshots());
            parts.forEach(part -> part.checkAt(engines, expect));
            final VerifyPart.Shared shared = new VerifyPart.Shared(commands, events, from, snapshots, kept, expect,
                journalConfig != null ? journalConfig : JournalConfig.read(commands, JournalConfig.indexFile(data)));
            final int used = Math.min(threads, parts.size());
            if (used == 1) {
                parts.get(0).run(shared);
            } else {
                runInParallel(parts, shared, used);
            }
            return merge(parts, kept, System.nanoTime() - start, used);
        }
    }

    /**
     * The parts: cut at snapshots after {@code after} and before the last command answered, about four parts a thread
     * and each at least {@code minPart} commands long (within a day's file; a part crossing days is taken as long
     * enough), and only where the snapshot reads back whole (its state hash then taken once, and the bytes of the
     * engine's own kept, as the engine deletes old ones) and the result answering its command is found. One part
     * when one thread runs.
     */
    private List<VerifyPart> plan(final SingleChronicleQueue commands, final SingleChronicleQueue events, final long after,
                                  final Path engineSnapshots, final NavigableMap<Long, Path> snapshots,
                                  final SnapshotFiles.Expect expect) {
        final RollCycle roll = commands.rollCycle();
        final List<VerifyPart> parts = new ArrayList<>();
        final long lastAnswered = lastAnswered(events);
        VerifyPart.Boundary previous = null;
        long previousIndex = after;
        if (threads > 1 && lastAnswered > after) {
            final long first = after >= 0 ? after : commands.firstIndex();
            final long shortest = roll.toCycle(first) != roll.toCycle(lastAnswered) ? minPart
                : Math.max(minPart, (roll.toSequenceNumber(lastAnswered) - roll.toSequenceNumber(first)) / (threads * 4L));
            try (ExcerptTailer seek = events.createTailer()) {
                for (final var candidate : snapshots.subMap(after, false, lastAnswered, false).entrySet()) {
                    final long index = candidate.getKey();
                    final boolean sameDay = previousIndex >= 0 && roll.toCycle(previousIndex) == roll.toCycle(index);
                    final long length = sameDay ? roll.toSequenceNumber(index) - roll.toSequenceNumber(previousIndex)
                        : previousIndex < 0 ? roll.toSequenceNumber(index) : Long.MAX_VALUE;
                    if (length < shortest) {
                        continue;
                    }
                    final VerifyPart.Boundary boundary = boundary(candidate.getValue(), index, engineSnapshots, events, seek,
                        expect);
                    if (boundary != null) {
                        parts.add(new VerifyPart(parts.size(), previous, boundary));
                        previous = boundary;
                        previousIndex = index;
                    }
                }
            }
        }
        parts.add(new VerifyPart(parts.size(), previous, null));
        return parts;
    }

    /**
     * A snapshot where two parts can meet, or null (said) when it does not read back whole or the result answering
     * its command is not where a binary search over the events finds it.
     */
    private VerifyPart.Boundary boundary(final Path file, final long journalIndex, final Path engineSnapshots,
                                         final SingleChronicleQueue events, final ExcerptTailer seek, final SnapshotFiles.Expect expect) {
        final byte[] bytes;
        final long hash;
        try {
            bytes = SnapshotFiles.read(file, expect);
            hash = MatchingEngine.stateHashOf(bytes);
        } catch (final IOException | RuntimeException e) {
            out.println("note: not starting a part from " + file + ": " + e.getMessage());
            return null;
        }
        final long answer = VerifyPart.answering(events, seek, journalIndex);
        if (answer < 0) {
            out.printf("note: not starting a part from %s: the result answering journal index 0x%x is not where the events'"
                + " order puts it%n", file, journalIndex);
            return null;
        }
        return new VerifyPart.Boundary(journalIndex, answer, file, hash, file.getParent().equals(engineSnapshots) ? bytes : null);
    }

    /** The journal index the last events excerpt answers; -1 when there is none (or it does not decode). */
    private static long lastAnswered(final SingleChronicleQueue events) {
        final var key = TimeSeek.commandAnswered();
        try (ExcerptTailer tailer = events.createTailer().direction(TailerDirection.BACKWARD).toEnd();
             DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent() ? Math.max(-1, key.of(dc.wire().bytes())) : -1;
        }
    }

    /**
     * Each thread takes the next part not yet taken, in journal order, so the earlier parts finish first; once a part
     * has found a difference, no later part is started and those running stop.
     */
    private static void runInParallel(final List<VerifyPart> parts, final VerifyPart.Shared shared, final int threads) {
        final AtomicInteger next = new AtomicInteger();
        final ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
            final Thread thread = new Thread(task, "verify");
            thread.setDaemon(true);
            return thread;
        });
        try {
            final List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                running.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < parts.size(); i = next.getAndIncrement()) {
                        if (i > shared.firstDifferentPart.get()) {
                            return;
                        }
                        parts.get(i).run(shared);
                    }
                }));
            }
            for (final Future<?> thread : running) {
                thread.get();
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (final ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The parts' findings in journal order, up to the first difference (or failure, rethrown); prints what each said,
     * and takes back the snapshots that parts from there on kept.
     */
    private Outcome merge(final List<VerifyPart> parts, final KeptSnapshots kept, final long nanos, final int used) {
        long verified = 0;
        long replayed = 0;
        int equal = 0;
        long lastEqual = -1;
        String lastEqualWhat = null;
        for (int i = 0; i < parts.size(); i++) {
            final VerifyPart part = parts.get(i);
            out.print(part.said());
            verified += part.verified;
            replayed += part.replayed;
            equal += part.checkpoints.equal;
            if (part.checkpoints.lastEqual >= 0) {
                lastEqual = part.checkpoints.lastEqual;
                lastEqualWhat = part.checkpoints.lastEqualWhat;
            }
            if (part.failure != null || part.mismatch >= 0) {
                parts.subList(i, parts.size()).forEach(later -> later.keptAt.forEach(kept::withdraw));
                if (part.failure != null) {
                    throw part.failure;
                }
                Checkpoints.sayWhere(out, equal, lastEqual, lastEqualWhat);
                return new Outcome(verified, 1, part.mismatch, -1, nanos, replayed, equal, parts.size(), used);
            }
        }
        return new Outcome(verified, 0, -1, parts.get(parts.size() - 1).unanswered, nanos, replayed, equal, parts.size(), used);
    }
}
