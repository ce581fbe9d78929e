package io.chronex.gateway;

import io.chronex.gateway.core.ReceivedOrderIds;
import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.core.EventTail;
import io.chronex.gateway.core.Instruments;
import io.chronex.gateway.core.Journal;
import io.chronex.gateway.core.OrderEntry;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixDictionary;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.fix.FixValidator;
import io.chronex.gateway.marketdata.MarketDataService;
import io.chronex.gateway.session.OutboundStore;
import io.chronex.gateway.session.ResendIndex;
import io.chronex.gateway.session.SessionStateFile;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.FailedEventsFile;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.ReturnHops;
import io.chronex.runtime.StorageGuard;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The FIX gateway's single thread, put together from its parts: the {@link Framer} (connections and
 * framing), the session layer ({@link FixSession}, sending through {@link OutboxSessionProxy}),
 * order entry into the journal ({@link CommandJournal}), the return path ({@link EventsToReports})
 * and {@link Recovery} at start. Call {@link #doWork} in a loop; it never blocks.
 *
 * <p>Inbound: socket read → frame → decode → session checks → {@link OrderEntry} → journal append
 * (with the MsgSeqNum, so a restarted gateway knows what it had). Outbound: events excerpt →
 * {@link ExecutionReports} → {@link Outbox} (stored, then written). Both allocate nothing in
 * steady state.
 */
public final class Gateway implements Framer.Handler, AutoCloseable {
    /** A log line sink (the process's log). */
    public interface Log {
        void log(String line);
    }

    /** How often connection deadlines, heartbeats and the restart checkpoint are looked at. */
    private static final long TIMER_NANOS = 10_000_000L;
    private static final int EVENTS_PER_PASS = 256;
    /** Bytes per answer noted in the returns queue, counted on the safe side. */
    private static final int RETURN_BYTES = 32;
    /** Garbled messages logged per connection; beyond that they are only counted. */
    private static final int GARBLED_LOGGED = 20;
    /** The tags the gateway reads from its clients: their values are checked even with validateUnusedFields off. */
    private static final int[] READ_TAGS = {
        FixTags.SENDER_COMP_ID, FixTags.TARGET_COMP_ID, FixTags.MSG_SEQ_NUM, FixTags.SENDING_TIME, FixTags.POSS_DUP_FLAG,
        FixTags.ORIG_SENDING_TIME, FixTags.HEART_BT_INT, FixTags.RESET_SEQ_NUM_FLAG, FixTags.PASSWORD, FixTags.TEST_REQ_ID,
        FixTags.BEGIN_SEQ_NO, FixTags.END_SEQ_NO, FixTags.GAP_FILL_FLAG, FixTags.NEW_SEQ_NO, FixTags.CL_ORD_ID,
        FixTags.ORIG_CL_ORD_ID, FixTags.ACCOUNT, FixTags.SYMBOL, FixTags.SIDE, FixTags.ORDER_QTY, FixTags.ORD_TYPE, FixTags.PRICE,
        FixTags.TIME_IN_FORCE, FixTags.EXEC_INST, FixTags.TRANSACT_TIME, FixTags.MASS_CANCEL_REQUEST_TYPE,
        FixTags.MD_REQ_ID, FixTags.SUBSCRIPTION_REQUEST_TYPE, FixTags.MARKET_DEPTH, FixTags.MD_UPDATE_TYPE, FixTags.AGGREGATED_BOOK,
        FixTags.NO_MD_ENTRY_TYPES, FixTags.MD_ENTRY_TYPE, FixTags.NO_RELATED_SYM, FixTags.COLL_INQUIRY_ID, FixTags.CURRENCY,
    };

    private final int gatewayId;
    private final List<FixSession> sessions = new ArrayList<>();
    private final Long2ObjectHashMap<FixSession> sessionsByAccount = new Long2ObjectHashMap<>();
    private final SingleChronicleQueue commandsQueue;
    private final SingleChronicleQueue eventsQueue;
    private final OutboundStore store;
    private final SessionStateFile state;
    final ClOrdIdTable clOrdIds;
    /** Third-party routing (docs/gateway.md): the routes, the routes of requests awaiting their answer, the message being handled's. */
    private final Routes routes;
    private final RequestRoutes requestRoutes;
    private final ReplyRoute replyRoute = new ReplyRoute();
    private final Outbox outbox;
    private final OutboundFlow flow;
    private final FailedEventsFile failedEvents;
    /** The return path's hop times (ReturnHops), in the gateway's own queue. */
    private final SingleChronicleQueue returnsQueue;
    private final Log log;
    private ReturnHops.Writer returns;
    /** What the sessions are doing, for a monitor in another process ({@code gateways/N/sessions}); slot = index in {@link #sessions}. */
    private final GatewaySessionsFile published;
    private final Framer framer;
    private final OutboxSessionProxy proxy;
    /** Failed logons per CompID and address, and the back-off they earn (docs/gateway.md, "Logon failures"). */
    private final LogonGuard logonGuard = new LogonGuard();
    private long unheardLogons;
    private long lastUnblockLookNanos = Long.MIN_VALUE / 2;
    private final Path unblockFile;
    private long lastUnheardLogNanos = Long.MIN_VALUE / 2;
    final CommandJournal journal;
    /** The commands this gateway appended (the core's journal, under {@link #journal}). */
    final Journal appends;
    private final EventsToReports eventsToReports;
    /** The events queue as read (the core's): counts, failures, the stall check; {@link #eventsToReports} answers from it. */
    private final EventTail eventsRead;
    /** FIX market data (docs/gateway.md, "Market data"): books from every event read, subscriptions per session. */
    final MarketDataService marketData;
    /** The AvgPx bookkeeping and the recent new orders, kept for the checkpoint ({@link GatewayCheckpoint}). */
    final ExecutionReports reports;
    final ReceivedOrderIds received;
    /** Commands from this gateway in the journal when it started, and the first one's index (-1: none): for the checkpoint. */
    long journalledBeforeStart;
    long firstJournalledBeforeStart = -1;
    private final GatewayCheckpoint checkpoint;
    /** Inside {@link #doWork}: a pass that threw leaves it set, and its state (reports built, not stored) is not checkpointed. */
    private boolean inPass;
    /** Repeated tags are left to the dictionary check, which knows the repeating groups whose instances repeat them. */
    private final FixDecoder decoder = new FixDecoder(true);
    private long nextTimerNanos;
    /** The filesystem under the data directory: one guard, as the gateway writes from its one thread only. */
    private final StorageGuard storage;
    /** Below a quarter of the reserve: no client input read, no event answered, until space returns (see {@link #doWork}). */
    private boolean pausedForStorage;
    private long storagePauses;
    /** Cancel-on-disconnect sessions whose mass cancel waits for space (they stay marked connected in sessions.state till then). */
    private final List<FixSession> owedCancels = new ArrayList<>();

    long messagesIn;
    /** Garbled messages (and runs of garbage) ignored, all sessions. */
    long garbledIgnored;

    public Gateway(final GatewayConfig config, final int gatewayId, final int port, final DataDirectory data, final Log log)
        throws IOException {
        this(config, gatewayId, port, data, log, StorageGuard.forDirectory(data.root(), StorageGuard.DEFAULT_RESERVE));
    }

    /** With the free space of the data directory's filesystem judged by {@code storage} (bin/gateway --storage-reserve; tests). */
    public Gateway(final GatewayConfig config, final int gatewayId, final int port, final DataDirectory data, final Log log,
                   final StorageGuard storage) throws IOException {
        this.gatewayId = gatewayId;
        this.storage = storage;
        final Path dir = data.gatewayDir(gatewayId);
        final Path stateFile = dir.resolve("sessions.state");
        // Looked at before opening creates it: a missing file must not pass for a new gateway's.
        final boolean stateExisted = Files.exists(stateFile) && Files.size(stateFile) > 0;
        // Before the state file is made: a damaged one refuses the start without leaving a fresh state file behind.
        this.routes = new Routes(dir.resolve("routes"));
        try {
            this.requestRoutes = new RequestRoutes(dir.resolve("routed-requests.table"), routes);
        } catch (final RuntimeException e) {
            routes.close();
            throw e;
        }
        this.state = new SessionStateFile(stateFile);
        final FixValidator validator = new FixValidator(FixDictionary.fix44(), config.validateUnusedFields(), READ_TAGS);
        for (final GatewayConfig.Session s : config.sessionsOf(gatewayId)) {
            final int slot = state.slot(s.senderCompId());
            final FixSession session = new FixSession(s, config.compId(), state,
                new ResendIndex(data.gatewayDir(gatewayId).resolve("resend-" + slot + ".index")));
            session.sendingTimeToleranceMillis = config.sendingTimeToleranceSeconds() * 1000L;
            session.validator = validator;
            sessions.add(session);
            sessionsByAccount.put(s.account(), session);
        }
        if (sessions.isEmpty()) {
            throw new IllegalStateException("no session in " + config.engineConfigFile().getFileName() + "'s gateway file is for gateway "
                + gatewayId + "; give sessions 'gateway: " + gatewayId + "'");
        }
        final List<String> names = new ArrayList<>(sessions.size());
        for (int i = 0; i < sessions.size(); i++) {
            sessions.get(i).publishedSlot = i;
            names.add(sessions.get(i).name);
        }
        // A new file at every start: every session logged off until it logs on again, counts from 0.
        this.unblockFile = data.gatewayDir(gatewayId).resolve("unblock");
        this.published = new GatewaySessionsFile(data.gatewayDir(gatewayId).resolve("sessions"), gatewayId, names, config.compId(),
            System.currentTimeMillis());
        this.clOrdIds = new ClOrdIdTable(data.gatewayDir(gatewayId).resolve("clordids.table"));
        final Instruments instruments = new Instruments(config.symbols(), config.assets());
        final OrderEntry orderEntry = new OrderEntry(instruments, clOrdIds, FixOrderRequests.NAMES);
        this.commandsQueue = data.commands();
        this.eventsQueue = data.events();
        final ExcerptTailer commandReader = commandsQueue.createTailer();
        final ExcerptTailer events = eventsQueue.createTailer();
        this.store = new OutboundStore(data.gatewayOutbound(gatewayId));
        this.framer = new Framer(config, log);
        this.failedEvents = new FailedEventsFile(data.gatewayDir(gatewayId).resolve("failed-events"));
        this.flow = new OutboundFlow(framer, store, config.compId(), config.maxMessageLength(), log);
        this.outbox = new Outbox(framer, store, flow, config.compId(), config.maxMessageLength(), published);
        outbox.storage = storage;
        outbox.log = log;
        outbox.reply = replyRoute;
        outbox.routes = routes;
        this.log = log;
        this.returnsQueue = data.gatewayReturns(gatewayId);
        this.returns = new ReturnHops.Writer(returnsQueue.createAppender());
        outbox.returns = returns;
        this.reports = new ExecutionReports(outbox, sessionsByAccount, instruments, clOrdIds);
        this.received = new ReceivedOrderIds();
        final MarketDataLink mdLink = new MarketDataLink(sessions, outbox, log, published);
        this.marketData = new MarketDataService(config.symbols(), marketDataAllowed(sessions), config.marketDataMaxBacklog(),
            config.marketDataMaxSubscriptions(), config.maxMessageLength(), mdLink);
        mdLink.service = marketData;
        this.checkpoint = new GatewayCheckpoint(gatewayId, dir, commandsQueue, eventsQueue, log);
        final long startCheckpoint;
        try (ClOrdIdCheck check = new ClOrdIdCheck(gatewayId, sessionsByAccount, commandsQueue, dir.resolve("clordids.table.expected"))) {
            startCheckpoint = recover(new Recovery(gatewayId, sessions, sessionsByAccount, store, state, eventsQueue, events,
                commandReader, reports, received, outbox, log, commandsQueue, check, clOrdIds, dir, stateExisted), check, data.root(), dir);
        } catch (final RuntimeException e) {
            checkpoint.close();
            framer.close();
            closeFiles();
            if (!stateExisted) {
                // The refusal must not leave a fresh file behind that the next start would take for the lost one.
                Files.deleteIfExists(stateFile);
            }
            throw e;
        }
        this.proxy = new OutboxSessionProxy(outbox, store, flow, framer, config.compId(), log);
        this.appends = new Journal(gatewayId, commandsQueue.createAppender(), storage);
        this.journal = new CommandJournal(gatewayId, appends, orderEntry, state, outbox, proxy, framer, received, log);
        journal.routes = requestRoutes;
        this.eventsRead = new EventTail(events, commandReader, failedEvents, log::log);
        this.eventsToReports = new EventsToReports(gatewayId, eventsRead, sessionsByAccount, reports, outbox, clOrdIds, received);
        eventsToReports.storage = storage;
        eventsToReports.requestRoutes = requestRoutes;
        eventsToReports.marketData = marketData;
        for (final FixSession s : sessions) {
            s.wire(proxy, journal);
            s.marketData = mdLink;
            published.sequenceNumbers(s.publishedSlot, s.expectedInbound() - 1, s.nextOutbound - 1);
        }
        cancelWhatTheDeadGatewayLeftConnected();
        if (startCheckpoint >= 0 && storage.level(System.nanoTime()) == StorageGuard.Level.OK) {
            // What the start just rebuilt: the next start, and archiving, need nothing before it.
            checkpoint.take(startCheckpoint, this, false);
        }
        framer.wire(this, flow);
        framer.listen(port);
    }

    /** The accounts of this gateway's sessions, for the checkpoint. */
    long[] accounts() {
        final long[] accounts = new long[sessions.size()];
        for (int i = 0; i < accounts.length; i++) {
            accounts[i] = sessions.get(i).account;
        }
        return accounts;
    }

    /** The last events excerpt whose reports the outbound store holds (-1: none), for the checkpoint. */
    long storedThrough() {
        return store.lastEventsIndex();
    }

    private static boolean[] marketDataAllowed(final List<FixSession> sessions) {
        final boolean[] allowed = new boolean[sessions.size()];
        for (int i = 0; i < allowed.length; i++) {
            allowed[i] = sessions.get(i).config.marketData();
        }
        return allowed;
    }

    /**
     * Puts back what the gateway knew when it stopped (from its checkpoint when it has a usable one); returns the events index
     * a checkpoint of the state so rebuilt is through, -1 when none can be taken (an event answered in part is pending).
     */
    private long recover(final Recovery recovery, final ClOrdIdCheck check, final Path dataRoot, final Path dir) {
        recovery.marketData = marketData;
        recovery.checkpoint = GatewayCheckpoint.load(gatewayId, dir, dataRoot, commandsQueue, eventsQueue, accounts(), log);
        log.log(recovery.run());
        log.log(String.format(java.util.Locale.ROOT, "market data: books and trading status rebuilt from the %d events before the"
            + " resume point%s (read again with the recovery scan, %.1f ms)", marketData.rebuiltEvents(),
            recovery.checkpoint == null ? "" : " after the checkpoint", recovery.rescanNanos / 1e6));
        recoverRoutes(dir, recovery.checkpoint == null ? -1 : recovery.checkpoint.header().commandsIndex(), recovery.answeredThrough);
        journalledBeforeStart = check.journalledHere;
        firstJournalledBeforeStart = check.firstHere;
        return recovery.resumedInside ? -1 : recovery.resumedAfter;
    }

    /**
     * The routes the tables name must all be in the routes file (a file lost or put back older would
     * give orders another desk's route); then the routed requests a stop left are put right.
     */
    private void recoverRoutes(final Path dir, final long checkpointCommands, final long answeredThrough) {
        final int inOrders = clOrdIds.maxRoute();
        final int inRequests = requestRoutes.maxRoute();
        if (Math.max(inOrders, inRequests) > routes.count()) {
            throw new IllegalStateException(dir.resolve("routes") + " holds " + routes.count() + " routes, but "
                + (inOrders > routes.count() ? "clordids.table" : "routed-requests.table") + " names route "
                + Math.max(inOrders, inRequests) + ": it is missing or lost records, and reports would go to the wrong"
                + " OnBehalfOfCompID. " + Recovery.RESTORE_HINT);
        }
        if (routes.cutOff > 0) {
            log.log("routes: cut off " + routes.cutOff + " bytes of a record a stop left unfinished (no order had its number yet)");
        }
        // Every route claimed before the checkpoint had its index: nothing before it is looked up (it may be archived).
        final String line = requestRoutes.recover(commandsQueue, eventsQueue, gatewayId, Math.max(state.scanFrom(), checkpointCommands),
            answeredThrough);
        if (line != null) {
            log.log(line);
        }
    }

    /**
     * A gateway killed with clients logged on never saw them go: for each session the state file
     * says was connected, do now, before any new logon, what a disconnect does (cancel on disconnect).
     */
    private void cancelWhatTheDeadGatewayLeftConnected() {
        for (final FixSession s : sessions) {
            if (s.leftConnected()) {
                if (s.config.cancelOnDisconnect()) {
                    journal.cancelOnDisconnect(s, " (it was logged on when the gateway stopped without logging it out)");
                }
                s.disconnected();
            }
        }
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return framer.port();
    }

    /** One pass: network, events, timers, then the pass's output written. Returns how much was done (0 = idle). */
    public int doWork() throws IOException {
        inPass = true;
        if (!storageExhausted(System.nanoTime()) && pausedForStorage) {
            resumeAfterStorage();
        }
        int work = framer.poll();
        if (!pausedForStorage) {
            final int events = eventsToReports.poll(EVENTS_PER_PASS);
            // Once a day, on the day's first event: the pass's reports are stored, nothing is half done.
            if (events > 0 && checkpoint.due(eventsRead.lastRead()) && storage.level(System.nanoTime()) == StorageGuard.Level.OK) {
                checkpoint.take(eventsRead.lastRead(), this, false);
            }
            work += events;
            // Stale subscriptions whose session has caught up: a fresh W each, at the last event read.
            work += marketData.poll();
        }
        final long now = System.nanoTime();
        if (now >= nextTimerNanos) {
            nextTimerNanos = now + TIMER_NANOS;
            framer.onTimer(now);
            if (!pausedForStorage && !storageExhausted(now)) {
                // Heartbeats and TestRequests are stored like any message: none while paused (nor is anyone's silence judged).
                sessionTimers(now);
                eventsRead.checkForStall(now);
            }
            journal.checkpoint(now);
        }
        framer.flushAll();
        if (returns != null && returns.pending() > 0) {
            writeReturns();
        }
        inPass = false;
        return work;
    }

    private void sessionTimers(final long now) {
        for (int i = 0; i < sessions.size(); i++) {
            final FixSession s = sessions.get(i);
            try {
                s.onTimer(now);
            } catch (final RuntimeException e) {
                // One session's failure costs that session its connection, never the others theirs.
                if (s.connection == null) {
                    throw e;
                }
                framer.connectionError(s.connection, e);
            }
        }
    }

    /** Whether the disk is below a quarter of the reserve; pauses the gateway the first time it is (see {@link #pauseForStorage}). */
    private boolean storageExhausted(final long nowNanos) {
        if (storage.level(nowNanos) != StorageGuard.Level.EXHAUSTED) {
            return false;
        }
        if (!pausedForStorage) {
            pauseForStorage();
        }
        return true;
    }

    /** Asked before each client message: on an exhausted disk it waits in the connection's buffer (see {@link #pauseForStorage}). */
    @Override
    public boolean mayHandle() {
        return !storageExhausted(framer.readNanos);
    }

    /**
     * The disk is below a quarter of the reserve: anything the gateway does next could write into pages the filesystem cannot
     * back (a SIGBUS ends the JVM). So it stops creating output: client sockets are not read (TCP pushes back on the clients,
     * whose messages wait in the kernel's buffers) and the events queue is not read (results wait there). Nothing is lost;
     * output already stored still drains to the sockets. Checked at the start of every pass, before each client message,
     * each event and the session timers; space returning resumes it at the start of a pass.
     */
    private void pauseForStorage() {
        pausedForStorage = true;
        storagePauses++;
        framer.pauseReading();
        log.log("paused: " + storage.describe() + "; no client input is read and no event answered until space is freed (the"
            + " gateway goes on by itself, nothing is lost: input waits in the sockets, results in the events queue)");
    }

    private void resumeAfterStorage() {
        pausedForStorage = false;
        log.log("resumed: " + storage.describe());
        for (int i = 0; i < owedCancels.size(); i++) {
            final FixSession s = owedCancels.get(i);
            if (s.connection == null) {
                journal.cancelOnDisconnect(s, " (held back while the disk was full)");
                s.disconnected();
            }
        }
        owedCancels.clear();
        framer.resumeReading();
    }

    /** The answers this pass wrote, with the time the pass's writes ended; a failure stops the recording, never the gateway. */
    private void writeReturns() {
        try {
            storage.wrote(RETURN_BYTES * (long) returns.pending() + RETURN_BYTES);
            returns.flush(System.nanoTime());
        } catch (final RuntimeException e) {
            log.log("return-path hop times are no longer recorded (gateways/" + gatewayId + "/returns): " + e);
            returns = null;
            outbox.returns = null;
        }
    }

    @Override
    public void onMessage(final Connection c, final int offset, final int length) {
        messagesIn++;
        final int status = decoder.decode(c.inBuffer, offset, length);
        final FixSession s = c.session;
        final long nowEpochMillis = framer.readEpochNanos / 1_000_000L;
        if (s != null) {
            if (status == FixDecoder.GARBLED) {
                ignoreGarbled(s, decoder.rejectText());
                return;
            }
            published.messageIn(s.publishedSlot, decoder.msgSeqNum());
            // Its OnBehalfOfCompID comes back on whatever the session answers it with (a bad one makes it malformed).
            final int checked = replyRoute.set(c, decoder, status);
            try {
                s.onMessage(decoder, checked, framer.readNanos, nowEpochMillis);
            } finally {
                replyRoute.clear();
            }
            return;
        }
        if (status == FixDecoder.WRONG_BEGIN_STRING) {
            proxy.refuseLogon(c, decoder, "Incorrect BeginString " + decoder.stringValue(FixTags.BEGIN_STRING)
                + ": this gateway speaks FIX.4.4");
            return;
        }
        // A connection's first message must be a good Logon naming a session of this gateway.
        if (status != FixDecoder.OK || decoder.msgType() != FixMsgTypes.LOGON) {
            framer.drop(c, status != FixDecoder.OK ? "first message malformed: " + decoder.rejectText()
                : "first message is not a Logon");
            return;
        }
        liftBlocksIfAsked();
        for (int i = 0; i < sessions.size(); i++) {
            final FixSession candidate = sessions.get(i);
            if (decoder.valueEquals(FixTags.SENDER_COMP_ID, candidate.senderCompId)) {
                if (logonGuard.blocked(candidate.name, c.host, framer.readNanos)) {
                    refuseUnheard(c, candidate.name);
                    return;
                }
                if (candidate.onLogon(c, decoder, framer.readNanos, nowEpochMillis)) {
                    logonGuard.succeeded(candidate.name, c.host);
                    // Subscriptions never outlive a connection (the disconnect ended them already; this is the safety net).
                    marketData.sessionEnded(candidate.publishedSlot);
                    framer.loggedOn(c);
                    // A refused Logon is not the session's: only an accepted one counts in (its answer has counted out).
                    published.messageIn(candidate.publishedSlot, decoder.msgSeqNum());
                    published.loggedOn(candidate.publishedSlot, System.currentTimeMillis());
                } else if (candidate.refusedCredentials) {
                    logonGuard.failed(candidate.name, c.host, framer.readNanos);
                }
                return;
            }
        }
        if (logonGuard.blocked(null, c.host, framer.readNanos)) {
            refuseUnheard(c, null);
            return;
        }
        // The same answer as a wrong password; the log says which.
        log.log("unknown SenderCompID " + printable(decoder.stringValue(FixTags.SENDER_COMP_ID)) + " (not configured for gateway "
            + gatewayId + ") in a Logon from " + c.remote);
        logonGuard.failed(null, c.host, framer.readNanos);
        proxy.refuseLogon(c, decoder, FixSession.LOGON_REFUSED);
    }

    /**
     * A Logon while its address (or, from an address it never logged on from, its CompID) is blocked: refused in the words
     * of any credential failure, unheard, and counted against the address as an unknown CompID's would be, so what an
     * attacker can observe does not depend on whether the CompID exists. Logged once a second at most, with the count.
     */
    private void refuseUnheard(final Connection c, final String compId) {
        if (!logonGuard.blocked(null, c.host, framer.readNanos)) {
            logonGuard.failed(null, c.host, framer.readNanos);
        }
        proxy.refuseLogon(c, decoder, FixSession.LOGON_REFUSED);
        unheardLogons++;
        if (framer.readNanos - lastUnheardLogNanos >= 1_000_000_000L) {
            log.log(unheardLogons + " Logon(s) not heard since the last such line (failed logons of the address or CompID); the"
                + " latest from " + c.remote + (compId == null ? "" : " for " + compId) + ", blocked for "
                + logonGuard.blockedForNanos(compId, c.host, framer.readNanos) / 1_000_000 + " ms more");
            unheardLogons = 0;
            lastUnheardLogNanos = framer.readNanos;
        }
    }

    /**
     * The operator lifts logon blocks by writing DIR/gateways/N/unblock (lines: all, address IP, compid NAME); looked for
     * when a Logon arrives, at most once a second, so it costs nothing while nobody logs on. Read, applied, deleted, logged.
     */
    private void liftBlocksIfAsked() {
        if (framer.readNanos - lastUnblockLookNanos < 1_000_000_000L) {
            return;
        }
        lastUnblockLookNanos = framer.readNanos;
        if (!Files.exists(unblockFile)) {
            return;
        }
        try {
            final List<String> lines = Files.readAllLines(unblockFile);
            Files.delete(unblockFile);
            log.log("logon blocks: " + logonGuard.lift(lines) + " (asked in " + unblockFile + ")");
        } catch (final IOException | RuntimeException e) {
            log.log("logon blocks: cannot read " + unblockFile + ": " + e.getMessage());
        }
    }

    /** A client's text for the log: control characters as \\uXXXX, at most 64 characters. */
    private static String printable(final String text) {
        final StringBuilder out = new StringBuilder(Math.min(text.length(), 64));
        for (int i = 0; i < text.length() && i < 64; i++) {
            final char ch = text.charAt(i);
            out.append(ch < 0x20 || ch >= 0x7f ? String.format("\\u%04X", (int) ch) : String.valueOf(ch));
        }
        return text.length() > 64 ? out.append("...").toString() : out.toString();
    }

    /** Garbled messages and garbage between messages are dropped unanswered and uncounted (FIX 4.4 Volume 2). */
    private void ignoreGarbled(final FixSession s, final CharSequence why) {
        garbledIgnored++;
        if (++s.garbled <= GARBLED_LOGGED) {
            log.log("session " + s.name + ": garbled message ignored (" + why + ")"
                + (s.garbled == GARBLED_LOGGED ? "; further ones on this connection only counted" : ""));
        }
    }

    @Override
    public void onGarbage(final Connection c, final int bytes) {
        if (c.session != null) {
            ignoreGarbled(c.session, bytes + " bytes that do not start a message");
        }
    }

    @Override
    public void onDisconnected(final FixSession s) {
        published.loggedOff(s.publishedSlot, System.currentTimeMillis());
        marketData.sessionEnded(s.publishedSlot);
        if (s.config.cancelOnDisconnect()) {
            if (storage.level(System.nanoTime()) == StorageGuard.Level.EXHAUSTED) {
                // Still marked connected: journalled on resume, or by the next start if the gateway stops first.
                log.log("session " + s.name + ": cancel on disconnect held back until space is freed (" + storage.describe() + ")");
                owedCancels.add(s);
                return;
            }
            journal.cancelOnDisconnect(s, "");
        }
        // After the cancel: a kill between the two repeats the (harmless) mass cancel on restart, never skips it.
        s.disconnected();
    }

    /** A one-line summary for the status log. */
    public String status() {
        int loggedOn = 0;
        for (final FixSession s : sessions) {
            if (s.loggedOn()) {
                loggedOn++;
            }
        }
        return String.format(java.util.Locale.ROOT,
            "%d/%d sessions logged on, %d connections; %d messages in, %d commands journalled, %d events read, %d messages sent live;"
                + " rejects: %d session, %d business; %d connections dropped (%d slow consumers, %d session errors);"
                + " %d garbled ignored; %d times behind; %d events failed (last %s);"
                + " storage: %d orders/replaces refused below the reserve, %d requests refused below half of it, paused %d times%s;"
                + " %s",
            loggedOn, sessions.size(), framer.connectionCount(), messagesIn, appends.commandsAppended, eventsRead.eventsRead,
            outbox.sentLive, proxy.sessionRejects, proxy.businessRejects + journal.businessRejects, framer.connectionsDropped,
            framer.slowConsumers, framer.sessionErrors, garbledIgnored, flow.fellBehind, eventsRead.eventsFailed,
            eventsRead.lastFailedEvent < 0 ? "none" : Long.toHexString(eventsRead.lastFailedEvent),
            appends.storageRejectsLow, appends.storageRejectsCritical, storagePauses, pausedForStorage ? " (paused now)" : "",
            marketData.status());
    }

    /** Return-path latency percentiles so far, in microseconds. */
    public String latency() {
        return "engine append -> socket write " + percentiles(outbox.eventToWire) + "; events read -> socket write "
            + percentiles(outbox.eventsReadToWire) + "; socket read -> answer written " + percentiles(outbox.readToWire);
    }

    private static String percentiles(final org.HdrHistogram.Histogram h) {
        if (h.getTotalCount() == 0) {
            return "(none)";
        }
        return String.format(java.util.Locale.ROOT, "p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us (%d)",
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, h.getTotalCount());
    }

    /**
     * Logs every session out (best effort) and closes the queues. On a full disk the connections are closed without a
     * Logout: a Logout is stored before it is sent, and storing it there could end the process. Clients see the
     * connection end and log on again; nothing they were told is lost (all of it is stored).
     */
    @Override
    public void close() {
        final boolean logOut = storage.recheck() != StorageGuard.Level.EXHAUSTED;
        if (!logOut) {
            log.log("gateway shutting down on a full disk (" + storage.describe() + "): connections closed without a Logout");
        }
        for (final FixSession s : sessions) {
            final Connection c = s.connection;
            if (c != null && c.open) {
                if (logOut) {
                    s.logout("gateway shutting down");
                }
                try {
                    c.flush();
                } catch (final IOException ignored) {
                    // closing anyway
                }
                framer.close(c, logOut ? "gateway shutting down" : "gateway shutting down on a full disk, no Logout sent");
            }
        }
        journal.checkpoint();
        if (checkpoint.finish() && !inPass && eventsRead.lastRead() >= 0 && storage.recheck() == StorageGuard.Level.OK) {
            checkpoint.take(eventsRead.lastRead(), this, true);
        }
        framer.close();
        closeFiles();
    }

    private void closeFiles() {
        store.close();
        for (final FixSession s : sessions) {
            s.sent.close();
        }
        failedEvents.close();
        returnsQueue.close();
        published.close();
        commandsQueue.close();
        eventsQueue.close();
        state.close();
        clOrdIds.close();
        requestRoutes.close();
        routes.close();
    }
}
