package io.chronex.replay.audit;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.ExcerptWalk;
import io.chronex.queues.Hops;
import io.chronex.queues.TimeSeek;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

/**
 * The journal's history as an auditor reads it: each recorded result with the command it answers
 * (and the ClOrdID texts the gateway journalled with it), in order, inside a window of receipt time.
 * The events answer the journal in order, so the commands are read in step with them.
 */
final class AnsweredCommands {
    /** Told about each answered command inside the window; everything is reused after it returns. */
    interface Visitor {
        /**
         * @param command null when the journalled excerpt does not decode (the engine answered it as malformed)
         * @param hops    the result's hops: the command's receipt time and every hop time
         */
        void answered(long journalIndex, long eventsIndex, Command command, CommandText text, Hops hops, Result result);
    }

    /** How many results were read and how many were in the window. */
    record Counts(long read, long inWindow, long unreadable) {
    }

    private AnsweredCommands() {
    }

    /** Walks every result whose command was received in [fromEpochNanos, toEpochNanos). */
    static Counts walk(final DataDirectory data, final long fromEpochNanos, final long toEpochNanos, final Visitor visitor) {
        return walk(data, -1, fromEpochNanos, toEpochNanos, visitor, () -> false);
    }

    /**
     * The same, starting at events index {@code startEventsIndex} when it is not -1 (the window's start is
     * then not searched for), and ending early once {@code done} says so after a result.
     */
    static Counts walk(final DataDirectory data, final long startEventsIndex, final long fromEpochNanos, final long toEpochNanos,
                       final Visitor visitor, final java.util.function.BooleanSupplier done) {
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        final Command command = new Command();
        final CommandText text = new CommandText();
        final Hops commandHops = new Hops();
        long read = 0;
        long inWindow = 0;
        long unreadable = 0;
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            final ExcerptTailer commandTailer = commands.createTailer();
            final ExcerptTailer eventTailer = events.createTailer();
            if (startEventsIndex >= 0) {
                if (!eventTailer.moveToIndex(startEventsIndex)) {
                    return new Counts(0, 0, 0);
                }
            } else if (fromEpochNanos != Long.MIN_VALUE) {
                // Straight to the window's start (a little before it: receipt times are only nearly in journal order).
                final long start = TimeSeek.firstAtOrAfter(events, eventTailer, fromEpochNanos - TimeSeek.SLACK_NANOS, TimeSeek.events());
                if (start < 0) {
                    return new Counts(0, 0, 0);
                }
                eventTailer.moveToIndex(start);
            }
            final long stopAt = toEpochNanos > Long.MAX_VALUE - TimeSeek.SLACK_NANOS ? Long.MAX_VALUE : toEpochNanos + TimeSeek.SLACK_NANOS;
            try (ExcerptWalk eventWalk = new ExcerptWalk(eventTailer); ExcerptWalk commandWalk = new ExcerptWalk(commandTailer)) {
                while (eventWalk.next()) {
                    read++;
                    // The header first: the receipt time says whether the rest is wanted (a window reads up to 3 times what it keeps).
                    if (EventCodec.readHeaderAt(eventWalk.in(), eventWalk.offset(), eventWalk.length(), header) != DecodeStatus.OK) {
                        unreadable++;
                        continue;
                    }
                    final long receipt = header.hops.receiptEpochNanos;
                    if (receipt >= stopAt) {
                        break; // past the window by more than the journal's disorder: nothing later can be in it
                    }
                    if (receipt < fromEpochNanos || receipt >= toEpochNanos) {
                        continue;
                    }
                    if (EventCodec.readAt(eventWalk.in(), eventWalk.offset(), eventWalk.length(), header, result) != DecodeStatus.OK) {
                        unreadable++;
                        continue;
                    }
                    inWindow++;
                    final boolean decoded = readCommand(commandWalk, header.commandIndex, command, text, commandHops);
                    visitor.answered(header.commandIndex, eventWalk.index(), decoded ? command : null, text, header.hops, result);
                    if (done.getAsBoolean()) {
                        break;
                    }
                }
            }
        }
        return new Counts(read, inWindow, unreadable);
    }

    /** Visits the results at the given events indexes (in journal order), the queues opened once; returns how many were read. */
    static long each(final DataDirectory data, final long[] eventsIndexes, final Visitor visitor) {
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        final Command command = new Command();
        final CommandText text = new CommandText();
        final Hops commandHops = new Hops();
        long read = 0;
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events();
             ExcerptWalk eventWalk = new ExcerptWalk(events.createTailer());
             ExcerptWalk commandWalk = new ExcerptWalk(commands.createTailer())) {
            for (final long eventsIndex : eventsIndexes) {
                if (!(eventWalk.moveToIndex(eventsIndex) && eventWalk.next() && eventWalk.index() == eventsIndex)) {
                    continue;
                }
                read++;
                if (EventCodec.readAt(eventWalk.in(), eventWalk.offset(), eventWalk.length(), header, result) == DecodeStatus.OK) {
                    final boolean decoded = readCommand(commandWalk, header.commandIndex, command, text, commandHops);
                    visitor.answered(header.commandIndex, eventsIndex, decoded ? command : null, text, header.hops, result);
                }
            }
        }
        return read;
    }

    /** The command at journalIndex: the walk's next one in the usual case, else found by index (a window, a gap). */
    private static boolean readCommand(final ExcerptWalk walk, final long journalIndex, final Command command, final CommandText text,
                                       final Hops hops) {
        text.clear();
        hops.clear();
        if (!(walk.next() && walk.index() == journalIndex)
            && !(walk.moveToIndex(journalIndex) && walk.next() && walk.index() == journalIndex)) {
            return false;
        }
        return CommandCodec.readAt(walk.in(), walk.offset(), walk.length(), command, hops, text) == DecodeStatus.OK;
    }
}
