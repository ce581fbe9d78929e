package io.chronex.gateway;

import io.chronex.gateway.core.ReceivedOrderIds;
import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.api.Result;
import io.chronex.gateway.session.InboundSequenceScan;
import io.chronex.gateway.session.OutboundStore;
import io.chronex.gateway.session.SessionStateFile;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.QueueGap;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.List;

/**
 * A gateway's start: puts back what it knew when it stopped, however it stopped. Outbound sequence
 * numbers and resend positions from the outbound store; where to resume the events queue (after
 * the last event whose reports were stored); average prices of live orders from the events already
 * answered; inbound sequence numbers from the state file plus a journal scan for commands that
 * reached the journal but not the state file. The queues are read from the gateway's checkpoint on
 * ({@link GatewayCheckpoint}), or from their start when it has none.
 */
final class Recovery {
    /** What an operator can do about a gateway file that disagrees with the rest (none can be made up from the journal alone). */
    static final String RESTORE_HINT = "The gateway does not start on it: put back the gateway's directory from a copy taken while"
        + " it was stopped (its files belong together). Starting afresh would number messages again from numbers its clients"
        + " have already seen.";

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
    private final SingleChronicleQueue commandsQueue;
    private final ClOrdIdCheck clOrdIdCheck;
    private final ClOrdIdTable clOrdIds;
    private final java.nio.file.Path gatewayDir;
    private final boolean stateExisted;
    private long messagesStored;
    /** Learns the events already answered (books and trading status at the resume point); set by {@link Gateway}. */
    io.chronex.gateway.marketdata.MarketDataService marketData;
    /** Time spent reading the answered events again (AvgPx and the market-data books), for the market-data start line. */
    long rescanNanos;
    /** Where the start begins instead of the queues' first excerpts (null: from them); set by {@link Gateway}. */
    GatewayCheckpoint.Restored checkpoint;
    /** The events excerpt the gateway goes on after, and whether it goes on inside it (answered in part when it stopped). */
    long resumedAfter = -1;
    boolean resumedInside;
    /** The last events excerpt whose results are all answered (stored, or had nothing to store): for the routed requests. */
    long answeredThrough = -1;
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();

