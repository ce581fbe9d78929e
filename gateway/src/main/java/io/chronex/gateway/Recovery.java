package io.chronex.gateway;

import io.chronex.api.Result;
import io.chronex.gateway.session.InboundSequenceScan;
import io.chronex.gateway.session.OutboundStore;
import io.chronex.gateway.session.SessionStateFile;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.List;

/**
 * A gateway's start: puts back what it knew when it stopped, however it stopped. Outbound sequence
 * numbers and resend positions from the outbound store; where to resume the events queue (after
 * the last event whose reports were stored); average prices of live orders from the events already
 * answered; inbound sequence numbers from the state file plus a journal scan for commands that
 * reached the journal but not the state file.
 */
final class Recovery {
    private final int gatewayId;
    private final List<FixSession> sessions;
    private final Long2ObjectHashMap<FixSession> sessionsByAccount;
    private final OutboundStore store;
    private final SessionStateFile state;
    private final SingleChronicleQueue eventsQueue;
    private final ExcerptTailer events;
    private final ExcerptTailer commandReader;
    private final ExecutionReports reports;
    private final ReceivedOrderIds received;
    private final Outbox outbox;
    private final Gateway.Log log;
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();

    Recovery(final int gatewayId, final List<FixSession> sessions, final Long2ObjectHashMap<FixSession> sessionsByAccount,
             final OutboundStore store, final SessionStateFile state, final SingleChronicleQueue eventsQueue, final ExcerptTailer events,
             final ExcerptTailer commandReader, final ExecutionReports reports, final ReceivedOrderIds received, final Outbox outbox,
             final Gateway.Log log) {
        this.gatewayId = gatewayId;
        this.sessions = sessions;
        this.sessionsByAccount = sessionsByAccount;
        this.store = store;
        this.state = state;
        this.eventsQueue = eventsQueue;
        this.events = events;
        this.commandReader = commandReader;
        this.reports = reports;
        this.received = received;
        this.outbox = outbox;
        this.log = log;
    }

    /** Recovers and returns the line that says what was recovered. */
    String run() {
        final long start = System.nanoTime();
        final boolean stored = store.recover(new OutboundStore.Visitor() {
            @Override
            public void message(final long account, final int seq, final int msgType, final long storeIndex, final int entryOffset) {
                final FixSession s = sessionsByAccount.get(account);
                if (s != null) {
                    if (seq != s.nextOutbound) {
                        throw new IllegalStateException("outbound store: session " + s.name + " message " + seq + " follows "
                            + (s.nextOutbound - 1) + "; the store is damaged");
                    }
                    s.sent.add(storeIndex, entryOffset);
                    s.nextOutbound = seq + 1;
                }
            }

            @Override
            public void reset(final long account) {
                final FixSession s = sessionsByAccount.get(account);
                if (s != null) {
                    s.resetOutbound();
                }
            }
        });
        long resumeAfter = store.lastEventsIndex();
        // A crash between the parts of one event's answer: every event before it is answered, it is built again.
        final long partial = store.partialEventsIndex();
        if (!stored) {
            // A new gateway starts at the end of the events queue: earlier results answered other gateways' clients.
            final long last = eventsQueue.lastIndex();
            store.markStart(last);
            resumeAfter = last;
        }
        final long tracked = resumeEvents(resumeAfter, partial);
        final long scanned = scanJournal();
        final StringBuilder sb = new StringBuilder();
        for (final FixSession s : sessions) {
            sb.append(sb.length() == 0 ? "" : ", ").append(s.name).append(" in ").append(s.expectedInbound())
                .append(" out ").append(s.nextOutbound);
        }
        return String.format(java.util.Locale.ROOT,
            "recovered in %.1f ms: resuming events after %s (%d answered events re-read for average prices), %d journal entries scanned"
                + " for sequence numbers; next MsgSeqNum per session: %s",
            (System.nanoTime() - start) / 1e6, resumeAfter < 0 ? "the start" : Long.toHexString(resumeAfter), tracked, scanned, sb);
    }

    /**
     * Positions the events tailer after resumeAfter, or on the partly answered event; returns how
     * many answered events were re-read for AvgPx.
     */
    private long resumeEvents(final long resumeAfter, final long partial) {
        if (resumeAfter < 0 && partial < 0) {
            events.toStart();
            return 0;
        }
        // AvgPx needs every fill of our live orders: go through the events already answered once.
        long tracked = 0;
        final ExcerptTailer scan = eventsQueue.createTailer();
        while (true) {
            try (DocumentContext dc = scan.readingDocument()) {
                if (!dc.isPresent() || (partial >= 0 ? dc.index() >= partial : dc.index() > resumeAfter)) {
                    break;
                }
                if (EventCodec.read(dc.wire().bytes(), header, result) == DecodeStatus.OK) {
                    reports.track(result);
                    received.remember(result, sessionsByAccount);
                    tracked++;
                }
            }
        }
        final long known = partial >= 0 ? partial : resumeAfter;
        if (!events.moveToIndex(known)) {
            throw new IllegalStateException("events queue has no excerpt " + Long.toHexString(known)
                + ", which this gateway's outbound store says it answered; is this the right data directory?");
        }
        if (partial >= 0) {
            outbox.resumeInside(partial, store.partialMessages());
            log.log("events excerpt " + Long.toHexString(partial) + " was answered in part (" + store.partialMessages()
                + " messages stored) when the gateway stopped: it is built again and the rest sent");
        } else {
            // Past the one already answered: open and close a reading document, which moves the tailer on.
            events.readingDocument().close();
        }
        return tracked;
    }

    /** Inbound sequence numbers: the state file, then any journalled message it may have missed. */
    private long scanJournal() {
        return InboundSequenceScan.scan(commandReader, state, gatewayId, account -> {
            final FixSession s = sessionsByAccount.get(account);
            return s == null ? -1 : s.slot;
        });
    }
}
