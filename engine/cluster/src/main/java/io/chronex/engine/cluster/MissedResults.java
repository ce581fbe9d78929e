package io.chronex.engine.cluster;

import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandOrigin;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Finds in a node's own journal the results of one gateway host's commands after a given sequence, for a bridge
 * that reconnected: Aeron never resends egress, so what a bridge missed (a leader change, its own restart) is
 * read back from the node's queues. Walks back from the end to the host's last command the bridge has, then
 * forward through commands and events together (one result per command, in the same order).
 */
final class MissedResults {
    /** Hears each missed result: the host's sequence, and the result with its header as the node wrote it. */
    interface Sink {
        void result(long sequence, EventHeader header, Result result);
    }

    private final NodeJournal journal;
    private final CommandOrigin origin = new CommandOrigin();
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();

    MissedResults(final NodeJournal journal) {
        this.journal = journal;
    }

    /** Hands every result of {@code source}'s commands with a sequence above {@code after} to sink, in order; returns how many. */
    long find(final int source, final long after, final Sink sink) {
        final long walked = walkBack(source, after);
        if (walked == 0) {
            return 0;
        }
        try (ExcerptTailer commands = journal.commands().createTailer().direction(TailerDirection.BACKWARD).toEnd();
             ExcerptTailer events = journal.events().createTailer().direction(TailerDirection.BACKWARD).toEnd()) {
            forwardFrom(commands, walked);
            forwardFrom(events, walked);
            long found = 0;
            for (long i = 0; i < walked; i++) {
                final long commandIndex;
                try (DocumentContext dc = commands.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    commandIndex = dc.index();
                    final Bytes<?> in = dc.wire().bytes();
                    CommandCodec.readOrigin(in, in.readPosition(), in.readRemaining(), origin);
                }
                try (DocumentContext dc = events.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    if (origin.source != source || origin.sequence <= after) {
                        continue;
                    }
                    if (EventCodec.read(dc.wire().bytes(), header, result) != DecodeStatus.OK || header.commandIndex != commandIndex) {
                        throw new IllegalStateException("the node's events queue does not follow its commands journal at command "
                            + Long.toHexString(commandIndex) + " (found a result for " + Long.toHexString(header.commandIndex) + ")");
                    }
                    sink.result(origin.sequence, header, result);
                    found++;
                }
            }
            return found;
        }
    }

    /** How many commands from the end back to (not including) the source's last one at or below {@code after}. */
    private long walkBack(final int source, final long after) {
        long walked = 0;
        try (ExcerptTailer back = journal.commands().createTailer().direction(TailerDirection.BACKWARD).toEnd()) {
            while (true) {
                try (DocumentContext dc = back.readingDocument()) {
                    if (!dc.isPresent()) {
                        return walked;
                    }
                    final Bytes<?> in = dc.wire().bytes();
                    if (CommandCodec.readOrigin(in, in.readPosition(), in.readRemaining(), origin) && origin.source == source
                        && origin.sequence <= after) {
                        return walked;
                    }
                    walked++;
                }
            }
        }
    }

    /** Turns a backward tailer standing at the end into a forward one standing at the n-th last excerpt. */
    private static void forwardFrom(final ExcerptTailer tailer, final long n) {
        long at = -1;
        for (long i = 0; i < n; i++) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                at = dc.index();
            }
        }
        tailer.direction(TailerDirection.FORWARD);
        if (at >= 0 && !tailer.moveToIndex(at)) {
            throw new IllegalStateException("cannot move back to excerpt " + Long.toHexString(at) + " of " + tailer.queue().file());
        }
    }
}
