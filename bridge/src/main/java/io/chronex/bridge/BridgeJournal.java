package io.chronex.bridge;

import io.chronex.api.Command;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/** What the bridge reads of the host's queues at start, and how its tailers are placed. */
final class BridgeJournal {
    private BridgeJournal() {
    }

    /**
     * The last command at or before {@code index} that decodes (and so was the cluster's to answer, not the bridge's), -1
     * when there is none: what the cluster must have applied for the host's events to be its answers.
     */
    static long lastDecodableAtOrBefore(final SingleChronicleQueue commands, final long index) {
        if (index < 0) {
            return -1;
        }
        final Command command = new Command();
        final Hops hops = new Hops();
        try (ExcerptTailer back = commands.createTailer().direction(TailerDirection.BACKWARD)) {
            if (!back.moveToIndex(index)) {
                return -1;
            }
            while (true) {
                try (DocumentContext dc = back.readingDocument()) {
                    if (!dc.isPresent()) {
                        return -1;
                    }
                    if (CommandCodec.read(dc.wire().bytes(), command, hops) == DecodeStatus.OK) {
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
