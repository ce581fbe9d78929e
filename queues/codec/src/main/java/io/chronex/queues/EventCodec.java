package io.chronex.queues;

import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import net.openhft.chronicle.bytes.Bytes;

import static io.chronex.queues.CommandCodec.NONE;
import static io.chronex.queues.CommandCodec.ordinal;

/**
 * The events queue's excerpt: everything one command did, in one excerpt. A fixed 152-byte header
 * (outcome, subject order, counts, hop timestamps) followed by the fills (112 bytes each), the
 * cancels (64) and the level changes (32); little-endian, no allocation (docs/messages.md).
 */
public final class EventCodec {
    public static final byte MESSAGE_TYPE = 'E';
    public static final byte VERSION = 1;
    public static final int HEADER_LENGTH = 152;
    public static final int FILL_LENGTH = 112;
    public static final int CANCEL_LENGTH = 64;
    public static final int LEVEL_CHANGE_LENGTH = 32;

    private EventCodec() {
    }

    public static void write(final Bytes<?> out, final EventHeader header, final Result r) {
        final Hops hops = header.hops;
        out.writeByte(MESSAGE_TYPE);
        out.writeByte(VERSION);
        out.writeUnsignedByte(ordinal(r.commandType));
        out.writeUnsignedByte(ordinal(r.rejectReason));
        out.writeUnsignedByte(ordinal(r.side));
        out.writeUnsignedByte(ordinal(r.orderType));
        out.writeUnsignedByte(ordinal(r.timeInForce));
        out.writeUnsignedByte(ordinal(r.orderStatus));
        out.writeLong(header.commandIndex);
        out.writeInt(hops.gatewayId);
        out.writeInt(r.symbol);
        out.writeLong(hops.sessionId);
        out.writeLong(r.orderId);
        out.writeLong(r.account);
        out.writeLong(r.clientOrderId);
        out.writeLong(r.price);
        out.writeLong(r.quantity);
        out.writeLong(r.leavesQuantity);
        out.writeLong(r.cumulativeQuantity);
        out.writeInt(r.affectedOrders);
        out.writeInt(r.fillCount());
        out.writeInt(r.cancelCount());
        out.writeInt(r.levelChangeCount());
        out.writeLong(hops.gatewayReadNanos);
        out.writeLong(hops.gatewayAppendNanos);
        out.writeLong(hops.receiptEpochNanos);
        out.writeLong(hops.engineReadNanos);
        out.writeLong(hops.engineDoneNanos);
        out.writeLong(hops.engineAppendNanos);
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill f = r.fill(i);
            out.writeLong(f.tradeId);
            out.writeLong(f.price);
            out.writeLong(f.quantity);
            out.writeLong(f.takerOrderId);
            out.writeLong(f.takerAccount);
            out.writeLong(f.takerClientOrderId);
            out.writeLong(f.takerLeavesQuantity);
            out.writeLong(f.takerCumulativeQuantity);
            out.writeLong(f.makerOrderId);
            out.writeLong(f.makerAccount);
            out.writeLong(f.makerClientOrderId);
            out.writeLong(f.makerLeavesQuantity);
            out.writeLong(f.makerCumulativeQuantity);
            out.writeUnsignedByte(ordinal(f.takerSide));
            out.writeByte((byte) 0);
            out.writeShort((short) 0);
            out.writeInt(0);
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel x = r.cancel(i);
            out.writeLong(x.orderId);
            out.writeLong(x.account);
            out.writeLong(x.clientOrderId);
            out.writeInt(x.symbol);
            out.writeUnsignedByte(ordinal(x.side));
            out.writeUnsignedByte(ordinal(x.reason));
            out.writeShort((short) 0);
            out.writeLong(x.price);
            out.writeLong(x.quantity);
            out.writeLong(x.leavesQuantity);
            out.writeLong(x.cumulativeQuantity);
        }
        for (int i = 0; i < r.levelChangeCount(); i++) {
            final LevelChange l = r.levelChange(i);
            out.writeInt(l.symbol);
            out.writeUnsignedByte(ordinal(l.side));
            out.writeByte((byte) 0);
            out.writeShort((short) 0);
            out.writeLong(l.price);
            out.writeLong(l.quantity);
            out.writeInt(l.orderCount);
            out.writeInt(0);
        }
    }

    /** Reads one events excerpt; on anything but OK the result must not be used. */
    public static DecodeStatus read(final Bytes<?> in, final EventHeader header, final Result r) {
        final DecodeStatus preamble = CommandCodec.readPreamble(in, MESSAGE_TYPE, VERSION, HEADER_LENGTH);
        if (preamble != DecodeStatus.OK) {
            return preamble;
        }
        final Hops hops = header.hops;
        final int commandType = in.readUnsignedByte();
        final int rejectReason = in.readUnsignedByte();
        final int side = in.readUnsignedByte();
        final int orderType = in.readUnsignedByte();
        final int timeInForce = in.readUnsignedByte();
        final int orderStatus = in.readUnsignedByte();
        r.reset(CommandType.fromOrdinal(commandType));
        final RejectReason reason = RejectReason.fromOrdinal(rejectReason);
        final OrderStatus status = OrderStatus.fromOrdinal(orderStatus);
        r.side = Side.fromOrdinal(side);
        r.orderType = OrderType.fromOrdinal(orderType);
        r.timeInForce = TimeInForce.fromOrdinal(timeInForce);
        if ((r.commandType == null && commandType != NONE) || reason == null || status == null
            || (r.side == null && side != NONE) || (r.orderType == null && orderType != NONE)
            || (r.timeInForce == null && timeInForce != NONE)) {
            return DecodeStatus.BAD_VALUE;
        }
        r.rejectReason = reason;
        r.orderStatus = status;
        header.commandIndex = in.readLong();
        hops.gatewayId = in.readInt();
        r.symbol = in.readInt();
        hops.sessionId = in.readLong();
        r.orderId = in.readLong();
        r.account = in.readLong();
        r.clientOrderId = in.readLong();
        r.price = in.readLong();
        r.quantity = in.readLong();
        r.leavesQuantity = in.readLong();
        r.cumulativeQuantity = in.readLong();
        r.affectedOrders = in.readInt();
        final int fills = in.readInt();
        final int cancels = in.readInt();
        final int levels = in.readInt();
        hops.gatewayReadNanos = in.readLong();
        hops.gatewayAppendNanos = in.readLong();
        hops.receiptEpochNanos = in.readLong();
        hops.engineReadNanos = in.readLong();
        hops.engineDoneNanos = in.readLong();
        hops.engineAppendNanos = in.readLong();
        if (fills < 0 || cancels < 0 || levels < 0) {
            return DecodeStatus.BAD_VALUE;
        }
        if (in.readRemaining() < (long) fills * FILL_LENGTH + (long) cancels * CANCEL_LENGTH + (long) levels * LEVEL_CHANGE_LENGTH) {
            return DecodeStatus.TRUNCATED;
        }
        for (int i = 0; i < fills; i++) {
            final Fill f = r.addFill();
            f.tradeId = in.readLong();
            f.price = in.readLong();
            f.quantity = in.readLong();
            f.takerOrderId = in.readLong();
            f.takerAccount = in.readLong();
            f.takerClientOrderId = in.readLong();
            f.takerLeavesQuantity = in.readLong();
            f.takerCumulativeQuantity = in.readLong();
            f.makerOrderId = in.readLong();
            f.makerAccount = in.readLong();
            f.makerClientOrderId = in.readLong();
            f.makerLeavesQuantity = in.readLong();
            f.makerCumulativeQuantity = in.readLong();
            f.takerSide = Side.fromOrdinal(in.readUnsignedByte());
            in.readSkip(7);
            if (f.takerSide == null) {
                return DecodeStatus.BAD_VALUE;
            }
        }
        for (int i = 0; i < cancels; i++) {
            final Cancel x = r.addCancel();
            x.orderId = in.readLong();
            x.account = in.readLong();
            x.clientOrderId = in.readLong();
            x.symbol = in.readInt();
            x.side = Side.fromOrdinal(in.readUnsignedByte());
            x.reason = CancelReason.fromOrdinal(in.readUnsignedByte());
            in.readSkip(2);
            x.price = in.readLong();
            x.quantity = in.readLong();
            x.leavesQuantity = in.readLong();
            x.cumulativeQuantity = in.readLong();
            if (x.side == null || x.reason == null) {
                return DecodeStatus.BAD_VALUE;
            }
        }
        for (int i = 0; i < levels; i++) {
            final LevelChange l = r.addLevelChange();
            l.symbol = in.readInt();
            l.side = Side.fromOrdinal(in.readUnsignedByte());
            in.readSkip(3);
            l.price = in.readLong();
            l.quantity = in.readLong();
            l.orderCount = in.readInt();
            in.readSkip(4);
            if (l.side == null) {
                return DecodeStatus.BAD_VALUE;
            }
        }
        return DecodeStatus.OK;
    }
}
