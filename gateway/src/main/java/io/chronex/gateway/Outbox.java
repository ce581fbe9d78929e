package io.chronex.gateway;

import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.session.OutboundStore;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Where every outgoing FIX message is built, stored and sent. Messages are built into one batch;
 * {@link #commit} appends the batch to the {@link OutboundStore} as one excerpt (all of one event's
 * messages together) and only then writes each to its client, if connected. A message is therefore
 * never on the wire without being stored, and a client that is away gets it by resend.
 */
final class Outbox {
    private static final int MAX_BATCH_ENTRIES = 1 << 16;
    /** Headroom past an entry header for the encoder's reserved prefix (32 bytes) and the CheckSum trailer, with margin. */
    private static final int SPARE_BYTES = 64;

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
    private int entries;

    /**
     * Engine append → queued for the socket, events read → queued, and gateway socket read → queued
     * (the round trip inside the exchange). Queued output is written at the end of the same loop pass.
     */
    final Histogram eventToWire = new Histogram(3_600_000_000_000L, 3);
    final Histogram readToWire = new Histogram(3_600_000_000_000L, 3);
    final Histogram eventsReadToWire = new Histogram(3_600_000_000_000L, 3);
    long eventsReadNanos;
    long sentLive;
    long slowConsumers;
    private final Framer framer;

    Outbox(final Framer framer, final OutboundStore store, final String compId, final int maxMessageLength) {
        this.framer = framer;
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
     * MsgSeqNum, SendingTime); the caller adds the body and calls {@link #end}.
     */
    FixEncoder begin(final FixSession session, final int msgType, final long nowMillis) {
        if (batchLength + OutboundStore.ENTRY_HEADER + SPARE_BYTES + 4 * maxMessageLength > batchBytes.length) {
            grow();
        }
        entryStart = batchLength;
        current = session;
        currentMsgType = msgType;
        encoder.start(entryStart + OutboundStore.ENTRY_HEADER, msgType);
        encoder.addAscii(FixTags.SENDER_COMP_ID, compId);
        encoder.addAscii(FixTags.TARGET_COMP_ID, session.senderCompId);
        encoder.addLong(FixTags.MSG_SEQ_NUM, session.nextOutbound);
        encoder.addUtcTimestamp(FixTags.SENDING_TIME, nowMillis);
        return encoder;
    }

    /** Ends the message begun last; it goes out at the next {@link #commit}. Hop times are 0 for messages not caused by a command. */
    void end(final long commandReadNanos, final long engineAppendNanos) {
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
            throw new IllegalStateException("more than " + MAX_BATCH_ENTRIES + " messages from one event");
        }
        entrySession[entries] = current;
        entryOffset[entries] = at;
        entryLength[entries] = length;
        entryCommandReadNanos[entries] = commandReadNanos;
        entryEngineAppendNanos[entries] = engineAppendNanos;
        entryEventsReadNanos[entries] = eventsReadNanos;
        entries++;
        current.nextOutbound++;
        batchLength = at + length;
    }

    boolean isEmpty() {
        return entries == 0;
    }

    /** Bytes in the batch so far. */
    int batchLength() {
        return batchLength;
    }

    /**
     * Stores the batch as one excerpt, tagged with the last event it answers (or -1), and queues
     * each message for its client. A batch may hold the messages of several events: they are
     * stored all or none, so a restart still resumes exactly after the last event answered.
     */
    void commit(final long eventsIndex) {
        if (entries == 0) {
            return;
        }
        final long storeIndex = store.append(eventsIndex, batch, batchLength);
        for (int i = 0; i < entries; i++) {
            final FixSession session = entrySession[i];
            session.sent.add(storeIndex);
            final Connection connection = session.connection;
            if (connection != null && connection.open) {
                if (write(connection, entryOffset[i], entryLength[i])) {
                    final long now = System.nanoTime();
                    session.lastSentNanos = now;
                    sentLive++;
                    if (entryEngineAppendNanos[i] != 0) {
                        eventToWire.recordValue(Math.max(0, now - entryEngineAppendNanos[i]));
                        eventsReadToWire.recordValue(Math.max(0, now - entryEventsReadNanos[i]));
                    }
                    if (entryCommandReadNanos[i] != 0) {
                        readToWire.recordValue(Math.max(0, now - entryCommandReadNanos[i]));
                    }
                }
            }
            entrySession[i] = null;
        }
        entries = 0;
        batchLength = 0;
    }

    /** Sends bytes that are not a new message (a resend); nothing is stored. */
    boolean write(final Connection connection, final UnsafeBuffer buffer, final int offset, final int length) {
        final ByteBuffer view = buffer.byteBuffer() != null ? buffer.byteBuffer().duplicate() : ByteBuffer.wrap(buffer.byteArray());
        view.limit(offset + length).position(offset);
        return send(connection, view);
    }

    private boolean write(final Connection connection, final int offset, final int length) {
        batchView.limit(offset + length).position(offset);
        return send(connection, batchView);
    }

    private boolean send(final Connection connection, final ByteBuffer view) {
        if (!connection.send(view)) {
            slowConsumers++;
            framer.drop(connection, "slow consumer: more than " + connection.pending.capacity()
                + " bytes waiting; it gets them by resend when it logs on again");
            return false;
        }
        if (!connection.dirty) {
            connection.dirty = true;
            framer.toFlush(connection);
        }
        return true;
    }

    private void grow() {
        final byte[] bigger = java.util.Arrays.copyOf(batchBytes, batchBytes.length * 2);
        batchBytes = bigger;
        batch.wrap(bigger);
        batchView = ByteBuffer.wrap(bigger);
    }
}
