package io.chronex.gateway.session;

import io.chronex.api.Command;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * A restarting gateway's look through the journal for inbound MsgSeqNums that the session state
 * file may have missed: a message is journalled first and its number recorded after, so a kill -9
 * between the two leaves the number only in the journal (every command carries the MsgSeqNum it
 * came from). Commands at or before a session's last sequence reset are passed over: their numbers
 * belong to the numbering the reset ended.
 */
public final class InboundSequenceScan {
    /** The state-file slot of the session that trades for an account, or -1 when it is none of this gateway's. */
    public interface Slots {
        int slotOf(long account);
    }

    private InboundSequenceScan() {
    }

    /**
     * Scans from the state file's checkpoint to the end of the journal, raising each session's next
     * expected MsgSeqNum past every number this gateway journalled for it since its last reset. Never from before
     * {@code floor} (-1: none), a gateway checkpoint's journal index: the state file held every number journalled up to
     * there, and the days before it may be archived.
     *
     * @return the number of journal entries read
     */
    public static long scan(final ExcerptTailer journal, final SessionStateFile state, final long floor, final int gatewayId,
                            final Slots slots) {
        final long from = state.scanFrom() < 0 ? -1 : Math.max(state.scanFrom(), floor);
        if (from < 0 || !journal.moveToIndex(from)) {
            return 0;
        }
        final Command command = new Command();
        final Hops hops = new Hops();
        long scanned = 0;
        while (true) {
            try (DocumentContext dc = journal.readingDocument()) {
                if (!dc.isPresent()) {
                    return scanned;
                }
                scanned++;
                if (CommandCodec.read(dc.wire().bytes(), command, hops) != DecodeStatus.OK || hops.gatewayId != gatewayId
                    || hops.clientSeqNum <= 0) {
                    continue;
                }
                final int slot = slots.slotOf(hops.sessionId);
                if (slot >= 0 && dc.index() > state.resetAt(slot) && state.expectedInbound(slot) <= hops.clientSeqNum) {
                    state.expectedInbound(slot, hops.clientSeqNum + 1L);
                }
            }
        }
    }
}
