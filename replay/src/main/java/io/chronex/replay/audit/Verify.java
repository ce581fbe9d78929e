package io.chronex.replay.audit;

import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.ExcerptWalk;
import io.chronex.queues.Hops;
import io.chronex.queues.SnapshotFiles;
import io.chronex.runtime.Args;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * bin/audit verify: re-executes the journal through a fresh engine built from the configuration
 * and compares every result with the one the engine recorded, byte for byte in the events'
 * encoding but for the recorded header's own fields (journal index, routing, timestamps), where each
 * field lies in the mapped file ({@link EventCodec#matches}, over an {@link ExcerptWalk}). Stops at
 * the first difference and prints the command and both results. Reads only: the queues are opened read-only.
 */
final class Verify {
    /**
     * What a run found; {@code firstMismatch} is the journal index of the first difference, -1 when none;
     * {@code unanswered} is -1 when a difference stopped the run before the journal's end was reached.
     */
    record Outcome(long verified, long mismatches, long firstMismatch, long unanswered, long nanos, long replayed, int checkpointsEqual) {
        String resultLine() {
            return "RESULT verified=" + verified + " mismatches=" + mismatches + " first_mismatch_index="
                + (firstMismatch < 0 ? "-" : "0x" + Long.toHexString(firstMismatch))
                + " unanswered=" + (unanswered < 0 ? "-" : Long.toString(unanswered)) + " checkpoints_equal=" + checkpointsEqual;
        }
    }

    private final EngineConfig config;
    private final PrintStream out;
    private final Command command = new Command();
    private final Hops hops = new Hops();
    private final EventHeader header = new EventHeader();
    private final Result recorded = new Result();
    private final Result now = new Result();

    Verify(final EngineConfig config, final PrintStream out) {
        this.config = config;
        this.out = out;
    }

    /**
     * Refuses a configuration other than the one the data directory is pinned to
     * (snapshots/config.hash, written by the engine's first start): verifying under another would
     * test a different engine. A directory without the file (never served by bin/engine) is said.
     */
    static void checkPinned(final DataDirectory data, final EngineConfig config, final Path configFile, final PrintStream out) {
        final Path pin = data.snapshots().resolve(SnapshotFiles.CONFIG_HASH);
        final String hash = Long.toHexString(MatchingEngine.configHash(config));
        if (!Files.exists(pin)) {
            out.println("note: " + data.root() + " has no " + SnapshotFiles.CONFIG_HASH + " (no engine ever started on it): verifying"
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
            throw new Args.UsageException(configFile + " is not the configuration " + data.root() + " was started with (its hash is "
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
     * {@code from} are applied, not compared). At every snapshot the run passes, the re-executed engine's
     * state hash is compared with the one the snapshot recorded: a checkpoint. Prints the first
     * difference, with the last checkpoint whose state was still equal.
     */
    Outcome run(final DataDirectory data, final long from) {
        final long start = System.nanoTime();
        final SnapshotFiles.Restored<MatchingEngine> snapshot = from < 0 ? null
            : SnapshotFiles.newestUpTo(data.snapshots(), from - 1, MatchingEngine::restore, warning -> out.println("note: " + warning));
        final MatchingEngine engine = snapshot == null ? new MatchingEngine(config) : snapshot.state();
        final long after = snapshot == null ? -1 : snapshot.journalIndex();
        final Checkpoints checkpoints = new Checkpoints(data.snapshots(), after);
        if (from >= 0) {
            out.printf("starting from %s, verifying from journal index 0x%x%n", snapshot == null
                ? "a fresh engine (no snapshot before it)" : SnapshotFiles.name(after), from);
        }
        long verified = 0;
        long replayed = 0;
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            final ExcerptTailer commandTailer = commands.createTailer();
            final ExcerptTailer eventTailer = events.createTailer();
            if (after >= 0) {
                positionAfter(after, commandTailer, eventTailer);
            }
            try (ExcerptWalk commandWalk = new ExcerptWalk(commandTailer); ExcerptWalk eventWalk = new ExcerptWalk(eventTailer)) {
                while (eventWalk.next()) {
                    final boolean compare = from < 0 || header(eventWalk) >= from;
                    final long mismatch = verifyOne(engine, eventWalk, commandWalk, compare);
                    if (mismatch >= 0) {
                        checkpoints.sayWhere(out);
                        return new Outcome(verified, 1, mismatch, -1, System.nanoTime() - start, replayed, checkpoints.equal);
                    }
                    if (compare) {
                        verified++;
                    } else {
                        replayed++;
                    }
                    if (header.checkpoint && !checkpoints.checkRecorded(header.commandIndex, header.stateHash, engine, out)) {
                        return new Outcome(verified, 1, header.commandIndex, -1, System.nanoTime() - start, replayed, checkpoints.equal);
                    }
                    if (!checkpoints.check(header.commandIndex, engine, out)) {
                        return new Outcome(verified, 1, header.commandIndex, -1, System.nanoTime() - start, replayed, checkpoints.equal);
                    }
                }
                return new Outcome(verified, 0, -1, count(commandWalk), System.nanoTime() - start, replayed, checkpoints.equal);
            }
        }
    }

    /** The journal index the event answers (Long.MAX_VALUE when its header does not decode). */
    private long header(final ExcerptWalk event) {
        return EventCodec.readHeaderAt(event.in(), event.offset(), event.length(), header) == DecodeStatus.OK
            ? header.commandIndex : Long.MAX_VALUE;
    }

    /** The journal index the event answers, read without consuming the excerpt. */
    private long header(final DocumentContext event) {
        final Bytes<?> bytes = event.wire().bytes();
        return EventCodec.readHeaderAt(bytes, bytes.readPosition(), bytes.readRemaining(), header) == DecodeStatus.OK
            ? header.commandIndex : Long.MAX_VALUE;
    }

    /** Moves both tailers past the command a snapshot was taken after, and past the event answering it. */
    private void positionAfter(final long journalIndex, final ExcerptTailer commandTailer, final ExcerptTailer eventTailer) {
        if (!commandTailer.moveToIndex(journalIndex)) {
            throw new IllegalStateException("the journal has no command at the snapshot's index 0x" + Long.toHexString(journalIndex));
        }
        try (DocumentContext dc = commandTailer.readingDocument()) {
            if (!dc.isPresent()) {
                throw new IllegalStateException("the journal ends at the snapshot's index 0x" + Long.toHexString(journalIndex));
            }
            // the snapshot's own command: already in the restored state
        }
        while (true) {
            final long index;
            try (DocumentContext dc = eventTailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return;
                }
                index = dc.index();
                if (header(dc) <= journalIndex) {
                    continue;
                }
            }
            eventTailer.moveToIndex(index);
            return;
        }
    }

    /**
     * Reads the command the recorded event answers, applies it as the engine process does, and
     * compares; returns -1 when equal, else the journal index where they differ (having printed why).
     */
    private long verifyOne(final MatchingEngine engine, final ExcerptWalk event, final ExcerptWalk commandWalk, final boolean compare) {
        final RandomDataInput bytes = event.in();
        final long at = event.offset();
        final int length = event.length();
        // The header only: the result is compared where it lies, and decoded in full only to print a difference.
        final DecodeStatus eventStatus = EventCodec.readHeaderAt(bytes, at, length, header);
        if (eventStatus != DecodeStatus.OK) {
            out.printf("MISMATCH: the recorded event at events index 0x%x does not decode (%s)%n", event.index(), eventStatus);
            return Math.max(0, header.commandIndex);
        }
        final boolean present = commandWalk.next();
        if (!present || commandWalk.index() != header.commandIndex) {
            out.printf("MISMATCH: the events answer journal index 0x%x next, but the journal's next command is %s: a command"
                + " skipped or answered twice, or queues from different directories%n", header.commandIndex,
                present ? "0x" + Long.toHexString(commandWalk.index()) : "missing (the journal ends)");
            return header.commandIndex;
        }
        hops.clear();
        if (CommandCodec.readAt(commandWalk.in(), commandWalk.offset(), commandWalk.length(), command, hops) == DecodeStatus.OK) {
            engine.apply(command, now);
        } else {
            now.rejectMalformed();
        }
        if (!compare) {
            return -1;
        }
        if (EventCodec.matches(bytes, at, length, now)) {
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
