package io.chronex.bridge;

import io.chronex.api.Result;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/** What the bridge reads of the host's queues at start, and how its tailers are placed. */
final class BridgeJournal {
    private BridgeJournal() {
    }

    /** The journal index the host's last events excerpt answers, -1 when there is none. */
    static long answeredThrough(final SingleChronicleQueue events) {
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (ExcerptTailer back = events.createTailer().direction(TailerDirection.BACKWARD).toEnd();
             DocumentContext dc = back.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            final DecodeStatus status = EventCodec.read(dc.wire().bytes(), header, result);
            if (status != DecodeStatus.OK) {
                throw new IllegalStateException("the last excerpt of " + events.file() + " cannot be read (" + status
                    + "): the bridge cannot tell which commands were answered");
            }
            return header.commandIndex;
        }
    }

    /**
     * The last command at or before {@code index} that decodes (and so was the cluster's to answer, not the bridge's), -1
     * when there is none: what the cluster must have applied for the host's events to be its answers.
     */
    static long lastDecodableAtOrBefore(final SingleChronicleQueue commands, final long index) {
        if (index < 0) {
            return -1;
        }
        final io.chronex.api.Command command = new io.chronex.api.Command();
        final io.chronex.queues.Hops hops = new io.chronex.queues.Hops();
        try (ExcerptTailer back = commands.createTailer().direction(TailerDirection.BACKWARD)) {
            if (!back.moveToIndex(index)) {
                return -1;
            }
            while (true) {
                try (DocumentContext dc = back.readingDocument()) {
                    if (!dc.isPresent()) {
                        return -1;
                    }
                    if (io.chronex.queues.CommandCodec.read(dc.wire().bytes(), command, hops) == DecodeStatus.OK) {
                        return dc.index();
                    }
                }
            }
        }
    }

    /** Places a forward tailer just after journal index {@code index} (-1: at the start). */
    static void after(final ExcerptTailer tailer, final long index) {
        tailer.toStart();
        if (index < 0) {
            return;
        }
        if (!tailer.moveToIndex(index)) {
            throw new IllegalStateException("the commands journal " + tailer.queue().file() + " has no command "
                + Long.toHexString(index) + ", which its events answer: the two do not belong together");
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                throw new IllegalStateException("cannot read command " + Long.toHexString(index) + " of " + tailer.queue().file());
            }
        }
    }
}