    Recovery(final int gatewayId, final List<FixSession> sessions, final Long2ObjectHashMap<FixSession> sessionsByAccount,
             final OutboundStore store, final SessionStateFile state, final SingleChronicleQueue eventsQueue, final ExcerptTailer events,
             final ExcerptTailer commandReader, final ExecutionReports reports, final ReceivedOrderIds received, final Outbox outbox,
             final Gateway.Log log, final SingleChronicleQueue commandsQueue, final ClOrdIdCheck clOrdIdCheck,
             final ClOrdIdTable clOrdIds, final java.nio.file.Path gatewayDir, final boolean stateExisted) {
        this.commandsQueue = commandsQueue;
        this.clOrdIdCheck = clOrdIdCheck;
        this.clOrdIds = clOrdIds;
        this.gatewayDir = gatewayDir;
        this.stateExisted = stateExisted;
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
        // Both before the journal is read: whatever others append meanwhile, the walk must get at least this far.
        final long journalEnd = commandsQueue.lastIndex();
        final long lastAnswered = lastAnsweredCommand();
        if (checkpoint != null) {
            GatewayCheckpoint.restore(checkpoint, clOrdIdCheck, reports, received, marketData);
        }
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
                    messagesStored++;
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
            clOrdIdCheck.claimToEnd();
            refuseLostStore();
            // A new gateway starts at the end of the events queue: earlier results answered other gateways' clients.
            final long last = eventsQueue.lastIndex();
            store.markStart(last);
            resumeAfter = last;
        }
        checkStoredOutbound();
        if (checkpoint != null) {
            final long through = checkpoint.header().eventsIndex();
            if (store.lastEventsIndex() < checkpoint.storedThrough()) {
                throw new IllegalStateException(gatewayDir.resolve("outbound") + " holds the reports of events up to "
                    + Long.toHexString(store.lastEventsIndex()) + ", but held them up to " + Long.toHexString(checkpoint.storedThrough())
                    + " when the checkpoint was taken: the store is older than the checkpoint (an older copy put back). " + RESTORE_HINT);
            }
            if (partial >= 0 && partial <= through) {
                throw new IllegalStateException(gatewayDir.resolve("outbound") + " says events excerpt " + Long.toHexString(partial)
                    + " was answered in part when the gateway stopped, but the checkpoint was taken after it, through "
                    + Long.toHexString(through) + ": the store is older than the checkpoint. " + RESTORE_HINT);
            }
            // The events between the last one whose reports were stored and the checkpoint had none to store.
            resumeAfter = Math.max(resumeAfter, through);
        }
        answeredThrough = resumeAfter;
        resumedAfter = partial >= 0 ? partial : resumeAfter;
        resumedInside = partial >= 0;
        final long tracked = resumeEvents(resumeAfter, partial);
        clOrdIdCheck.claimToEnd();
        checkJournal(journalEnd, lastAnswered);
        checkSessionState();
        clOrdIdCheck.compare(clOrdIds, gatewayDir.resolve("clordids.table"));
        final long scanned = scanJournal();
        final StringBuilder sb = new StringBuilder();
        for (final FixSession s : sessions) {
            sb.append(sb.length() == 0 ? "" : ", ").append(s.name).append(" in ").append(s.expectedInbound())
                .append(" out ").append(s.nextOutbound);
        }
        return String.format(java.util.Locale.ROOT,
            "recovered in %.1f ms: resuming events after %s (%s, %d answered events re-read for average prices), %d journal entries"
                + " scanned for sequence numbers; next MsgSeqNum per session: %s",
            (System.nanoTime() - start) / 1e6, resumeAfter < 0 ? "the start" : Long.toHexString(resumeAfter), checkpoint == null
                ? "no checkpoint: both queues read from their start" : "from the checkpoint through events index "
                + Long.toHexString(checkpoint.header().eventsIndex()) + " and journal index "
                + Long.toHexString(checkpoint.header().commandsIndex()), tracked, scanned, sb);
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
        // AvgPx needs every fill of our live orders, market data the books: go through the events already answered once.
        final long scanStart = System.nanoTime();
        long tracked = 0;
        long scanned = -1;
        final ExcerptTailer scan = eventsQueue.createTailer();
        if (checkpoint != null) {
            // Its state is that of every event through it: read on after it.
            scanned = checkpoint.header().eventsIndex();
            if (!scan.moveToIndex(scanned)) {
                throw new IllegalStateException("events queue: no excerpt " + Long.toHexString(scanned)
                    + ", where the checkpoint was taken");
            }
            scan.readingDocument().close();
        }
        while (true) {
            try (DocumentContext dc = scan.readingDocument()) {
                if (!dc.isPresent()) {
                    refuseDamagedEvents(scanned, partial >= 0 ? partial : resumeAfter);
                    break;
                }
                if (partial >= 0 ? dc.index() >= partial : dc.index() > resumeAfter) {
                    break;
                }
                scanned = dc.index();
                if (EventCodec.read(dc.wire().bytes(), header, result) == DecodeStatus.OK) {
                    clOrdIdCheck.answered(header, result);
                    reports.track(result);
                    received.remember(result, sessionsByAccount);
                    if (marketData != null) {
                        marketData.rebuild(result);
                    }
                    tracked++;
                } else if (marketData != null) {
                    // The books rebuilt at start miss its changes just as the live ones would have.
                    marketData.undecodable(dc.index());
                }
            }
        }
        rescanNanos = System.nanoTime() - scanStart;
        final long known = partial >= 0 ? partial : resumeAfter;
        if (!events.moveToIndex(known)) {
            throw new IllegalStateException("events queue has no excerpt " + Long.toHexString(known)
                + ", which this gateway's outbound store says it answered; is this the right data directory?");
        }
        checkUnreadEvents(known);
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

    /**
     * The events from where this gateway resumes to the queue's end must read through: a stretch a tailer cannot get past
     * (bytes zeroed in the file) would stop report delivery there for every session, without a word, while the engine
     * goes on writing after it.
     */
    private void checkUnreadEvents(final long from) {
        final ExcerptTailer ahead = eventsQueue.createTailer();
        if (!ahead.moveToIndex(from)) {
            return; // the caller has just moved there: not reached
        }
        long last = from - 1;
        while (true) {
            try (DocumentContext dc = ahead.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                last = dc.index();
            }
        }
        refuseDamagedEvents(last, Long.MAX_VALUE);
    }

    /** A read of the events that stopped after {@code lastRead} met damage, not the end, before {@code needed}: refused. */
    private void refuseDamagedEvents(final long lastRead, final long needed) {
        final QueueGap gap = QueueGap.after(eventsQueue, lastRead);
        if (gap != null && gap.from() <= needed) {
            throw new IllegalStateException("events queue " + gap.describe() + ". This gateway cannot deliver the reports after"
                + " it, nor rebuild its orders' average prices before it: restore the events queue from a copy taken with the engine"
                + " stopped, then start again.");
        }
    }

    /** The command the events queue's last excerpt answers, -1 when none can be read. */
    private long lastAnsweredCommand() {
        final ExcerptTailer last = eventsQueue.createTailer().direction(TailerDirection.BACKWARD).toEnd();
        try (DocumentContext dc = last.readingDocument()) {
            return dc.isPresent() && EventCodec.read(dc.wire().bytes(), header, result) == DecodeStatus.OK ? header.commandIndex : -1;
        }
    }

