package io.chronex.gateway;

import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.session.OutboundStore;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.ReturnHops;
import io.chronex.runtime.StorageGuard;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * Where every outgoing FIX message is built, stored and sent. Messages are built into one batch;
 * {@link #commit} appends the batch to the {@link OutboundStore} as one excerpt and only then
 * hands each message to {@link OutboundFlow} for its client, if connected. A message is therefore
 * never on the wire without being stored, and a client that is away gets it by resend.
 *
 * <p>Messages of events are built between {@link #beginEvent} and {@link #endEvent}. An event may
 * produce any number of them: when the batch grows past {@link #PART_BYTES} (or its entry table is
 * full) in the middle of an event, what is built so far is stored as a part that names the event
 * and how many of its messages are stored, and the event goes on. After a crash between parts the
 * gateway builds that event again and {@link #resumeInside skips} the messages already stored.
 */
final class Outbox {
    private static final int MAX_BATCH_ENTRIES = 1 << 16;
    /** A batch this big in the middle of an event is stored as a part; Chronicle excerpts stay small whatever one event produces. */
    static final int PART_BYTES = 256 << 10;
    /**
     * Fault injection for the crash tests only: with -Dchronex.gateway.haltAfterParts=N the process
     * halts (as kill -9 would end it) right after storing its N-th part, before sending any of it.
     */
    private static final int HALT_AFTER_PARTS = Integer.getInteger("chronex.gateway.haltAfterParts", 0);
    /** Headroom past an entry header for the encoder's reserved prefix (32 bytes) and the CheckSum trailer, with margin. */
    private static final int SPARE_BYTES = 64;
    /** Per message: its resend index slot (a sparse file that grows as it is written); per excerpt: Chronicle's header and ours. */
    private static final int ENTRY_OVERHEAD = 8;
    private static final int EXCERPT_OVERHEAD = 64;
    private static final long SPACE_POLL_NANOS = 50_000_000L;

    private final OutboundStore store;
    private final byte[] compId;
    private byte[] batchBytes;
    private final UnsafeBuffer batch;
    private ByteBuffer batchView;
    private final FixEncoder encoder;
    private final int maxMessageLength;
    private int batchLength;
    private int entryStart;
    private FixSession current;
    private int currentMsgType;

    private final FixSession[] entrySession = new FixSession[MAX_BATCH_ENTRIES];
    private final int[] entryOffset = new int[MAX_BATCH_ENTRIES];
    private final int[] entryLength = new int[MAX_BATCH_ENTRIES];
    private final long[] entryCommandReadNanos = new long[MAX_BATCH_ENTRIES];
    private final long[] entryEngineAppendNanos = new long[MAX_BATCH_ENTRIES];
    private final long[] entryEventsReadNanos = new long[MAX_BATCH_ENTRIES];
    private final long[] entryEventsIndex = new long[MAX_BATCH_ENTRIES];
    private int entries;
    /** Where the answers written straight to their sockets are noted for the return path's hop times; null: not recorded. */
    ReturnHops.Writer returns;
    /** The event whose first answer to its sender was last noted in {@link #returns}: its later answers are not. */
    private long lastReturned = -1;

    /**
     * Engine append → queued for the socket, events read → queued, and gateway socket read → queued
     * (the round trip inside the exchange). Queued output is written at the end of the same loop pass.
     */
    final Histogram eventToWire = new Histogram(3_600_000_000_000L, 3);
    final Histogram readToWire = new Histogram(3_600_000_000_000L, 3);
    final Histogram eventsReadToWire = new Histogram(3_600_000_000_000L, 3);
    long eventsReadNanos;
    long sentLive;
    private final Framer framer;
    private final OutboundFlow flow;
    /** Each message stored counts out for its session there. */
    private final GatewaySessionsFile published;

    /** The event whose messages are being built (-1: none), and where its messages not yet stored start in the batch. */
    private long eventIndex = -1;
    private int eventFirstEntry;
    private int eventFirstByte;
    /** Messages of that event so far, stored in earlier parts or skipped included. */
    private int eventMessages;
    /** After a crash between parts: that event's first messages are already stored, so building it again skips them. */
    private long skipEvent = Long.MIN_VALUE;
    private int skipMessages;
    private int skipping;
    /** The store's last event-tagged excerpt is a part: the next commit for an event must close it, even with nothing in it. */
    private boolean partOpen;
    private int partsStored;
    /** The filesystem the store is on; set by {@link Gateway} (with the configured reserve) before anything is stored. */
    StorageGuard storage;
    /** Where a wait for space is said; set with {@link #storage}. */
    Gateway.Log log;
    /** Times a store write had to wait for space (only an answer bigger than the margin below a quarter of the reserve does). */
    long storageWaits;
    /** The route of the client message being handled, answered by what its session is sent meanwhile; set by {@link Gateway}. */
    ReplyRoute reply;
    /** The routes of orders and requests, for the messages that name one; set by {@link Gateway}. */
    Routes routes;

    Outbox(final Framer framer, final OutboundStore store, final OutboundFlow flow, final String compId, final int maxMessageLength,
           final GatewaySessionsFile published) {
        this.framer = framer;
        this.published = published;
        this.flow = flow;
        this.store = store;
        this.compId = compId.getBytes(StandardCharsets.US_ASCII);
        this.maxMessageLength = maxMessageLength;
        this.batchBytes = new byte[1 << 20];
        this.batch = new UnsafeBuffer(batchBytes);
        this.batchView = ByteBuffer.wrap(batchBytes);
        this.encoder = new FixEncoder(batch);
    }

    /**
     * Starts a message to a session with the standard header (our CompID, theirs, the next
     * MsgSeqNum, SendingTime); the caller adds the body and calls {@link #end}. Sent while a client
     * message with an OnBehalfOfCompID is handled, an answer to it carries that route back ({@link ReplyRoute}).
     */
    FixEncoder begin(final FixSession session, final int msgType, final long nowMillis) {
        final FixEncoder e = begin(session, msgType);
        if (reply != null && reply.answers(session, msgType)) {
            reply.write(e);
        }
        return header(session, nowMillis);
    }

    /**
     * Like {@link #begin(FixSession, int, long)}, for a message about an order or request with this
     * route ({@link Routes}; {@link Routes#NONE}: none), which the header carries as DeliverToCompID (128),
     * DeliverToSubID (129) and DeliverToLocationID (145).
     */
    FixEncoder begin(final FixSession session, final int msgType, final long nowMillis, final int route) {
        final FixEncoder e = begin(session, msgType);
        if (route != Routes.NONE) {
            routes.write(e, route);
        }
        return header(session, nowMillis);
    }

    /** The header up to TargetCompID (56); a route's tags go right after it. */
    private FixEncoder begin(final FixSession session, final int msgType) {
        if (eventIndex >= 0 && (batchLength > PART_BYTES || entries == MAX_BATCH_ENTRIES)) {
            commitPart();
        }
        if (batchLength + OutboundStore.ENTRY_HEADER + SPARE_BYTES + 4 * maxMessageLength > batchBytes.length) {
            grow();
        }
        entryStart = batchLength;
        current = session;
        currentMsgType = msgType;
        encoder.start(entryStart + OutboundStore.ENTRY_HEADER, msgType);
        encoder.addAscii(FixTags.SENDER_COMP_ID, compId);
        encoder.addAscii(FixTags.TARGET_COMP_ID, session.senderCompId);
        return encoder;
    }

    private FixEncoder header(final FixSession session, final long nowMillis) {
        encoder.addLong(FixTags.MSG_SEQ_NUM, session.nextOutbound);
        encoder.addUtcTimestamp(FixTags.SENDING_TIME, nowMillis);
        return encoder;
    }

    /** Ends the message begun last; it goes out at the next {@link #commit}. Hop times are 0 for messages not caused by a command. */
    void end(final long commandReadNanos, final long engineAppendNanos) {
        if (eventIndex >= 0) {
            eventMessages++;
            if (skipping > 0) {
                // Stored before a crash (same event, same order): built again only to keep the event's numbering.
                skipping--;
                return;
            }
        }
        final int length = encoder.finish();
        final int offset = encoder.messageOffset();
        final int at = entryStart + OutboundStore.ENTRY_HEADER;
        if (offset != at) {
            batch.putBytes(at, batch, offset, length);
        }
        batch.putLong(entryStart + OutboundStore.ENTRY_ACCOUNT_OFFSET, current.account);
        batch.putInt(entryStart + OutboundStore.ENTRY_SEQ_OFFSET, current.nextOutbound);
        batch.putInt(entryStart + OutboundStore.ENTRY_MSG_TYPE_OFFSET, currentMsgType);
        batch.putInt(entryStart + OutboundStore.ENTRY_LENGTH_OFFSET, length);
        if (entries == MAX_BATCH_ENTRIES) {
            // Only outside an event (begin stores a part first inside one); nothing outside an event builds that many.
            throw new IllegalStateException("more than " + MAX_BATCH_ENTRIES + " messages in one batch outside an event");
        }
        entrySession[entries] = current;
        entryOffset[entries] = at;
        entryLength[entries] = length;
        entryCommandReadNanos[entries] = commandReadNanos;
        entryEngineAppendNanos[entries] = engineAppendNanos;
        entryEventsReadNanos[entries] = eventsReadNanos;
        entryEventsIndex[entries] = eventIndex;
        entries++;
        current.nextOutbound++;
        batchLength = at + length;
    }

    /** Bytes in the batch so far. */
    int batchLength() {
        return batchLength;
    }

    /** After recovery: the store holds the first messages of this event (a crash between its parts). */
    void resumeInside(final long eventsIndex, final int storedMessages) {
        skipEvent = eventsIndex;
        skipMessages = storedMessages;
        partOpen = true;
    }

    /** The messages built from here on answer this event. */
    void beginEvent(final long eventsIndex) {
        eventIndex = eventsIndex;
        eventFirstEntry = entries;
        eventFirstByte = batchLength;
        eventMessages = 0;
        skipping = 0;
        if (eventsIndex == skipEvent) {
            skipping = skipMessages;
            skipEvent = Long.MIN_VALUE;
        }
    }

    /**
     * Messages of the event being built that are still to be skipped (stored before a crash): more than its reports when
     * the crash came after some of its market data was stored, which the subscriptions of now cannot build again.
     */
    int skipping() {
        return skipping;
    }

    /** The event is fully built; its messages are stored at the next {@link #commit}. */
    void endEvent() {
        eventIndex = -1;
    }

    /**
     * The event failed while being built: its messages not yet stored are forgotten (and their
     * sequence numbers given back); parts already stored stay, and the next commit closes them.
     *
     * @return how many of its messages were already stored
     */
    int abandonEvent() {
        for (int i = entries - 1; i >= eventFirstEntry; i--) {
            entrySession[i].nextOutbound--;
            entrySession[i] = null;
        }
        final int stored = eventMessages - (entries - eventFirstEntry) + skipping;
        entries = eventFirstEntry;
        batchLength = eventFirstByte;
        eventIndex = -1;
        skipping = 0;
        return stored;
    }

    /**
     * Stores the batch as one excerpt, tagged with the last event it answers (or -1), and queues
     * each message for its client. A batch may hold the messages of several events: they are
     * stored all or none, so a restart still resumes exactly after the last event answered.
     */
    void commit(final long eventsIndex) {
        if (entries == 0 && !(partOpen && eventsIndex >= 0)) {
            return;
        }
        awaitRoom();
        storage.wrote(batchLength + ENTRY_OVERHEAD * (long) entries + EXCERPT_OVERHEAD);
        final long storeIndex = store.append(eventsIndex, batch, batchLength);
        if (eventsIndex >= 0) {
            partOpen = false;
        }
        distribute(storeIndex);
    }

    /** Stores what is built so far of an event that goes on (see the class comment). */
    private void commitPart() {
        // Stored of the event so far: what was skipped (stored before a crash, the rest of the skip included) and built since.
        awaitRoom();
        storage.wrote(batchLength + ENTRY_OVERHEAD * (long) entries + EXCERPT_OVERHEAD);
        final long storeIndex = store.appendPart(eventIndex, batch, batchLength, eventMessages + skipping);
        if (++partsStored == HALT_AFTER_PARTS) {
            Runtime.getRuntime().halt(137);
        }
        distribute(storeIndex);
        partOpen = true;
        eventFirstEntry = 0;
        eventFirstByte = 0;
    }

    /**
     * The last line of defence against writing past the disk: the gateway stops reading clients and events below a quarter
     * of the reserve ({@link Gateway#doWork}), so only a pass whose answers outgrow that margin (a mass cancel of very many
     * orders) gets here with the disk exhausted. Its messages are built and numbered, so they wait for space here, on the
     * gateway's thread, rather than be dropped or written into pages the filesystem cannot back (a SIGBUS, the end of the JVM).
     */
    private void awaitRoom() {
        if (storage.level(System.nanoTime()) != StorageGuard.Level.EXHAUSTED) {
            return;
        }
        storageWaits++;
        log.log("outbound store: not written while the disk is full (" + storage.describe() + "); " + entries
            + " messages wait on the gateway's thread until space is freed");
        while (storage.recheck() == StorageGuard.Level.EXHAUSTED) {
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("stopped while waiting for space to store " + entries + " messages: "
                    + storage.describe());
            }
            LockSupport.parkNanos(SPACE_POLL_NANOS);
        }
        log.log("outbound store: space freed, storing again (" + storage.describe() + ")");
    }

    /** The batch just stored at storeIndex: index each message for resends and offer it to its client. */
    private void distribute(final long storeIndex) {
        for (int i = 0; i < entries; i++) {
            final FixSession session = entrySession[i];
            final int entry = entryOffset[i] - OutboundStore.ENTRY_HEADER;
            session.sent.add(storeIndex, OutboundStore.ENTRIES_OFFSET + entry);
            session.stored(batch.getInt(entry + OutboundStore.ENTRY_SEQ_OFFSET));
            published.messageOut(session.publishedSlot, batch.getInt(entry + OutboundStore.ENTRY_SEQ_OFFSET));
            final Connection connection = session.connection;
            if (connection != null && connection.open) {
                batchView.limit(entryOffset[i] + entryLength[i]).position(entryOffset[i]);
                if (flow.offer(connection, session, batch.getInt(entry + OutboundStore.ENTRY_SEQ_OFFSET), batchView)) {
                    final long now = System.nanoTime();
                    session.lastSentNanos = now;
                    sentLive++;
                    if (entryEngineAppendNanos[i] != 0) {
                        eventToWire.recordValue(Math.max(0, now - entryEngineAppendNanos[i]));
                        eventsReadToWire.recordValue(Math.max(0, now - entryEventsReadNanos[i]));
                    }
                    if (entryCommandReadNanos[i] != 0) {
                        readToWire.recordValue(Math.max(0, now - entryCommandReadNanos[i]));
                        // The first answer to the command's sender (a trade answers with New, then Trade): the last two
                        // hops of that order's wire-to-wire latency.
                        if (returns != null && entryEngineAppendNanos[i] != 0 && entryEventsIndex[i] >= 0
                            && entryEventsIndex[i] != lastReturned) {
                            returns.add(entryEventsIndex[i], entryEventsReadNanos[i]);
                            lastReturned = entryEventsIndex[i];
                        }
                    }
                }
            }
            entrySession[i] = null;
        }
        entries = 0;
        batchLength = 0;
    }

    /** Sends bytes that are not a session's message (a refused Logon); nothing is stored. A connection that cannot take them is cut. */
    void write(final Connection connection, final UnsafeBuffer buffer, final int offset, final int length) {
        final ByteBuffer view = ByteBuffer.wrap(buffer.byteArray());
        view.limit(offset + length).position(offset);
        if (!connection.send(view)) {
            framer.drop(connection, "more than " + connection.pending.capacity() + " bytes waiting");
            return;
        }
        if (!connection.dirty) {
            connection.dirty = true;
            framer.toFlush(connection);
        }
    }

    private void grow() {
        final byte[] bigger = java.util.Arrays.copyOf(batchBytes, batchBytes.length * 2);
        batchBytes = bigger;
        batch.wrap(bigger);
        batchView = ByteBuffer.wrap(bigger);
    }
}
