package io.chronex.replay.audit;

import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.ExcerptWalk;
import io.chronex.queues.Hops;
import io.chronex.queues.TimeSeek;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One part of a verify run: the results answering the commands after journal index {@code after} up to {@code upTo},
 * re-executed from the state after {@code after} (the snapshot there, or the engine given) and compared byte for byte
 * in the events' encoding but for the recorded header's own fields (journal index, routing, timestamps), where each
 * field lies in the mapped file ({@link EventCodec#matches}, over an {@link ExcerptWalk}). Stops at its first
 * difference. What it says is kept until the run prints the parts in order.
 */
final class VerifyPart {
    /** What every part of a run reads and where it keeps snapshots. */
    static final class Shared {
        final EngineConfig config;
        final SingleChronicleQueue commands;
        final SingleChronicleQueue events;
        /** Results answering journal indices from here on are compared; earlier ones applied only (-1: all compared). */
        final long from;
        final NavigableMap<Long, Path> snapshots;
        final KeptSnapshots kept;
        /** A snapshot kept every this many commands a part re-executes ({@code -Dchronex.audit.verifyKeepEvery=N} for tests). */
        final long keepEvery = Math.max(1, Long.getLong("chronex.audit.verifyKeepEvery", 1_000_000));
        /** The first part that found a difference; later parts are not started, and those running stop. */
        final AtomicInteger firstDifferentPart = new AtomicInteger(Integer.MAX_VALUE);

        Shared(final EngineConfig config, final SingleChronicleQueue commands, final SingleChronicleQueue events, final long from,
               final NavigableMap<Long, Path> snapshots, final KeptSnapshots kept) {
            this.config = config;
            this.commands = commands;
            this.events = events;
            this.from = from;
            this.snapshots = snapshots;
            this.kept = kept;
        }
    }

    private final int number;
    private final long after;
    private final Path startFrom;
    private final long upTo;
    /** The state after {@code after}; restored from {@code startFrom} when the part starts if not given. */
    MatchingEngine engine;
    Checkpoints checkpoints;
    long verified;
    long replayed;
    /** The journal index of the difference found, -1 when none. */
    long mismatch = -1;
    /** Commands journalled after the last result (the last part only); -1 otherwise or when stopped by a difference. */
    long unanswered = -1;

    private final ByteArrayOutputStream said = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(said, true, StandardCharsets.UTF_8);
    private final Command command = new Command();
    private final Hops hops = new Hops();
    private final EventHeader header = new EventHeader();
    private final Result recorded = new Result();
    private final Result now = new Result();

    /**
     * @param after     the journal index the part's state is the state after (-1: the start of the journal)
     * @param startFrom the snapshot taken after {@code after}, or null when the engine is given
     * @param upTo      the last journal index whose result is the part's (Long.MAX_VALUE: to the end)
     */
    VerifyPart(final int number, final long after, final Path startFrom, final long upTo) {
        this.number = number;
        this.after = after;
        this.startFrom = startFrom;
        this.upTo = upTo;
    }

    /** The snapshots whose states the part compares with its own where it passes them: those of {@code snapshots} inside it. */
    void checkAt(final NavigableMap<Long, Path> snapshots) {
        checkpoints = new Checkpoints(snapshots, after, upTo);
    }

    /** What the part printed: notes, and the difference it found. */
    String said() {
        return said.toString(StandardCharsets.UTF_8);
    }

    void run(final Shared shared) {
        if (engine == null) {
            try {
                engine = MatchingEngine.restore(Files.readAllBytes(startFrom));
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot read " + startFrom + ": " + e.getMessage(), e);
            }
        }
        final ExcerptTailer commandTailer = shared.commands.createTailer();
        final ExcerptTailer eventTailer = shared.events.createTailer();
        if (after >= 0) {
            positionAfter(shared.events, commandTailer, eventTailer);
        }
        try (ExcerptWalk commandWalk = new ExcerptWalk(commandTailer); ExcerptWalk eventWalk = new ExcerptWalk(eventTailer)) {
            long sinceKept = 0;
            long last = after;
            while (eventWalk.next()) {
                if ((++sinceKept & 0xFFFF) == 0 && shared.firstDifferentPart.get() < number) {
                    return; // an earlier part differs: what this one finds is never printed
                }
                final DecodeStatus status = EventCodec.readAnsweredAt(eventWalk.in(), eventWalk.offset(), eventWalk.length(), header);
                if (status == DecodeStatus.OK && header.commandIndex > upTo) {
                    break;
                }
                final boolean compare = shared.from < 0 || status != DecodeStatus.OK || header.commandIndex >= shared.from;
                mismatch = verifyOne(status, eventWalk, commandWalk, compare);
                if (mismatch < 0) {
                    if (compare) {
                        verified++;
                    } else {
                        replayed++;
                    }
                    // The result was equal; the state after it is compared where a checkpoint says what it was.
                    if (header.checkpoint && !checkpoints.checkRecorded(header.commandIndex, header.stateHash, engine, out)
                        || !checkpoints.check(header.commandIndex, engine, out)) {
                        mismatch = header.commandIndex;
                    }
                }
                if (mismatch >= 0) {
                    shared.firstDifferentPart.accumulateAndGet(number, Math::min);
                    return;
                }
                last = header.commandIndex;
                if (sinceKept % shared.keepEvery == 0 && !shared.snapshots.containsKey(last)) {
                    shared.kept.save(last, engine);
                }
            }
            if (upTo != Long.MAX_VALUE && last != upTo) {
                out.printf("MISMATCH: the events end at journal index 0x%x, before 0x%x, which they answered when this run began%n",
                    last, upTo);
                mismatch = Math.max(0, last);
                shared.firstDifferentPart.accumulateAndGet(number, Math::min);
            } else if (upTo == Long.MAX_VALUE) {
                unanswered = count(commandWalk);
            }
        }
    }

    /**
     * Moves the command tailer past the command at {@code after} (in the state already), and the event tailer to the
     * result answering the next one, found by binary search over the events queue (they answer the journal in order).
     */
    private void positionAfter(final SingleChronicleQueue events, final ExcerptTailer commandTailer, final ExcerptTailer eventTailer) {
        if (!commandTailer.moveToIndex(after)) {
            throw new IllegalStateException("the journal has no command at the snapshot's index 0x" + Long.toHexString(after));
        }
        try (DocumentContext dc = commandTailer.readingDocument()) {
            if (!dc.isPresent()) {
                throw new IllegalStateException("the journal ends at the snapshot's index 0x" + Long.toHexString(after));
            }
        }
        final long next = TimeSeek.firstAtOrAfter(events, eventTailer, after + 1, TimeSeek.commandAnswered());
        if (next < 0) {
            eventTailer.toEnd();
        } else if (!eventTailer.moveToIndex(next)) {
            throw new IllegalStateException("cannot move to events index 0x" + Long.toHexString(next));
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
