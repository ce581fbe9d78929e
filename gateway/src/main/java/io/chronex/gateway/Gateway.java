package io.chronex.gateway;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.session.FailedEventsFile;
import io.chronex.gateway.session.OutboundStore;
import io.chronex.gateway.session.ResendIndex;
import io.chronex.gateway.session.SessionStateFile;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The FIX gateway's single thread: accepts and reads FIX 4.4 connections without blocking, runs
 * the session layer, appends order entry to the commands journal, tails the events queue and sends
 * every session the reports meant for it. Call {@link #doWork} in a loop; it never blocks.
 *
 * <p>Inbound: socket read → frame → decode → session checks → {@link OrderEntry} → journal append
 * (with the MsgSeqNum, so a restarted gateway knows what it had). Outbound: events excerpt →
 * {@link ExecutionReports} → {@link Outbox} (stored, then written). Both allocate nothing in
 * steady state.
 */
public final class Gateway implements AutoCloseable {
    /** A log line sink (the process's log). */
    public interface Log {
        void log(String line);
    }

    private static final long SECOND = 1_000_000_000L;
    /** HeartBtInt (108) a Logon may ask for, in seconds: every session is watched, none for longer than 5 minutes. */
    static final int MIN_HEARTBEAT_SECONDS = 1;
    static final int MAX_HEARTBEAT_SECONDS = 300;
    /** Output queued per connection; beyond it a session's output waits in the outbound store ({@link OutboundFlow}). */
    private static final int PENDING_BYTES = 1 << 20;
    /** Events read in one pass stop adding to the outbound batch beyond this. */
    private static final int BATCH_BYTES = 256 << 10;

    private final GatewayConfig config;
    private final int gatewayId;
    private final Log log;
    private final byte[] compId;
    private final SingleChronicleQueue commandsQueue;
    private final SingleChronicleQueue eventsQueue;
    private final ExcerptAppender commands;
    private final ExcerptTailer events;
    private final ExcerptTailer commandReader;
    private final OutboundStore store;
    private final SessionStateFile state;
    private final Outbox outbox;
    private final OutboundFlow flow;
    private final FailedEventsFile failedEvents;
    private final ExecutionReports reports;
    private final OrderEntry orderEntry;
    private final List<FixSession> sessions = new ArrayList<>();
    private final Long2ObjectHashMap<FixSession> sessionsByAccount = new Long2ObjectHashMap<>();

    private final Selector selector;
    private final ServerSocketChannel server;
    private final ArrayDeque<Connection> freeConnections = new ArrayDeque<>();
    private final List<Connection> connections = new ArrayList<>();
    private final ArrayList<Connection> dirty = new ArrayList<>();
    private final Consumer<SelectionKey> onKey = this::onKey;

    private final FixDecoder decoder = new FixDecoder();
    private final Command command = new Command();
    private final Hops hops = new Hops();
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();
    private final Command request = new Command();
    private final Hops requestHops = new Hops();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);
    private final FixEncoder scratchEncoder = new FixEncoder(scratch);
    private final byte[] textBytes = new byte[256];
    private final StringBuilder msgTypeText = new StringBuilder(2);

    private long readNanos;
    private long readEpochNanos;
    private long lastAppendIndex = -1;
    private long nextTimerNanos;
    private long nextScanFromNanos;
    private int work;
    /** The connection whose timers are being run, so an error there drops only it. */
    private Connection timersAt;

    // counters for the status line
    long messagesIn;
    long commandsAppended;
    long eventsRead;
    long sessionRejects;
    long businessRejects;
    long connectionsAccepted;
    long connectionsDropped;
    long slowConsumers;
    long sessionErrors;
    long eventsFailed;
    long lastFailedEvent = -1;

    public Gateway(final GatewayConfig config, final int gatewayId, final int port, final DataDirectory data, final Log log)
        throws IOException {
        this.config = config;
        this.gatewayId = gatewayId;
        this.log = log;
        this.compId = config.compId().getBytes(StandardCharsets.US_ASCII);
        this.orderEntry = new OrderEntry(config.symbols());
        this.state = new SessionStateFile(data.gatewayDir(gatewayId).resolve("sessions.state"));
        for (final GatewayConfig.Session s : config.sessionsOf(gatewayId)) {
            final int slot = state.slot(s.senderCompId());
            final FixSession session = new FixSession(s, slot,
                new ResendIndex(data.gatewayDir(gatewayId).resolve("resend-" + slot + ".index")));
            sessions.add(session);
            sessionsByAccount.put(s.account(), session);
        }
        if (sessions.isEmpty()) {
            throw new IllegalStateException("no session in " + config.engineConfigFile().getFileName() + "'s gateway file is for gateway "
                + gatewayId + "; give sessions 'gateway: " + gatewayId + "'");
        }
        this.commandsQueue = data.commands();
        this.eventsQueue = data.events();
        this.commands = commandsQueue.createAppender();
        this.commandReader = commandsQueue.createTailer();
        this.events = eventsQueue.createTailer();
        this.store = new OutboundStore(data.gatewayOutbound(gatewayId));
        this.failedEvents = new FailedEventsFile(data.gatewayDir(gatewayId).resolve("failed-events"));
        this.flow = new OutboundFlow(this, store, config.compId(), config.maxMessageLength(), log);
        this.outbox = new Outbox(this, store, flow, config.compId(), config.maxMessageLength());
        this.reports = new ExecutionReports(outbox, sessionsByAccount, orderEntry);
        recover();
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(config.bind(), port));
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return server.socket().getLocalPort();
    }

    // ------------------------------------------------------------------ recovery

    private void recover() {
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
        // AvgPx needs every fill of our live orders: go through the events already answered once.
        long tracked = 0;
        if (resumeAfter >= 0 || partial >= 0) {
            final ExcerptTailer scan = eventsQueue.createTailer();
            while (true) {
                try (DocumentContext dc = scan.readingDocument()) {
                    if (!dc.isPresent() || (partial >= 0 ? dc.index() >= partial : dc.index() > resumeAfter)) {
                        break;
                    }
                    if (EventCodec.read(dc.wire().bytes(), header, result) == DecodeStatus.OK) {
                        reports.track(result);
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
        } else {
            events.toStart();
        }
        // Inbound sequence numbers: the state file, then any journalled message it may have missed.
        long scanned = 0;
        final long scanFrom = state.scanFrom();
        if (scanFrom >= 0 && commandReader.moveToIndex(scanFrom)) {
            while (true) {
                try (DocumentContext dc = commandReader.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    scanned++;
                    if (CommandCodec.read(dc.wire().bytes(), request, requestHops) == DecodeStatus.OK
                        && requestHops.gatewayId == gatewayId && requestHops.clientSeqNum > 0) {
                        final FixSession s = sessionsByAccount.get(requestHops.sessionId);
                        if (s != null && state.expectedInbound(s.slot) <= requestHops.clientSeqNum) {
                            state.expectedInbound(s.slot, requestHops.clientSeqNum + 1L);
                        }
                    }
                }
            }
        }
        final StringBuilder sb = new StringBuilder();
        for (final FixSession s : sessions) {
            sb.append(sb.length() == 0 ? "" : ", ").append(s.name).append(" in ").append(state.expectedInbound(s.slot))
                .append(" out ").append(s.nextOutbound);
        }
        log.log(String.format(java.util.Locale.ROOT,
            "recovered in %.1f ms: resuming events after %s (%d answered events re-read for average prices), %d journal entries scanned"
                + " for sequence numbers; next MsgSeqNum per session: %s",
            (System.nanoTime() - start) / 1e6, resumeAfter < 0 ? "the start" : Long.toHexString(resumeAfter), tracked, scanned, sb));
    }

    // ------------------------------------------------------------------ the loop

    /** One pass: network, events, timers. Returns how much was done (0 = idle). */
    public int doWork() throws IOException {
        work = 0;
        selector.selectNow(onKey);
        work += pollEvents(256);
        final long now = System.nanoTime();
        if (now >= nextTimerNanos) {
            nextTimerNanos = now + 10_000_000L;
            try {
                timers(now);
            } catch (final RuntimeException e) {
                if (timersAt == null) {
                    throw e;
                }
                sessionError(timersAt, e);
                timersAt = null;
            }
        }
        flushAll();
        return work;
    }

    /** A connection with output queued in this pass. */
    void toFlush(final Connection c) {
        dirty.add(c);
    }

    private void flushAll() {
        for (int i = 0; i < dirty.size(); i++) {
            final Connection c = dirty.get(i);
            if (!c.open) {
                continue;
            }
            try {
                flow.drain(c);
                if (c.closeAtNanos != 0 && c.pending.position() == 0 && !c.backlog) {
                    close(c, null);
                }
            } catch (final IOException e) {
                drop(c, "write failed: " + e.getMessage());
            } catch (final RuntimeException e) {
                sessionError(c, e);
            }
        }
        dirty.clear();
    }

    /**
     * Something went wrong with one connection's work (a bug, a damaged store entry): that
     * connection is dropped with the reason in the log, and every other session goes on. The
     * session gets what it missed by resend when it logs on again.
     */
    private void sessionError(final Connection c, final RuntimeException e) {
        sessionErrors++;
        final StringBuilder where = new StringBuilder();
        final StackTraceElement[] trace = e.getStackTrace();
        for (int i = 0; i < Math.min(4, trace.length); i++) {
            where.append(i == 0 ? " at " : " < ").append(trace[i]);
        }
        log.log((c.session != null ? "session " + c.session.name : "connection " + c.remote) + ": error, connection dropped: " + e
            + where);
        try {
            drop(c, "error: " + e);
        } catch (final RuntimeException again) {
            log.log("dropping " + c.remote + " failed too: " + again);
        }
    }

    private void onKey(final SelectionKey key) {
        work++;
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            accept();
            return;
        }
        final Connection c = (Connection) key.attachment();
        try {
            if (key.isWritable()) {
                flow.drain(c);
                if (c.closeAtNanos != 0 && c.pending.position() == 0 && !c.backlog) {
                    close(c, null);
                    return;
                }
            }
            if (c.open && key.isReadable()) {
                read(c);
            }
        } catch (final IOException e) {
            drop(c, e.getMessage());
        } catch (final RuntimeException e) {
            sessionError(c, e);
        }
    }

    private void accept() {
        try {
            final SocketChannel channel = server.accept();
            if (channel == null) {
                return;
            }
            connectionsAccepted++;
            Connection c = freeConnections.poll();
            if (c == null && connections.size() < config.maxConnections()) {
                // Created on first need and pooled from then on, so connection churn allocates nothing.
                c = new Connection(config.maxMessageLength() * 2, PENDING_BYTES);
            }
            if (c == null) {
                log.log("refused a connection from " + channel.getRemoteAddress() + ": already " + config.maxConnections()
                    + " connections (maxConnections)");
                channel.close();
                return;
            }
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            final SelectionKey key = channel.register(selector, SelectionKey.OP_READ, c);
            c.attach(channel, key, String.valueOf(channel.getRemoteAddress()), System.nanoTime());
            connections.add(c);
        } catch (final IOException e) {
            log.log("accept failed: " + e.getMessage());
        }
    }

    private void read(final Connection c) throws IOException {
        final int n = c.channel.read(c.in);
        if (n < 0) {
            drop(c, "the client closed the connection");
            return;
        }
        if (n == 0) {
            return;
        }
        readNanos = System.nanoTime();
        readEpochNanos = System.currentTimeMillis() * 1_000_000L;
        final int limit = c.in.position();
        int position = 0;
        while (position < limit && c.open && c.closeAtNanos == 0) {
            final int length = FixDecoder.frame(c.inBuffer, position, limit - position, config.maxMessageLength());
            if (length == 0) {
                break;
            }
            if (length < 0) {
                drop(c, length == FixDecoder.FRAME_TOO_LONG ? "message longer than maxMessageLength " + config.maxMessageLength()
                    : "bytes that are not a FIX.4.4 message");
                return;
            }
            onMessage(c, position, length);
            position += length;
        }
        if (!c.open) {
            return;
        }
        // Keep an incomplete message at the start of the buffer.
        if (position > 0) {
            c.inBuffer.putBytes(0, c.inBuffer, position, limit - position);
            c.in.position(limit - position);
        }
        if (!c.in.hasRemaining()) {
            drop(c, "message longer than the input buffer");
        }
    }

    // ------------------------------------------------------------------ session layer

    private void onMessage(final Connection c, final int offset, final int length) {
        messagesIn++;
        final int status = decoder.decode(c.inBuffer, offset, length);
        final FixSession s = c.session;
        if (s == null) {
            onFirstMessage(c, status);
            return;
        }
        s.lastReceivedNanos = readNanos;
        s.testRequestSentNanos = 0;
        final long expected = state.expectedInbound(s.slot);
        if (status != FixDecoder.OK) {
            rejectMalformed(s, status, expected);
            return;
        }
        if (!decoder.valueEquals(FixTags.SENDER_COMP_ID, s.senderCompId) || !decoder.valueEquals(FixTags.TARGET_COMP_ID, compId)) {
            sessionReject(s, decoder.msgSeqNum(), FixTags.SENDER_COMP_ID, decoder.msgType(), 9, "CompID problem");
            logout(s, "SenderCompID/TargetCompID do not match the session");
            return;
        }
        final int msgType = decoder.msgType();
        final long seq = decoder.msgSeqNum();
        if (msgType == FixMsgTypes.SEQUENCE_RESET && !decoder.booleanValue(FixTags.GAP_FILL_FLAG)) {
            sequenceReset(s, expected);
        } else if (seq > expected) {
            onSequenceGap(c, s, msgType, expected, seq);
        } else if (seq < expected) {
            if (!decoder.booleanValue(FixTags.POSS_DUP_FLAG)) {
                logout(s, "MsgSeqNum too low, expecting " + expected + " but received " + seq);
            }
        } else {
            onInSequence(c, s, msgType, seq, expected);
        }
    }

    /** A connection's first message must be a good Logon. */
    private void onFirstMessage(final Connection c, final int status) {
        if (status != FixDecoder.OK || decoder.msgType() != FixMsgTypes.LOGON) {
            drop(c, status != FixDecoder.OK ? "first message malformed: " + decoder.rejectText()
                : "first message is not a Logon");
            return;
        }
        logon(c);
    }

    /** A message that does not decode uses up its sequence number only when it had the expected one. */
    private void rejectMalformed(final FixSession s, final int status, final long expected) {
        final long seq = decoder.msgSeqNum();
        sessionReject(s, seq > 0 ? seq : expected, decoder.rejectRefTag(), decoder.msgType(), status, decoder.rejectText());
        if (seq == expected) {
            state.expectedInbound(s.slot, expected + 1);
        }
    }

    /** Messages were missed: ask for them once, but still answer a ResendRequest and a Logout. */
    private void onSequenceGap(final Connection c, final FixSession s, final int msgType, final long expected, final long seq) {
        if (msgType == FixMsgTypes.RESEND_REQUEST) {
            resend(c, s);
        }
        if (s.resendAskedThrough < expected) {
            askForResend(s, expected, seq);
        }
        if (msgType == FixMsgTypes.LOGOUT) {
            // As in sequence: the answer (after the ResendRequest) is written before the connection closes.
            if (s.logoutSent) {
                close(c, "logged out");
            } else {
                logout(s, "logout acknowledged");
            }
        }
    }

    /** A message with the expected MsgSeqNum: handled, and the next one is expected. */
    private void onInSequence(final Connection c, final FixSession s, final int msgType, final long seq, final long expected) {
        switch (msgType) {
            case FixMsgTypes.NEW_ORDER_SINGLE, FixMsgTypes.ORDER_CANCEL_REQUEST, FixMsgTypes.ORDER_CANCEL_REPLACE_REQUEST,
                FixMsgTypes.ORDER_MASS_CANCEL_REQUEST -> {
                orderEntry(s, msgType, seq);
                return;
            }
            case FixMsgTypes.HEARTBEAT, FixMsgTypes.REJECT -> {
            }
            case FixMsgTypes.TEST_REQUEST -> answerTestRequest(s);
            case FixMsgTypes.RESEND_REQUEST -> resend(c, s);
            case FixMsgTypes.SEQUENCE_RESET -> {
                onGapFill(s, seq, expected);
                return;
            }
            case FixMsgTypes.LOGOUT -> {
                state.expectedInbound(s.slot, expected + 1);
                if (s.logoutSent) {
                    close(c, "logged out");
                } else {
                    // The answer goes out at the end of this pass, and the connection closes once it is
                    // written (or 2 s later if the client stops reading): closing now would drop it.
                    logout(s, null);
                    log.log("session " + s.name + " logged out");
                }
                return;
            }
            case FixMsgTypes.LOGON -> {
                state.expectedInbound(s.slot, expected + 1);
                logout(s, "already logged on");
                return;
            }
            default -> {
                if (isApplicationType(msgType)) {
                    businessMessageReject(s, seq, msgType, 3, "MsgType not supported by this gateway");
                } else {
                    sessionReject(s, seq, FixTags.MSG_TYPE, msgType, 11, "invalid MsgType");
                }
            }
        }
        state.expectedInbound(s.slot, expected + 1);
    }

    private void answerTestRequest(final FixSession s) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.HEARTBEAT, System.currentTimeMillis());
        if (decoder.has(FixTags.TEST_REQ_ID)) {
            e.addBytes(FixTags.TEST_REQ_ID, decoder.buffer(), decoder.valueOffset(FixTags.TEST_REQ_ID),
                decoder.valueLength(FixTags.TEST_REQ_ID));
        }
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    /** SequenceReset-GapFill in sequence: jumps to NewSeqNo, which may only go up. */
    private void onGapFill(final FixSession s, final long seq, final long expected) {
        final long next = decoder.longValue(FixTags.NEW_SEQ_NO);
        if (next > expected) {
            state.expectedInbound(s.slot, next);
        } else {
            sessionReject(s, seq, FixTags.NEW_SEQ_NO, FixMsgTypes.SEQUENCE_RESET, 5, "NewSeqNo " + next + " is not above " + expected);
            state.expectedInbound(s.slot, expected + 1);
        }
    }

    private void logon(final Connection c) {
        FixSession s = null;
        for (final FixSession candidate : sessions) {
            if (decoder.valueEquals(FixTags.SENDER_COMP_ID, candidate.senderCompId)) {
                s = candidate;
                break;
            }
        }
        final String who = decoder.stringValue(FixTags.SENDER_COMP_ID);
        if (s == null) {
            refuse(c, "unknown SenderCompID " + who + " (not configured for gateway " + gatewayId + ")");
            return;
        }
        if (!decoder.valueEquals(FixTags.TARGET_COMP_ID, compId)) {
            refuse(c, "TargetCompID must be " + config.compId());
            return;
        }
        if (s.password != null && !decoder.valueEquals(FixTags.PASSWORD, s.password)) {
            refuse(c, "Logon of " + who + " refused: wrong or missing password (554)");
            return;
        }
        if (s.connection != null) {
            refuse(c, "session " + who + " is already logged on from another connection");
            return;
        }
        final long heartbeat = decoder.longValue(FixTags.HEART_BT_INT);
        // 0 would switch off every liveness check: a silent client would hold its session for ever.
        if (heartbeat < MIN_HEARTBEAT_SECONDS || heartbeat > MAX_HEARTBEAT_SECONDS) {
            refuse(c, "HeartBtInt (108) must be " + MIN_HEARTBEAT_SECONDS + ".." + MAX_HEARTBEAT_SECONDS + " seconds");
            return;
        }
        final boolean reset = decoder.booleanValue(FixTags.RESET_SEQ_NUM_FLAG);
        final long seq = decoder.msgSeqNum();
        if (reset) {
            if (seq != 1) {
                refuse(c, "a Logon with ResetSeqNumFlag=Y must have MsgSeqNum 1");
                return;
            }
            state.expectedInbound(s.slot, 1);
            s.resetOutbound();
            store.markReset(s.account);
        }
        final long expected = state.expectedInbound(s.slot);
        if (seq < expected) {
            refuse(c, "MsgSeqNum too low, expecting " + expected + " but received " + seq);
            return;
        }
        c.session = s;
        s.connection = c;
        s.heartbeatNanos = heartbeat * SECOND;
        s.lastReceivedNanos = readNanos;
        s.lastSentNanos = readNanos;
        s.testRequestSentNanos = 0;
        s.logoutSent = false;
        s.resendAskedThrough = 0;
        flow.attach(s);
        final FixEncoder e = outbox.begin(s, FixMsgTypes.LOGON, System.currentTimeMillis());
        e.addLong(FixTags.ENCRYPT_METHOD, 0);
        e.addLong(FixTags.HEART_BT_INT, heartbeat);
        if (reset) {
            e.addBoolean(FixTags.RESET_SEQ_NUM_FLAG, true);
        }
        outbox.end(0, 0);
        outbox.commit(-1);
        log.log("session " + s.name + " logged on from " + c.remote + (reset ? " (sequence numbers reset)" : "")
            + ": next in " + expected + ", client sent " + seq + ", next out " + s.nextOutbound);
        if (seq > expected) {
            askForResend(s, expected, seq);
        } else {
            state.expectedInbound(s.slot, expected + 1);
        }
    }

    /** A ResendRequest from the expected number to infinity; no other until the client catches up to seq. */
    private void askForResend(final FixSession s, final long expected, final long seq) {
        s.resendAskedThrough = seq;
        final FixEncoder e = outbox.begin(s, FixMsgTypes.RESEND_REQUEST, System.currentTimeMillis());
        e.addLong(FixTags.BEGIN_SEQ_NO, expected);
        e.addLong(FixTags.END_SEQ_NO, 0);
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    /** Refuses a Logon: a Logout with the reason (outside any session's sequence), then the connection is closed. */
    private void refuse(final Connection c, final String why) {
        log.log("refused Logon from " + c.remote + ": " + why);
        final FixEncoder e = scratchEncoder.start(0, FixMsgTypes.LOGOUT);
        e.addAscii(FixTags.SENDER_COMP_ID, compId);
        if (decoder.has(FixTags.SENDER_COMP_ID)) {
            e.addBytes(FixTags.TARGET_COMP_ID, decoder.buffer(), decoder.valueOffset(FixTags.SENDER_COMP_ID),
                decoder.valueLength(FixTags.SENDER_COMP_ID));
        }
        e.addLong(FixTags.MSG_SEQ_NUM, 1);
        e.addUtcTimestamp(FixTags.SENDING_TIME, System.currentTimeMillis());
        e.addAscii(FixTags.TEXT, why);
        final int length = e.finish();
        outbox.write(c, scratch, e.messageOffset(), length);
        c.closeAtNanos = System.nanoTime() + SECOND;
    }

    private void sequenceReset(final FixSession s, final long expected) {
        final long next = decoder.longValue(FixTags.NEW_SEQ_NO);
        if (next < expected) {
            sessionReject(s, decoder.msgSeqNum(), FixTags.NEW_SEQ_NO, FixMsgTypes.SEQUENCE_RESET, 5,
                "NewSeqNo " + next + " would move the sequence back from " + expected);
            return;
        }
        state.expectedInbound(s.slot, next);
    }

    /** Answers a ResendRequest from the store, streamed ({@link OutboundFlow}): any size, never all queued at once. */
    private void resend(final Connection c, final FixSession s) {
        flow.resend(c, s, decoder.longValue(FixTags.BEGIN_SEQ_NO), decoder.longValue(FixTags.END_SEQ_NO));
    }

    private void sessionReject(final FixSession s, final long refSeq, final int refTag, final int refMsgType, final int reason,
                               final CharSequence text) {
        sessionRejects++;
        final FixEncoder e = outbox.begin(s, FixMsgTypes.REJECT, System.currentTimeMillis());
        e.addLong(FixTags.REF_SEQ_NUM, Math.max(0, refSeq));
        if (refTag > 0) {
            e.addLong(FixTags.REF_TAG_ID, refTag);
        }
        if (refMsgType != 0) {
            e.addAscii(FixTags.REF_MSG_TYPE, msgTypeText(refMsgType));
        }
        e.addLong(FixTags.SESSION_REJECT_REASON, reason);
        if (text != null) {
            e.addAscii(FixTags.TEXT, text);
        }
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    private void businessMessageReject(final FixSession s, final long refSeq, final int refMsgType, final int reason, final String text) {
        businessRejects++;
        final FixEncoder e = outbox.begin(s, FixMsgTypes.BUSINESS_MESSAGE_REJECT, System.currentTimeMillis());
        e.addLong(FixTags.REF_SEQ_NUM, refSeq);
        e.addAscii(FixTags.REF_MSG_TYPE, msgTypeText(refMsgType));
        e.addLong(FixTags.BUSINESS_REJECT_REASON, reason);
        e.addAscii(FixTags.TEXT, text);
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    private CharSequence msgTypeText(final int msgType) {
        msgTypeText.setLength(0);
        msgTypeText.append((char) (msgType & 0xFF));
        if ((msgType >>> 8) != 0) {
            msgTypeText.append((char) ((msgType >>> 8) & 0xFF));
        }
        return msgTypeText;
    }

    private static boolean isApplicationType(final int msgType) {
        final int first = msgType & 0xFF;
        final int second = (msgType >>> 8) & 0xFF;
        if (second == 0) {
            return (first >= '6' && first <= '9') || (first >= 'B' && first <= 'Z') || (first >= 'a' && first <= 'z');
        }
        return (first == 'A' || first == 'B') && ((second >= 'A' && second <= 'Z') || (second >= 'a' && second <= 'z'));
    }

    /** Sends Logout (with a reason, or null) and closes after a grace period if the client does not answer. */
    void logout(final FixSession s, final String text) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.LOGOUT, System.currentTimeMillis());
        if (text != null) {
            e.addAscii(FixTags.TEXT, text);
        }
        outbox.end(0, 0);
        outbox.commit(-1);
        s.logoutSent = true;
        final Connection c = s.connection;
        if (c != null && c.closeAtNanos == 0) {
            c.closeAtNanos = System.nanoTime() + 2 * SECOND;
        }
        if (text != null) {
            log.log("session " + s.name + ": Logout sent: " + text);
        }
    }

    // ------------------------------------------------------------------ order entry: decode → journal

    private void orderEntry(final FixSession s, final int msgType, final long seq) {
        if (!s.admit(readNanos)) {
            businessRejects++;
            throttled(s, msgType, seq);
            state.expectedInbound(s.slot, seq + 1);
            return;
        }
        final OrderEntry.Outcome outcome = orderEntry.translate(decoder, msgType, s.account, command);
        if (outcome == OrderEntry.Outcome.SESSION_REJECT) {
            sessionReject(s, seq, orderEntry.rejectTag, msgType, orderEntry.sessionRejectReason, orderEntry.text);
            state.expectedInbound(s.slot, seq + 1);
            return;
        }
        if (outcome == OrderEntry.Outcome.BUSINESS_REJECT) {
            businessRejects++;
            gatewayReject(s, msgType, orderEntry.businessReason, orderEntry.text);
            state.expectedInbound(s.slot, seq + 1);
            return;
        }
        hops.clear();
        hops.gatewayId = gatewayId;
        hops.sessionId = s.account;
        hops.clientSeqNum = (int) Math.min(Integer.MAX_VALUE, seq);
        hops.gatewayReadNanos = readNanos;
        hops.receiptEpochNanos = readEpochNanos;
        CommandCodec.append(commands, command, hops);
        lastAppendIndex = commands.lastIndexAppended();
        commandsAppended++;
        state.expectedInbound(s.slot, seq + 1);
        if (state.scanFrom() < 0) {
            // The first command this gateway ever journalled: from now on a restart scans from here.
            state.scanFrom(lastAppendIndex);
        }
    }

    /** A refusal decided at the gateway (nothing reaches the journal): the reject message FIX has for that request. */
    private void gatewayReject(final FixSession s, final int msgType, final int reason, final String text) {
        final long now = System.currentTimeMillis();
        if (msgType == FixMsgTypes.NEW_ORDER_SINGLE) {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.EXECUTION_REPORT, now);
            e.addAscii(FixTags.ORDER_ID, "NONE");
            copy(e, FixTags.CL_ORD_ID);
            e.addAscii(FixTags.EXEC_ID, "R" + s.nextOutbound);
            e.addChar(FixTags.EXEC_TYPE, '8');
            e.addChar(FixTags.ORD_STATUS, '8');
            e.addLong(FixTags.ACCOUNT, s.account);
            copy(e, FixTags.SYMBOL);
            copy(e, FixTags.SIDE);
            copy(e, FixTags.ORDER_QTY);
            e.addLong(FixTags.LEAVES_QTY, 0);
            e.addLong(FixTags.CUM_QTY, 0);
            e.addLong(FixTags.AVG_PX, 0);
            e.addLong(FixTags.ORD_REJ_REASON, reason);
            e.addAscii(FixTags.TEXT, text);
            e.addUtcTimestamp(FixTags.TRANSACT_TIME, now);
        } else if (msgType == FixMsgTypes.ORDER_MASS_CANCEL_REQUEST) {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.ORDER_MASS_CANCEL_REPORT, now);
            copy(e, FixTags.CL_ORD_ID);
            e.addAscii(FixTags.ORDER_ID, "NONE");
            copy(e, FixTags.MASS_CANCEL_REQUEST_TYPE);
            e.addChar(FixTags.MASS_CANCEL_RESPONSE, '0');
            e.addLong(FixTags.MASS_CANCEL_REJECT_REASON, reason == 1 ? 1 : 99);
            e.addAscii(FixTags.TEXT, text);
        } else {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.ORDER_CANCEL_REJECT, now);
            e.addAscii(FixTags.ORDER_ID, "NONE");
            copy(e, FixTags.CL_ORD_ID);
            copy(e, FixTags.ORIG_CL_ORD_ID);
            e.addChar(FixTags.ORD_STATUS, '8');
            e.addLong(FixTags.ACCOUNT, s.account);
            e.addChar(FixTags.CXL_REJ_RESPONSE_TO, msgType == FixMsgTypes.ORDER_CANCEL_REQUEST ? '1' : '2');
            e.addLong(FixTags.CXL_REJ_REASON, reason == 1 ? 1 : 99);
            e.addAscii(FixTags.TEXT, text);
        }
        outbox.end(readNanos, 0);
        outbox.commit(-1);
    }

    private void throttled(final FixSession s, final int msgType, final long seq) {
        final String text = "throttled: more than " + s.config.throttlePerSecond() + " messages a second";
        if (msgType == FixMsgTypes.ORDER_MASS_CANCEL_REQUEST) {
            businessMessageReject(s, seq, msgType, 99, text);
        } else {
            gatewayReject(s, msgType, 99, text);
        }
    }

    private void copy(final FixEncoder e, final int tag) {
        if (decoder.has(tag)) {
            e.addBytes(tag, decoder.buffer(), decoder.valueOffset(tag), decoder.valueLength(tag));
        }
    }

    // ------------------------------------------------------------------ events → reports

    /**
     * Reads up to limit events and turns them into reports. All the reports of the events read in
     * one call go to the outbound store as one excerpt (tagged with the last event), which under
     * load turns many small appends into one; when idle a call reads one event and commits at once.
     */
    private int pollEvents(final int limit) {
        int n = 0;
        long lastIndex = -1;
        while (n < limit) {
            try (DocumentContext dc = events.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                n++;
                eventsRead++;
                outbox.eventsReadNanos = System.nanoTime();
                final long index = dc.index();
                lastIndex = index;
                final DecodeStatus status = EventCodec.read(dc.wire().bytes(), header, result);
                if (status != DecodeStatus.OK) {
                    eventFailed(index, "it cannot be read (" + status + ")");
                    continue;
                }
                outbox.beginEvent(index);
                try {
                    answer(index);
                    outbox.endEvent();
                } catch (final RuntimeException e) {
                    final int stored = outbox.abandonEvent();
                    eventFailed(index, e + (stored > 0 ? "; " + stored + " of its messages had been stored before" : ""));
                }
            }
            if (outbox.batchLength() > BATCH_BYTES) {
                break;
            }
        }
        if (lastIndex >= 0) {
            outbox.commit(lastIndex);
        }
        return n;
    }

    /** Builds the messages of the event just read (in header and result). */
    private void answer(final long index) {
        FixSession direct = null;
        if (header.hops.gatewayId == gatewayId && header.hops.sessionId != 0) {
            direct = sessionsByAccount.get(header.hops.sessionId);
        }
        Command req = null;
        final CommandType type = result.commandType;
        if (direct != null && (type == CommandType.CANCEL || type == CommandType.REPLACE || type == CommandType.MASS_CANCEL)) {
            req = readCommand(header.commandIndex);
            if (req == null) {
                eventFailed(index, "command " + Long.toHexString(header.commandIndex)
                    + " cannot be read back from the journal; the answer to session " + direct.name + " is not sent");
                direct = null;
            }
        }
        reports.onResult(index, result, direct, req, System.currentTimeMillis(), header.hops.gatewayReadNanos,
            header.hops.engineAppendNanos);
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
            if (!dc.isPresent() || CommandCodec.read(dc.wire().bytes(), request, requestHops) != DecodeStatus.OK) {
                return null;
            }
            return request;
        }
    }

    // ------------------------------------------------------------------ timers, connections

    private void timers(final long now) {
        for (int i = connections.size() - 1; i >= 0; i--) {
            final Connection c = connections.get(i);
            // Named for doWork's guard: an error here drops this connection, the rest get their timers next pass.
            timersAt = c;
            if (c.stalledSinceNanos != 0 && now - c.stalledSinceNanos > config.writeStallSeconds() * SECOND) {
                slowConsumers++;
                drop(c, "slow consumer: took none of our output for " + config.writeStallSeconds() + " s (" + c.pending.position()
                    + " bytes waiting" + (c.backlog ? ", more in the store" : "") + "); it gets the rest by resend when it logs on again");
                continue;
            }
            if (c.closeAtNanos != 0 && now >= c.closeAtNanos) {
                close(c, "closed after Logout");
                continue;
            }
            final FixSession s = c.session;
            if (s == null) {
                if (now - c.connectedNanos > config.logonTimeoutSeconds() * SECOND) {
                    drop(c, "no Logon within " + config.logonTimeoutSeconds() + " s");
                }
                continue;
            }
            if (s.heartbeatNanos == 0 || s.logoutSent) {
                continue;
            }
            if (now - s.lastSentNanos >= s.heartbeatNanos) {
                outbox.begin(s, FixMsgTypes.HEARTBEAT, System.currentTimeMillis());
                outbox.end(0, 0);
                outbox.commit(-1);
            }
            final long silent = now - s.lastReceivedNanos;
            if (s.testRequestSentNanos == 0 && silent > s.heartbeatNanos + s.heartbeatNanos / 5) {
                s.testRequestSentNanos = now;
                final FixEncoder e = outbox.begin(s, FixMsgTypes.TEST_REQUEST, System.currentTimeMillis());
                e.addLong(FixTags.TEST_REQ_ID, now / 1_000_000L);
                outbox.end(0, 0);
                outbox.commit(-1);
            } else if (s.testRequestSentNanos != 0 && now - s.testRequestSentNanos > s.heartbeatNanos) {
                drop(c, "no answer to a TestRequest within " + s.heartbeatNanos / SECOND + " s");
            }
        }
        timersAt = null;
        if (now >= nextScanFromNanos) {
            nextScanFromNanos = now + SECOND;
            if (lastAppendIndex >= 0) {
                state.scanFrom(lastAppendIndex);
            }
        }
    }

    /** Cuts a connection off (an error, a misbehaving client); other sessions are not touched. */
    void drop(final Connection c, final String why) {
        if (!c.open) {
            return;
        }
        connectionsDropped++;
        close(c, why);
    }

    private void close(final Connection c, final String why) {
        if (!c.open) {
            return;
        }
        c.open = false;
        final FixSession s = c.session;
        if (why != null) {
            log.log((s != null ? "session " + s.name : "connection " + c.remote) + " disconnected: " + why);
        }
        try {
            c.key.cancel();
            c.channel.close();
        } catch (final IOException ignored) {
            // closing anyway
        }
        connections.remove(c);
        c.session = null;
        c.channel = null;
        c.key = null;
        freeConnections.add(c);
        if (s != null) {
            s.connection = null;
            if (s.config.cancelOnDisconnect()) {
                cancelOnDisconnect(s);
            }
        }
    }

    private void cancelOnDisconnect(final FixSession s) {
        command.massCancel(s.account, Command.ALL_SYMBOLS);
        hops.clear();
        hops.gatewayId = gatewayId;
        // Session 0: no answer is due to anyone; each cancelled order is still reported to its session.
        hops.sessionId = 0;
        hops.gatewayReadNanos = System.nanoTime();
        hops.receiptEpochNanos = System.currentTimeMillis() * 1_000_000L;
        CommandCodec.append(commands, command, hops);
        lastAppendIndex = commands.lastIndexAppended();
        log.log("session " + s.name + ": cancel on disconnect: mass cancel of account " + s.account + " journalled");
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
                + " %d times behind; %d events failed (last %s)",
            loggedOn, sessions.size(), connections.size(), messagesIn, commandsAppended, eventsRead, outbox.sentLive,
            sessionRejects, businessRejects, connectionsDropped, slowConsumers, sessionErrors, flow.fellBehind,
            eventsFailed, lastFailedEvent < 0 ? "none" : Long.toHexString(lastFailedEvent));
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

    /** Logs every session out (best effort) and closes the queues. */
    @Override
    public void close() {
        for (final FixSession s : sessions) {
            if (s.connection != null && s.connection.open) {
                logout(s, "gateway shutting down");
                try {
                    s.connection.flush();
                } catch (final IOException ignored) {
                    // closing anyway
                }
                close(s.connection, "gateway shutting down");
            }
        }
        if (lastAppendIndex >= 0) {
            state.scanFrom(lastAppendIndex);
        }
        try {
            server.close();
            selector.close();
        } catch (final IOException ignored) {
            // closing anyway
        }
        store.close();
        for (final FixSession s : sessions) {
            s.sent.close();
        }
        failedEvents.close();
        commandsQueue.close();
        eventsQueue.close();
        state.close();
    }
}
