package io.chronex.queues;

import io.chronex.engine.api.Command;
import io.chronex.engine.api.CommandType;
import io.chronex.engine.api.OrderType;
import io.chronex.engine.api.SelfTradePrevention;
import io.chronex.engine.api.Side;
import io.chronex.engine.api.TimeInForce;
import net.openhft.chronicle.bytes.Bytes;

/**
 * The commands journal's excerpt: a fixed 120-byte little-endian layout, written and read field by
 * field with no allocation (docs/messages.md has the table). Enums travel as ordinals (0xFF =
 * absent), so their constants may only ever be appended to.
 */
public final class CommandCodec {
    public static final byte MESSAGE_TYPE = 'C';
    public static final byte VERSION = 1;
    public static final int LENGTH = 120;
    static final int NONE = 0xFF;

    private CommandCodec() {
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
     * when the fixed part was complete.
     */
    public static DecodeStatus read(final Bytes<?> in, final Command c, final Hops hops) {
        final DecodeStatus preamble = readPreamble(in, MESSAGE_TYPE, VERSION, LENGTH);
        if (preamble != DecodeStatus.OK) {
            return preamble;
        }
        final int type = in.readUnsignedByte();
        final int side = in.readUnsignedByte();
        final int orderType = in.readUnsignedByte();
        final int timeInForce = in.readUnsignedByte();
        final int flags = in.readUnsignedByte();
        final int stp = in.readUnsignedByte();
        c.symbol = in.readInt();
        hops.gatewayId = in.readInt();
        hops.sessionId = in.readLong();
        c.account = in.readLong();
        c.clientOrderId = in.readLong();
        c.orderId = in.readLong();
        c.newClientOrderId = in.readLong();
        c.price = in.readLong();
        c.quantity = in.readLong();
        c.maxOrderQuantity = in.readLong();
        c.maxOrderNotional = in.readLong();
        c.maxOpenOrders = in.readInt();
        hops.clientSeqNum = in.readInt();
        hops.gatewayReadNanos = in.readLong();
        hops.gatewayAppendNanos = in.readLong();
        hops.receiptEpochNanos = in.readLong();
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
