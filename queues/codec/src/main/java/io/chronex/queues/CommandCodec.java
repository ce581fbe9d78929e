package io.chronex.queues;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The commands journal's excerpt: a fixed 120-byte little-endian layout, written and read field by
 * field with no allocation (docs/messages.md has the table). Enums travel as ordinals (0xFF =
 * absent), so their constants may only ever be appended to.
 */
public final class CommandCodec {
    public static final byte MESSAGE_TYPE = 'C';
    public static final byte VERSION = 1;
    public static final int LENGTH = 120;
    /** Where the gateway-append timestamp sits in the excerpt. */
    static final int GATEWAY_APPEND_OFFSET = 104;
    static final int NONE = 0xFF;

    private CommandCodec() {
    }

    /**
     * Appends one command as one excerpt of the journal. The gateway-append timestamp is read last,
     * just before the excerpt is committed (and written into it then), so the journal hop, append
     * to engine read, is the queue's transit alone, as in the raw write-to-read floor it is
     * compared with (docs/performance.md); encoding belongs to the gateway's own time.
     */
    public static void append(final ExcerptAppender appender, final Command c, final Hops hops) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            final long start = out.writePosition();
            write(out, c, hops);
            hops.gatewayAppendNanos = System.nanoTime();
            out.writeLong(start + GATEWAY_APPEND_OFFSET, hops.gatewayAppendNanos);
        }
    }

    public static void write(final Bytes<?> out, final Command c, final Hops hops) {
        out.writeByte(MESSAGE_TYPE);
        out.writeByte(VERSION);
        out.writeUnsignedByte(ordinal(c.type));
        out.writeUnsignedByte(ordinal(c.side));
        out.writeUnsignedByte(ordinal(c.orderType));
        out.writeUnsignedByte(ordinal(c.timeInForce));
        out.writeUnsignedByte(c.postOnly ? 1 : 0);
        out.writeUnsignedByte(ordinal(c.selfTradePrevention));
        out.writeInt(c.symbol);
        out.writeInt(hops.gatewayId);
        out.writeLong(hops.sessionId);
        out.writeLong(c.account);
        out.writeLong(c.clientOrderId);
        out.writeLong(c.orderId);
        out.writeLong(c.newClientOrderId);
        out.writeLong(c.price);
        out.writeLong(c.quantity);
        out.writeLong(c.maxOrderQuantity);
        out.writeLong(c.maxOrderNotional);
        out.writeInt(c.maxOpenOrders);
        out.writeInt(hops.clientSeqNum);
        out.writeLong(hops.gatewayReadNanos);
        out.writeLong(hops.gatewayAppendNanos);
        out.writeLong(hops.receiptEpochNanos);
    }

    /**
     * Reads one command excerpt into c and hops (the engine's own hop fields are left alone). On
     * anything but OK, c and hops may be partly filled and must not be used, except hops' routing
     * when the fixed part was complete. Consumes the fixed part when it is all there.
     */
    public static DecodeStatus read(final Bytes<?> in, final Command c, final Hops hops) {
        final long at = in.readPosition();
        final long length = in.readRemaining();
        final DecodeStatus status = readAt(in, at, length, c, hops);
        if (length >= LENGTH) {
            in.readPosition(at + LENGTH);
        }
        return status;
    }

    /**
     * Like {@link #read(Bytes, Command, Hops)}, for an excerpt of {@code length} bytes at absolute
     * offset {@code at} of {@code in}, which is left untouched: lets recovery's replay decode
     * straight from the journal's mapped memory (see JournalReplay in the engine).
     */
    public static DecodeStatus readAt(final RandomDataInput in, final long at, final long length, final Command c, final Hops hops) {
        if (length < 2) {
            return DecodeStatus.TRUNCATED;
        }
        if (in.readByte(at) != MESSAGE_TYPE) {
            return DecodeStatus.UNKNOWN_MESSAGE_TYPE;
        }
        if (in.readByte(at + 1) != VERSION) {
            return DecodeStatus.UNSUPPORTED_VERSION;
        }
        if (length < LENGTH) {
            return DecodeStatus.TRUNCATED;
        }
        final int type = in.readUnsignedByte(at + 2);
        final int side = in.readUnsignedByte(at + 3);
        final int orderType = in.readUnsignedByte(at + 4);
        final int timeInForce = in.readUnsignedByte(at + 5);
        final int flags = in.readUnsignedByte(at + 6);
        final int stp = in.readUnsignedByte(at + 7);
        c.symbol = in.readInt(at + 8);
        hops.gatewayId = in.readInt(at + 12);
        hops.sessionId = in.readLong(at + 16);
        c.account = in.readLong(at + 24);
        c.clientOrderId = in.readLong(at + 32);
        c.orderId = in.readLong(at + 40);
        c.newClientOrderId = in.readLong(at + 48);
        c.price = in.readLong(at + 56);
        c.quantity = in.readLong(at + 64);
        c.maxOrderQuantity = in.readLong(at + 72);
        c.maxOrderNotional = in.readLong(at + 80);
        c.maxOpenOrders = in.readInt(at + 88);
        hops.clientSeqNum = in.readInt(at + 92);
        hops.gatewayReadNanos = in.readLong(at + 96);
        hops.gatewayAppendNanos = in.readLong(at + GATEWAY_APPEND_OFFSET);
        hops.receiptEpochNanos = in.readLong(at + 112);
        c.type = CommandType.fromOrdinal(type);
        c.side = Side.fromOrdinal(side);
        c.orderType = OrderType.fromOrdinal(orderType);
        c.timeInForce = TimeInForce.fromOrdinal(timeInForce);
        c.selfTradePrevention = SelfTradePrevention.fromOrdinal(stp);
        c.postOnly = (flags & 1) != 0;
        if ((c.type == null && type != NONE) || (c.side == null && side != NONE) || (c.orderType == null && orderType != NONE)
            || (c.timeInForce == null && timeInForce != NONE) || (c.selfTradePrevention == null && stp != NONE) || flags > 1) {
            return DecodeStatus.BAD_VALUE;
        }
        return DecodeStatus.OK;
    }

    /**
     * Reads the two bytes every excerpt starts with (message type, schema version) and checks that
     * the fixed part of the given length is all there; shared by both codecs.
     */
    static DecodeStatus readPreamble(final Bytes<?> in, final byte messageType, final byte version, final int fixedLength) {
        if (in.readRemaining() < 2) {
            return DecodeStatus.TRUNCATED;
        }
        if (in.readByte() != messageType) {
            return DecodeStatus.UNKNOWN_MESSAGE_TYPE;
        }
        if (in.readByte() != version) {
            return DecodeStatus.UNSUPPORTED_VERSION;
        }
        return in.readRemaining() < fixedLength - 2 ? DecodeStatus.TRUNCATED : DecodeStatus.OK;
    }

    static int ordinal(final Enum<?> value) {
        return value == null ? NONE : value.ordinal();
    }
}
