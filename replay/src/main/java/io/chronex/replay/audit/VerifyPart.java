package io.chronex.replay.audit;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.api.ConfigChange;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.ExcerptWalk;
import io.chronex.queues.QueueGap;
import io.chronex.queues.Hops;
import io.chronex.queues.SnapshotEnvelope;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.TimeSeek;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One part of a verify run: the results from the one after {@code start} (a snapshot and the result answering its
 * command; null: the journal's start) up to the one at {@code end} (null: the events' end), re-executed from the
 * state after {@code start} and compared byte for byte in the events' encoding but for the recorded header's own
 * fields (journal index, routing, timestamps), where each field lies in the mapped file ({@link EventCodec#matches},
 * over an {@link ExcerptWalk}). Parts meet at events indices, so each result is read by exactly one part, and a
 * part must reach its end's state hash. Stops at its first difference. What it says is kept until the run prints the
 * parts in order.
 */
final class VerifyPart {
    /**
     * Where two parts meet: the snapshot taken after journal index {@code journalIndex}, read back once when the run
     * was planned ({@code hash} its state hash; {@code bytes} kept for the engine's own snapshots, which the engine
     * deletes as it writes new ones), and the events index of the result answering that command.
     */
    record Boundary(long journalIndex, long eventsIndex, Path file, long hash, byte[] bytes) {
        /** The snapshot's directory and name: snapshots/... for the engine's, snapshots-CONFIGHASH/... for a kept one. */
        String name() {
            return file.getParent().getFileName() + "/" + file.getFileName();
        }
    }

    /** What every part of a run reads and where it keeps snapshots. */
    static final class Shared {
        final SingleChronicleQueue commands;
        final SingleChronicleQueue events;
        /** Results answering journal indices from here on are compared; earlier ones applied only (-1: all compared). */
        final long from;
        final NavigableMap<Long, Path> snapshots;
        final KeptSnapshots kept;
        /** What a snapshot must agree with (its name, the configuration, this journal) to be started from or compared. */
        final SnapshotFiles.Expect expect;
        /** A snapshot kept every this many commands a part re-executes ({@code -Dchronex.audit.verifyKeepEvery=N} for tests). */
        final long keepEvery = Math.max(1, Long.getLong("chronex.audit.verifyKeepEvery", 1_000_000));
        /** The first part that found a difference or failed; later parts are not started, and those running stop. */
        final AtomicInteger firstDifferentPart = new AtomicInteger(Integer.MAX_VALUE);
        /** The journal's configuration records: which was taken where a part starts. */
        final JournalConfig journalConfig;

        Shared(final SingleChronicleQueue commands, final SingleChronicleQueue events, final long from,
               final NavigableMap<Long, Path> snapshots, final KeptSnapshots kept, final SnapshotFiles.Expect expect,
               final JournalConfig journalConfig) {
            this.expect = expect;
            this.journalConfig = journalConfig;
            this.commands = commands;
            this.events = events;
            this.from = from;
            this.snapshots = snapshots;
            this.kept = kept;
        }
    }

    private final int number;
    private final Boundary start;
    private final Boundary end;
    /** The first part's state: a fresh engine, or --from's snapshot (then {@code after} is its journal index). */
    private MatchingEngine engine;
    private long after = -1;
    /** Answers the journal's configuration records as the engine did, from the one taken before the part's start. */
    private JournalConfig.Follower configFollower;
    Checkpoints checkpoints;
    long verified;
    long replayed;
    /** The journal index of the difference found, -1 when none. */
    long mismatch = -1;
    /** Commands journalled after the last result (the last part only); -1 otherwise or when stopped by a difference. */
    long unanswered = -1;
    /** The journal the part reads, to tell damage from its end. */
    private net.openhft.chronicle.queue.ChronicleQueue commandQueue;
    /** What went wrong other than a difference (a snapshot gone, an I/O error), or null. */
    RuntimeException failure;
    /** Snapshots this part kept in DIR/audit-index (journal indices): withdrawn when an earlier part differs. */
    final List<Long> keptAt = new ArrayList<>();

    private final ByteArrayOutputStream said = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(said, true, StandardCharsets.UTF_8);
    private final Command command = new Command();
    private final Hops hops = new Hops();
    private final EventHeader header = new EventHeader();
    private final Result recorded = new Result();
    private final Result now = new Result();

    VerifyPart(final int number, final Boundary start, final Boundary end) {
        this.number = number;
        this.start = start;
        this.end = end;
        if (start != null) {
            after = start.journalIndex();
        }
    }

    /** The first part's engine: the state after journal index {@code after} (-1: a fresh engine). */
    void startWith(final MatchingEngine engine, final long after) {
        this.engine = engine;
        this.after = after;
    }

    /** The engine's own snapshots inside the part, compared where the part passes them (its end is compared anyway). */
    void checkAt(final NavigableMap<Long, Path> snapshots, final SnapshotFiles.Expect expect) {
        checkpoints = new Checkpoints(snapshots, after, end == null ? Long.MAX_VALUE : end.journalIndex(), expect);
    }

    /** What the part printed: notes, and the difference it found. */
    String said() {
        return said.toString(StandardCharsets.UTF_8);
    }

    /** Runs the part; whatever it throws is kept ({@link #failure}) for the run to report in journal order. */
    void run(final Shared shared) {
        try (ExcerptTailer commandTailer = shared.commands.createTailer(); ExcerptTailer eventTailer = shared.events.createTailer()) {
            final boolean started = start == null ? restoreFirst(shared.events, commandTailer, eventTailer)
                : restore(shared.expect, commandTailer, eventTailer);
            final JournalConfig.Entry taken = shared.journalConfig.takenThrough(after);
            configFollower = new JournalConfig.Follower(taken == null ? null : taken.config());
            if (started) {
                walk(shared, commandTailer, eventTailer);
            }
        } catch (final RuntimeException e) {
            failure = e;
        } finally {
            engine = null; // the run holds every part until the end: not every part's state
            if (mismatch >= 0 || failure != null) {
                shared.firstDifferentPart.accumulateAndGet(number, Math::min);
            }
        }
    }

    /**
     * Restores the state at the part's start from the snapshot's bytes as planned (read again if not kept), and checks
     * that the restored engine has the snapshot's state hash; then stands both tailers after the start. False (having
     * said why) when the restore does not give that state.
     */
    private boolean restore(final SnapshotFiles.Expect expect, final ExcerptTailer commandTailer, final ExcerptTailer eventTailer) {
        final byte[] bytes;
        try {
            bytes = start.bytes() != null ? start.bytes() : SnapshotFiles.read(start.file(), expect);
        } catch (final IOException | IllegalArgumentException e) {
            throw new IllegalStateException("snapshot " + start.file() + " could not be read again (" + e.getMessage() + "): it was there"
                + " when verify began; run verify again, or with --threads 1", e);
        }
        if (MatchingEngine.stateHashOf(bytes) != start.hash()) {
            throw new IllegalStateException("snapshot " + start.file() + " changed while verify ran; run verify again, or with"
                + " --threads 1");
        }
        engine = MatchingEngine.restore(bytes);
        if (engine.stateHash() != start.hash()) {
            out.printf("MISMATCH: the engine restored from %s has state hash %x, not the %x the snapshot records: a part cannot start"
                + " there (verify with --threads 1)%n", start.name(), engine.stateHash(), start.hash());
            mismatch = start.journalIndex();
            return false;
        }
        skipTo(commandTailer, start.journalIndex(), "the journal");
        skipTo(eventTailer, start.eventsIndex(), "the events queue");
        return true;
    }

    /** Moves the tailer past the excerpt at {@code index}. */
    private static void skipTo(final ExcerptTailer tailer, final long index, final String queue) {
        if (!tailer.moveToIndex(index)) {
            throw new IllegalStateException(queue + " has no excerpt at index 0x" + Long.toHexString(index) + " any more");
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                throw new IllegalStateException(queue + " ends before index 0x" + Long.toHexString(index));
            }
        }
    }

    /**
     * The first part: from the journal's start, or after --from's snapshot, whose command's result is found by
     * binary search over the events queue (they answer the journal in order) and checked to be it; where the search
     * does not land on it, by reading the results from the first.
     */
    private boolean restoreFirst(final SingleChronicleQueue events, final ExcerptTailer commandTailer, final ExcerptTailer eventTailer) {
        if (after < 0) {
            return true;
        }
        skipTo(commandTailer, after, "the journal");
        final long answer = answering(events, eventTailer, after);
        if (answer >= 0) {
            skipTo(eventTailer, answer, "the events queue");
            return true;
        }
        eventTailer.toStart();
        final EventHeader seek = new EventHeader();
        while (true) {
            final long index;
            try (DocumentContext dc = eventTailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return true;
                }
                index = dc.index();
                if (EventCodec.readHeader(dc.wire().bytes(), seek) != DecodeStatus.OK || seek.commandIndex <= after) {
                    continue;
                }
            }
            eventTailer.moveToIndex(index);
            return true;
        }
    }

    /** The events index of the result answering journal index {@code journalIndex}, found by binary search and checked; else -1. */
    static long answering(final SingleChronicleQueue events, final ExcerptTailer tailer, final long journalIndex) {
        final long found = TimeSeek.firstAtOrAfter(events, tailer, journalIndex, TimeSeek.commandAnswered());
        if (found < 0 || !tailer.moveToIndex(found)) {
            return -1;
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent() && TimeSeek.commandAnswered().of(dc.wire().bytes()) == journalIndex ? found : -1;
        }
    }

    /** The part's results, from where the tailers stand to the end's result (or the events' end). */
    private void walk(final Shared shared, final ExcerptTailer commandTailer, final ExcerptTailer eventTailer) {
        commandQueue = commandTailer.queue();
        try (ExcerptWalk commandWalk = new ExcerptWalk(commandTailer); ExcerptWalk eventWalk = new ExcerptWalk(eventTailer)) {
            long walked = 0;
            long untilKeep = shared.keepEvery; // a countdown, not a division per result
            while (eventWalk.next()) {
                if ((++walked & 0xFFFF) == 0 && shared.firstDifferentPart.get() < number) {
                    return; // an earlier part differs: what this one finds is never printed
                }
                final DecodeStatus status = EventCodec.readAnsweredAt(eventWalk.in(), eventWalk.offset(), eventWalk.length(), header);
                final boolean compare = shared.from < 0 || status != DecodeStatus.OK || header.commandIndex >= shared.from;
                mismatch = verifyOne(status, eventWalk, commandWalk, compare);
                if (mismatch >= 0) {
                    return;
                }
                if (compare) {
                    verified++;
                } else {
                    replayed++;
                }
                // The result was equal; the state after it is compared where a checkpoint says what it was.
                final boolean last = end != null && eventWalk.index() == end.eventsIndex();
                if (header.checkpoint && !checkpoints.checkRecorded(header.commandIndex, header.stateHash, engine, out)
                    || !checkpoints.check(header.commandIndex, engine, out)
                    || last && !checkpoints.checkSnapshot(header.commandIndex, end.name(), end.hash(), engine, out)) {
                    mismatch = header.commandIndex;
                    return;
                }
                if (last) {
                    return;
                }
                if (--untilKeep == 0) {
                    untilKeep = shared.keepEvery;
                    if (!shared.snapshots.containsKey(header.commandIndex) && shared.kept.save(header.commandIndex, engine,
                        SnapshotEnvelope.fingerprint(commandWalk.in(), commandWalk.offset(), commandWalk.length()), out)) {
                        keptAt.add(header.commandIndex);
                    }
                }
            }
            // A walk that stops while the queue goes on has met damage, not the end: said as such, never counted as unanswered.
            final QueueGap gap = QueueGap.after(eventTailer.queue(), eventWalk.index());
            if (gap != null) {
                out.println("MISMATCH: the events queue is damaged: " + gap.describe());
                mismatch = Math.max(0, header.commandIndex);
            } else if (end != null) {
                out.printf("MISMATCH: the events end before the result answering journal index 0x%x (events index 0x%x), which they"
                    + " had when this run began%n", end.journalIndex(), end.eventsIndex());
                mismatch = end.journalIndex();
            } else {
                unanswered = count(commandWalk);
            }
        }
    }

    /**
     * Reads the command the recorded event answers, applies it as the engine process does, and
     * compares; returns -1 when equal, else the journal index where they differ (having printed why).
     */
    private long verifyOne(final DecodeStatus eventStatus, final ExcerptWalk event, final ExcerptWalk commandWalk, final boolean compare) {
        final RandomDataInput bytes = event.in();
        final long at = event.offset();
        final int length = event.length();
        // The header only: the result is compared where it lies, and decoded in full only to print a difference.
        if (eventStatus != DecodeStatus.OK) {
            out.printf("MISMATCH: the recorded event at events index 0x%x does not decode (%s)%n", event.index(), eventStatus);
            return Math.max(0, header.commandIndex);
        }
        final boolean present = commandWalk.next();
        if (!present) {
            final QueueGap gap = QueueGap.after(commandQueue, commandWalk.index());
            if (gap != null) {
                out.printf("MISMATCH: the events answer journal index 0x%x next, but the journal is damaged: %s%n", header.commandIndex,
                    gap.describe());
                return header.commandIndex;
            }
        }
        if (!present || commandWalk.index() != header.commandIndex) {
            out.printf("MISMATCH: the events answer journal index 0x%x next, but the journal's next command is %s: a command"
                + " skipped or answered twice, or queues from different directories%n", header.commandIndex,
                present ? "0x" + Long.toHexString(commandWalk.index()) : "missing (the journal ends)");
            return header.commandIndex;
        }
        hops.clear();
        if (CommandCodec.readAt(commandWalk.in(), commandWalk.offset(), commandWalk.length(), command, hops) == DecodeStatus.OK) {
            engine.apply(command, now);
        } else if (ConfigRecord.is(commandWalk.in(), commandWalk.offset(), commandWalk.length())) {
            final ConfigChange change = configFollower.answer(commandWalk.in(), commandWalk.offset(), commandWalk.length(),
                commandWalk.index(), now);
            if (change != null) {
                engine = engine.reconfigured(change);
            }
        } else {
            now.rejectMalformed();
        }
        if (!compare || EventCodec.matches(bytes, at, length, now)) {
            return -1;
        }
        if (EventCodec.readAt(bytes, at, length, header, recorded) != DecodeStatus.OK) {
            out.printf("MISMATCH: the recorded event at events index 0x%x does not decode%n", event.index());
            return header.commandIndex;
        }
        printDifference(event.index());
        return header.commandIndex;
    }

    /** The command and both results in Result's canonical text, the differing fields listed first. */
    private void printDifference(final long eventsIndex) {
        out.printf("MISMATCH at journal index 0x%x (events index 0x%x)%n", header.commandIndex, eventsIndex);
        out.println("  command:  " + command);
        final String[] was = recorded.toString().split("\n");
        final String[] is = now.toString().split("\n");
        final StringBuilder fields = new StringBuilder();
        final String[] wasFields = was[0].split(" ");
        final String[] isFields = is[0].split(" ");
        for (int i = 0; i < Math.max(wasFields.length, isFields.length); i++) {
            final String a = i < wasFields.length ? wasFields[i] : "(none)";
            final String b = i < isFields.length ? isFields[i] : "(none)";
            if (!a.equals(b)) {
                fields.append(fields.length() == 0 ? "" : ", ").append(a).append(" -> ").append(b);
            }
        }
        for (int i = 1; i < Math.max(was.length, is.length); i++) {
            final String a = i < was.length ? was[i].trim() : "(none)";
            final String b = i < is.length ? is[i].trim() : "(none)";
            if (!a.equals(b)) {
                fields.append(fields.length() == 0 ? "" : ", ").append('[').append(a).append("] -> [").append(b).append(']');
            }
        }
        out.println("  differs:  " + (fields.length() == 0 ? "(in the encoding only)" : fields));
        out.println("  recorded: " + String.join("\n            ", was));
        out.println("  now:      " + String.join("\n            ", is));
    }

    /** Commands left in the journal from the walk on: journalled, not answered yet. */
    private static long count(final ExcerptWalk walk) {
        long n = 0;
        while (walk.next()) {
            n++;
        }
        return n;
    }
}