    /**
     * An empty outbound store is a new gateway only if nothing else says this gateway has run: a
     * store lost while the journal or the session state remembers it would restart every session's
     * outbound numbering at 1.
     */
    private void refuseLostStore() {
        long inbound = 0;
        for (final FixSession s : sessions) {
            inbound = Math.max(inbound, state.expectedInbound(s.slot) - 1);
        }
        if (clOrdIdCheck.journalledHere > 0 || state.scanFrom() >= 0 || inbound > 0 || checkpoint != null) {
            throw new IllegalStateException(gatewayDir.resolve("outbound") + " is empty or missing, but this gateway has run before ("
                + (clOrdIdCheck.journalledHere > 0 ? "the journal holds " + clOrdIdCheck.journalledHere + " commands from gateway "
                + gatewayId + ", the first at index " + Long.toHexString(clOrdIdCheck.firstHere) : checkpoint != null
                ? "its checkpoint is there" : "sessions.state has received up to MsgSeqNum " + inbound) + "): every session's"
                + " outbound MsgSeqNum would start again at 1 and the reports it sent could not be resent. " + RESTORE_HINT);
        }
    }

    /**
     * The journal as this gateway needs it: readable to its end, holding every command this
     * gateway appended and every command the engine answered. A journal cut short or replaced would
     * take orders the engine never answers (or has answered as other commands).
     */
    private void checkJournal(final long journalEnd, final long lastAnswered) {
        final long read = clOrdIdCheck.lastRead;
        final String readTo = read < 0 ? "nothing can be read from it" : "it can be read up to index " + Long.toHexString(read);
        final String what;
        if (read < journalEnd) {
            what = "its index says it holds commands up to " + Long.toHexString(journalEnd) + ", but " + readTo;
        } else if (state.scanFrom() > read) {
            what = "this gateway journalled command " + Long.toHexString(state.scanFrom()) + " (sessions.state's checkpoint), but "
                + readTo;
        } else if (lastAnswered > read) {
            what = "the events queue answers command " + Long.toHexString(lastAnswered) + ", but " + readTo;
        } else {
            return;
        }
        throw new IllegalStateException("commands journal " + commandsQueue.file() + " is damaged or cut short: " + what
            + ". The gateway takes no orders it cannot journal: restore the journal (the engine refuses it too), then start again.");
    }

    /**
     * Inbound numbers come only from sessions.state: one lost (deleted, or a fresh file) while this
     * gateway has journalled commands or sent messages would expect MsgSeqNum 1 from clients far beyond it.
     */
    /**
     * Each session's last message in the store against the one sessions.state recorded once it was stored: a store
     * behind that lost its tail (cut cleanly, or an older copy put back), which its own walk cannot see, and the
     * gateway would number new messages over ones the client already has.
     */
    private void checkStoredOutbound() {
        for (final FixSession s : sessions) {
            final long recorded = state.lastStoredOutbound(s.slot);
            if (recorded > s.nextOutbound - 1) {
                throw new IllegalStateException(gatewayDir.resolve("outbound") + ": session " + s.name + "'s messages end at MsgSeqNum "
                    + (s.nextOutbound - 1) + ", but sessions.state records " + recorded + " stored: the store lost its tail (cut"
                    + " short, or an older copy put back). Restore " + gatewayDir + " from a copy taken with the gateway stopped.");
            }
        }
    }

    private void checkSessionState() {
        final java.nio.file.Path file = gatewayDir.resolve("sessions.state");
        if (!stateExisted && messagesStored > 0) {
            throw new IllegalStateException(file + " is missing, but the outbound store holds " + messagesStored
                + " messages sent to this gateway's sessions: the MsgSeqNums they sent us are lost. " + RESTORE_HINT);
        }
        if (state.scanFrom() < 0 && clOrdIdCheck.journalledHere > 0) {
            throw new IllegalStateException(file + (stateExisted ? " records no command" : " is missing") + ", but the journal holds "
                + clOrdIdCheck.journalledHere + " commands from gateway " + gatewayId + " (the first at index "
                + Long.toHexString(clOrdIdCheck.firstHere) + "): the MsgSeqNums its clients sent are lost. " + RESTORE_HINT);
        }
    }

    /** Inbound sequence numbers: the state file, then any journalled message it may have missed. */
    private long scanJournal() {
        final long floor = checkpoint == null ? -1 : checkpoint.header().commandsIndex();
        return InboundSequenceScan.scan(commandReader, state, floor, gatewayId, account -> {
            final FixSession s = sessionsByAccount.get(account);
            return s == null ? -1 : s.slot;
        });
    }
}
