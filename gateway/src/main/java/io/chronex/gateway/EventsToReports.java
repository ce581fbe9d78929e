package io.chronex.gateway;

import io.chronex.gateway.core.ReceivedOrderIds;
import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.gateway.marketdata.MarketDataService;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.FailedEventsFile;
import io.chronex.queues.Hops;
import io.chronex.queues.QueueGap;
import io.chronex.runtime.StorageGuard;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
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
    private final ExcerptTailer events;
    private final ExcerptTailer commandReader;
    private final Long2ObjectHashMap<FixSession> sessionsByAccount;
    private final ExecutionReports reports;
    private final Outbox outbox;
    private final ClOrdIdTable clOrdIds;
    /** The routes of requests awaiting their answer; set by {@link Gateway} before the first poll. */
    RequestRoutes requestRoutes;
    private final ReceivedOrderIds received;
    private final FailedEventsFile failedEvents;
    private final Gateway.Log log;
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();
    private final Command request = new Command();
    private final Hops requestHops = new Hops();

    /** Learns every event read, after its reports (so its X follow them in the same batch); set by {@link Gateway}. */
    MarketDataService marketData;
    /** The filesystem the outbound store is on; set by {@link Gateway}. */
    StorageGuard storage;
    long eventsRead;
    long eventsFailed;
    long lastFailedEvent = -1;

    /** How long without an event before the queue is asked whether it goes on past where the tailer stopped. */
    private static final long STALL_CHECK_NANOS = 5_000_000_000L;
    private long lastRead = -1;
    private long nextStallCheckNanos;
    private long eventsReadAtStallCheck = -1;
    private QueueGap reportedGap;

    EventsToReports(final int gatewayId, final ExcerptTailer events, final ExcerptTailer commandReader,
                    final Long2ObjectHashMap<FixSession> sessionsByAccount, final ExecutionReports reports, final Outbox outbox,
                    final ClOrdIdTable clOrdIds, final ReceivedOrderIds received, final FailedEventsFile failedEvents,
                    final Gateway.Log log) {
        this.gatewayId = gatewayId;
        this.events = events;
        this.commandReader = commandReader;
        this.sessionsByAccount = sessionsByAccount;
        this.reports = reports;
        this.outbox = outbox;
        this.clOrdIds = clOrdIds;
        this.received = received;
        this.failedEvents = failedEvents;
        this.log = log;
    }

    /**
     * Reads up to limit events and turns them into reports. All the reports of the events read in
     * one call go to the outbound store as one excerpt (tagged with the last event), which under
     * load turns many small appends into one; when idle a call reads one event and commits at once.
     */
    /**
     * While no event has been read for {@value #STALL_CHECK_NANOS} ns, whether the events queue goes on past a stretch the
     * tailer cannot read (bytes zeroed in the file): delivery would stop there for every session without a word. Said
     * in the log once per stretch, with the indices; nothing else can be done while running (a restart refuses).
     */
    void checkForStall(final long nowNanos) {
        if (nowNanos - nextStallCheckNanos < 0) {
            return;
        }
        nextStallCheckNanos = nowNanos + STALL_CHECK_NANOS;
        if (eventsRead != eventsReadAtStallCheck || lastRead < 0) {
            eventsReadAtStallCheck = eventsRead;
            return;
        }
        final QueueGap gap = QueueGap.after(events.queue(), lastRead);
        if (gap != null && !gap.equals(reportedGap)) {
            log.log("error: the gateway cannot read the events queue past index " + Long.toHexString(lastRead) + ": "
                + gap.describe() + ". No report after it can be delivered; stop the gateway and restore the events queue from a"
                + " copy taken with the engine stopped");
        }
        reportedGap = gap;
    }

    /** The last events excerpt read (its reports stored once {@link #poll} returns), -1 before the first. */
    long lastRead() {
        return lastRead;
    }

    int poll(final int limit) {
        int n = 0;
        long lastIndex = -1;
        while (n < limit) {
            if (n > 0 && storage.level(outbox.eventsReadNanos) == StorageGuard.Level.EXHAUSTED) {
                // The rest wait in the events queue (nothing lost) until the gateway resumes.
                break;
            }
            try (DocumentContext dc = events.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                n++;
                eventsRead++;
                outbox.eventsReadNanos = System.nanoTime();
                final long index = dc.index();
                lastIndex = index;
                lastRead = index;
                final DecodeStatus status = EventCodec.read(dc.wire().bytes(), header, result);
                if (status != DecodeStatus.OK) {
                    eventFailed(index, "it cannot be read (" + status + ")");
                    // Its level changes are unknown: the books cannot learn it (docs/gateway.md, "Market data").
                    marketData.undecodable(index);
                } else {
                    answerAndPublish(index);
                }
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
            eventFailed(index, e + (stored > 0 ? "; " + stored + " of its messages had been stored before" : ""));
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
            req = readCommand(header.commandIndex);
            if (req == null) {
                eventFailed(index, "command " + Long.toHexString(header.commandIndex)
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

    /**
     * An event this gateway cannot answer (in full): said in the log, counted in the status line
     * and in gateways/N/failed-events for a monitor, and passed over; everything else goes on.
     */
    private void eventFailed(final long index, final String why) {
        eventsFailed++;
        lastFailedEvent = index;
        final boolean first = failedEvents.record(index, System.currentTimeMillis(), why);
        log.log("events excerpt " + Long.toHexString(index) + " could not be answered: " + why + "; passed over, the gateway goes on ("
            + failedEvents.count() + " failed events recorded in failed-events" + (first ? "" : ", this one already before a restart")
            + ")");
    }

    private Command readCommand(final long index) {
        if (!commandReader.moveToIndex(index)) {
            return null;
        }
        try (DocumentContext dc = commandReader.readingDocument()) {
            if (!dc.isPresent() || CommandCodec.read(dc.wire().bytes(), request, requestHops, reports.requestText) != DecodeStatus.OK) {
                return null;
            }
            return request;
        }
    }
}
