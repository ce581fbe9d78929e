package io.chronex.gateway;

import io.chronex.gateway.core.ReceivedOrderIds;
import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.core.EventTail;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.gateway.marketdata.MarketDataService;
import io.chronex.queues.EventHeader;
import io.chronex.runtime.StorageGuard;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The return path: tails the events queue and turns each engine result into the reports its
 * sessions must get ({@link ExecutionReports}), committed to the {@link Outbox} in batches. The
 * answer to a cancel, replace or mass cancel also needs the request (its ClOrdID), read back from
 * the journal by the index the event names, as does a balance (its inquiry's CollInquiryID).
 */
final class EventsToReports {
    /** Events read in one pass stop adding to the outbound batch beyond this. */
    private static final int BATCH_BYTES = 256 << 10;

    private final int gatewayId;
    private final EventTail tail;
    private final Long2ObjectHashMap<FixSession> sessionsByAccount;
    private final ExecutionReports reports;
    private final Outbox outbox;
    private final ClOrdIdTable clOrdIds;
    /** The routes of requests awaiting their answer; set by {@link Gateway} before the first poll. */
    RequestRoutes requestRoutes;
    private final ReceivedOrderIds received;
    private final EventHeader header;
    private final Result result;

    /** Learns every event read, after its reports (so its X follow them in the same batch); set by {@link Gateway}. */
    MarketDataService marketData;
    /** The filesystem the outbound store is on; set by {@link Gateway}. */
    StorageGuard storage;

    EventsToReports(final int gatewayId, final EventTail tail, final Long2ObjectHashMap<FixSession> sessionsByAccount,
                    final ExecutionReports reports, final Outbox outbox, final ClOrdIdTable clOrdIds, final ReceivedOrderIds received) {
        this.gatewayId = gatewayId;
        this.tail = tail;
        this.header = tail.header;
        this.result = tail.result;
        this.sessionsByAccount = sessionsByAccount;
        this.reports = reports;
        this.outbox = outbox;
        this.clOrdIds = clOrdIds;
        this.received = received;
    }

    /**
     * Reads up to limit events and turns them into reports. All the reports of the events read in
     * one call go to the outbound store as one excerpt (tagged with the last event), which under
     * load turns many small appends into one; when idle a call reads one event and commits at once.
     */
    int poll(final int limit) {
        int n = 0;
        long lastIndex = -1;
        while (n < limit) {
            if (n > 0 && storage.level(outbox.eventsReadNanos) == StorageGuard.Level.EXHAUSTED) {
                // The rest wait in the events queue (nothing lost) until the gateway resumes.
                break;
            }
            final EventTail.Read read = tail.next();
            if (read == EventTail.Read.NONE) {
                break;
            }
            n++;
            outbox.eventsReadNanos = tail.readNanos;
            final long index = tail.lastRead();
            lastIndex = index;
            if (read == EventTail.Read.UNREADABLE) {
                // Its level changes are unknown: the books cannot learn it (docs/gateway.md, "Market data").
                marketData.undecodable(index);
            } else {
                answerAndPublish(index);
            }
            if (outbox.batchLength() > BATCH_BYTES) {
                break;
            }
        }
        if (lastIndex >= 0) {
            outbox.commit(lastIndex);
            // Only once the reports that end a ClOrdID's life are stored: a restart never needs a released text.
            clOrdIds.releaseStored();
            requestRoutes.releaseStored();
        }
        return n;
    }

    /** The reports of the event just decoded, then its market data. */
    private void answerAndPublish(final long index) {
        outbox.beginEvent(index);
        boolean answered = true;
        try {
            answer(index);
        } catch (final RuntimeException e) {
            answered = false;
            final int stored = outbox.abandonEvent();
            tail.failed(index, e + (stored > 0 ? "; " + stored + " of its messages had been stored before" : ""));
        }
        // Inside the event and after its reports: a restart that builds the event again after a crash between
        // its parts finds the reports first, as before, and skips them. If more than its reports were stored
        // (market data to the connections of before the crash), what is left to skip cannot be built again.
        // Then, and when the reports failed, the books still learn the event and its subscribers get a fresh
        // snapshot instead of an X.
        if (answered && outbox.skipping() == 0) {
            marketData.onEvent(result);
        } else {
            marketData.onEventUnanswered(result);
        }
        if (answered) {
            outbox.endEvent();
        }
    }

    /** Builds the messages of the event just read (in header and result). */
    private void answer(final long index) {
        FixSession direct = null;
        if (header.hops.gatewayId == gatewayId && header.hops.sessionId != 0) {
            direct = sessionsByAccount.get(header.hops.sessionId);
        }
        Command req = null;
        final CommandType type = result.commandType;
        if (direct != null && (type == CommandType.CANCEL || type == CommandType.REPLACE || type == CommandType.MASS_CANCEL
            || type == CommandType.BALANCE)) {
            req = tail.request(header.commandIndex, reports.requestText);
            if (req == null) {
                tail.failed(index, "command " + Long.toHexString(header.commandIndex)
                    + " cannot be read back from the journal; the answer to session " + direct.name + " is not sent");
                direct = null;
            }
        }
        // Orders journalled before a restart and answered after it count as received too.
        received.remember(result, sessionsByAccount);
        requestRoutes.answered(header.commandIndex);
        final int route = direct == null ? Routes.NONE : requestRoutes.answer(direct.account,
            type == CommandType.NEW_ORDER ? result.clientOrderId : req == null ? 0 : req.newClientOrderId, header.commandIndex);
        reports.onResult(index, result, direct, req, System.currentTimeMillis(), header.hops.gatewayReadNanos,
            header.hops.engineAppendNanos, route);
    }
}
