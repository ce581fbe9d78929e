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
import net.openhft.chronicle.bytes.RandomDataInput;

import static io.chronex.queues.CommandCodec.MESSAGE_TYPE_OFFSET;
import static io.chronex.queues.CommandCodec.NONE;
import static io.chronex.queues.CommandCodec.VERSION_OFFSET;
import static io.chronex.queues.CommandCodec.ordinal;

/**
 * The events queue's excerpt: everything one command did, in one excerpt. A fixed 152-byte header
 * (outcome, subject order, counts, hop timestamps) followed by the fills (112 bytes each), the
 * cancels (64) and the level changes (32); little-endian, no allocation (docs/messages.md). A checkpoint
 * (version 2) ends with the engine's state hash after the command.
 */
public final class EventCodec {
    public static final byte MESSAGE_TYPE = 'E';
    public static final byte VERSION = 1;
    /** Version 1's layout followed by the engine's state hash after the command: a checkpoint ({@link EventHeader#checkpoint}). */
    public static final byte VERSION_WITH_STATE_HASH = 2;
    public static final int STATE_HASH_LENGTH = 8;

    // The layouts, declared once for the writer and the reader: each field's offset from the start
    // of its header or list entry and its type, in order (docs/messages.md says what each means).
    // The header starts with the message type and version (CommandCodec's MESSAGE_TYPE_OFFSET and
    // VERSION_OFFSET, as in every excerpt).
    private static final int COMMAND_TYPE_OFFSET = 2;            // u8 ordinal
    private static final int REJECT_REASON_OFFSET = 3;           // u8 ordinal
    private static final int SIDE_OFFSET = 4;                    // u8 ordinal
    private static final int ORDER_TYPE_OFFSET = 5;              // u8 ordinal
    private static final int TIME_IN_FORCE_OFFSET = 6;           // u8 ordinal
    private static final int ORDER_STATUS_OFFSET = 7;            // u8 ordinal
    private static final int COMMAND_INDEX_OFFSET = 8;           // i64
    private static final int GATEWAY_ID_OFFSET = 16;             // i32
    private static final int SYMBOL_OFFSET = 20;                 // i32
    private static final int SESSION_ID_OFFSET = 24;             // i64
    private static final int ORDER_ID_OFFSET = 32;               // i64
    private static final int ACCOUNT_OFFSET = 40;                // i64
    private static final int CLIENT_ORDER_ID_OFFSET = 48;        // i64
    private static final int PRICE_OFFSET = 56;                  // i64
    private static final int QUANTITY_OFFSET = 64;               // i64
    private static final int LEAVES_OFFSET = 72;                 // i64
    private static final int CUMULATIVE_OFFSET = 80;             // i64
    private static final int AFFECTED_ORDERS_OFFSET = 88;        // i32
    private static final int FILL_COUNT_OFFSET = 92;             // i32
    private static final int CANCEL_COUNT_OFFSET = 96;           // i32
    private static final int LEVEL_CHANGE_COUNT_OFFSET = 100;    // i32
    private static final int GATEWAY_READ_OFFSET = 104;          // i64 nanos
    private static final int GATEWAY_APPEND_OFFSET = 112;        // i64 nanos
    private static final int RECEIPT_EPOCH_OFFSET = 120;         // i64 nanos since the epoch
    private static final int ENGINE_READ_OFFSET = 128;           // i64 nanos
    private static final int ENGINE_DONE_OFFSET = 136;           // i64 nanos
    private static final int ENGINE_APPEND_OFFSET = 144;         // i64 nanos
    public static final int HEADER_LENGTH = 152;                 // then the fills, cancels and level changes

    private static final int FILL_TRADE_ID_OFFSET = 0;                   // i64
    private static final int FILL_PRICE_OFFSET = 8;                      // i64
    private static final int FILL_QUANTITY_OFFSET = 16;                  // i64
    private static final int FILL_TAKER_ORDER_ID_OFFSET = 24;            // i64
    private static final int FILL_TAKER_ACCOUNT_OFFSET = 32;             // i64
    private static final int FILL_TAKER_CLIENT_ORDER_ID_OFFSET = 40;     // i64
    private static final int FILL_TAKER_LEAVES_OFFSET = 48;              // i64
    private static final int FILL_TAKER_CUMULATIVE_OFFSET = 56;          // i64
    private static final int FILL_MAKER_ORDER_ID_OFFSET = 64;            // i64
    private static final int FILL_MAKER_ACCOUNT_OFFSET = 72;             // i64
    private static final int FILL_MAKER_CLIENT_ORDER_ID_OFFSET = 80;     // i64
    private static final int FILL_MAKER_LEAVES_OFFSET = 88;              // i64
    private static final int FILL_MAKER_CUMULATIVE_OFFSET = 96;          // i64
    private static final int FILL_TAKER_SIDE_OFFSET = 104;               // u8 ordinal
    private static final int FILL_PADDING_OFFSET = 105;                  // 7 bytes 0
    public static final int FILL_LENGTH = 112;

    private static final int CANCEL_ORDER_ID_OFFSET = 0;                 // i64
    private static final int CANCEL_ACCOUNT_OFFSET = 8;                  // i64
    private static final int CANCEL_CLIENT_ORDER_ID_OFFSET = 16;         // i64
    private static final int CANCEL_SYMBOL_OFFSET = 24;                  // i32
    private static final int CANCEL_SIDE_OFFSET = 28;                    // u8 ordinal
    private static final int CANCEL_REASON_OFFSET = 29;                  // u8 ordinal
    private static final int CANCEL_PADDING_OFFSET = 30;                 // 2 bytes 0
    private static final int CANCEL_PRICE_OFFSET = 32;                   // i64
    private static final int CANCEL_QUANTITY_OFFSET = 40;                // i64
    private static final int CANCEL_LEAVES_OFFSET = 48;                  // i64
    private static final int CANCEL_CUMULATIVE_OFFSET = 56;              // i64
    public static final int CANCEL_LENGTH = 64;

    private static final int LEVEL_SYMBOL_OFFSET = 0;                    // i32
    private static final int LEVEL_SIDE_OFFSET = 4;                      // u8 ordinal
    private static final int LEVEL_PADDING_OFFSET = 5;                   // 3 bytes 0
    private static final int LEVEL_PRICE_OFFSET = 8;                     // i64
    private static final int LEVEL_QUANTITY_OFFSET = 16;                 // i64
    private static final int LEVEL_ORDER_COUNT_OFFSET = 24;              // i32
    private static final int LEVEL_TAIL_PADDING_OFFSET = 28;             // 4 bytes 0
    public static final int LEVEL_CHANGE_LENGTH = 32;

    private EventCodec() {
    }

    /** Writes one events excerpt at the write position and moves past it. */
    public static void write(final Bytes<?> out, final EventHeader header, final Result r) {
        final long at = out.writePosition();
        final long fillsAt = at + HEADER_LENGTH;
        final long cancelsAt = fillsAt + (long) r.fillCount() * FILL_LENGTH;
        final long levelsAt = cancelsAt + (long) r.cancelCount() * CANCEL_LENGTH;
        final long end = levelsAt + (long) r.levelChangeCount() * LEVEL_CHANGE_LENGTH;
        // Claims (and for elastic bytes, grows to) the whole excerpt; every one of its bytes is written below.
        out.writeSkip(end - at + (header.checkpoint ? STATE_HASH_LENGTH : 0));
        writeHeader(out, at, header, r);
        if (header.checkpoint) {
            out.writeByte(at + VERSION_OFFSET, VERSION_WITH_STATE_HASH);
            out.writeLong(end, header.stateHash);
        }
        for (int i = 0; i < r.fillCount(); i++) {
            writeFill(out, fillsAt + (long) i * FILL_LENGTH, r.fill(i));
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            writeCancel(out, cancelsAt + (long) i * CANCEL_LENGTH, r.cancel(i));
        }
        for (int i = 0; i < r.levelChangeCount(); i++) {
            writeLevelChange(out, levelsAt + (long) i * LEVEL_CHANGE_LENGTH, r.levelChange(i));
        }
    }

    private static void writeHeader(final Bytes<?> out, final long at, final EventHeader header, final Result r) {
        final Hops hops = header.hops;
        out.writeByte(at + MESSAGE_TYPE_OFFSET, MESSAGE_TYPE);
        out.writeByte(at + VERSION_OFFSET, VERSION);
        out.writeUnsignedByte(at + COMMAND_TYPE_OFFSET, ordinal(r.commandType));
        out.writeUnsignedByte(at + REJECT_REASON_OFFSET, ordinal(r.rejectReason));
        out.writeUnsignedByte(at + SIDE_OFFSET, ordinal(r.side));
        out.writeUnsignedByte(at + ORDER_TYPE_OFFSET, ordinal(r.orderType));
        out.writeUnsignedByte(at + TIME_IN_FORCE_OFFSET, ordinal(r.timeInForce));
        out.writeUnsignedByte(at + ORDER_STATUS_OFFSET, ordinal(r.orderStatus));
        out.writeLong(at + COMMAND_INDEX_OFFSET, header.commandIndex);
        out.writeInt(at + GATEWAY_ID_OFFSET, hops.gatewayId);
        out.writeInt(at + SYMBOL_OFFSET, r.symbol);
        out.writeLong(at + SESSION_ID_OFFSET, hops.sessionId);
        out.writeLong(at + ORDER_ID_OFFSET, r.orderId);
        out.writeLong(at + ACCOUNT_OFFSET, r.account);
        out.writeLong(at + CLIENT_ORDER_ID_OFFSET, r.clientOrderId);
        out.writeLong(at + PRICE_OFFSET, priceSlot(r));
        out.writeLong(at + QUANTITY_OFFSET, r.quantity);
        out.writeLong(at + LEAVES_OFFSET, leavesSlot(r));
        out.writeLong(at + CUMULATIVE_OFFSET, cumulativeSlot(r));
        out.writeInt(at + AFFECTED_ORDERS_OFFSET, r.affectedOrders);
        out.writeInt(at + FILL_COUNT_OFFSET, r.fillCount());
        out.writeInt(at + CANCEL_COUNT_OFFSET, r.cancelCount());
        out.writeInt(at + LEVEL_CHANGE_COUNT_OFFSET, r.levelChangeCount());
        out.writeLong(at + GATEWAY_READ_OFFSET, hops.gatewayReadNanos);
        out.writeLong(at + GATEWAY_APPEND_OFFSET, hops.gatewayAppendNanos);
        out.writeLong(at + RECEIPT_EPOCH_OFFSET, hops.receiptEpochNanos);
        out.writeLong(at + ENGINE_READ_OFFSET, hops.engineReadNanos);
        out.writeLong(at + ENGINE_DONE_OFFSET, hops.engineDoneNanos);
        out.writeLong(at + ENGINE_APPEND_OFFSET, hops.engineAppendNanos);
    }

    private static void writeFill(final Bytes<?> out, final long at, final Fill f) {
        out.writeLong(at + FILL_TRADE_ID_OFFSET, f.tradeId);
        out.writeLong(at + FILL_PRICE_OFFSET, f.price);
        out.writeLong(at + FILL_QUANTITY_OFFSET, f.quantity);
        out.writeLong(at + FILL_TAKER_ORDER_ID_OFFSET, f.takerOrderId);
        out.writeLong(at + FILL_TAKER_ACCOUNT_OFFSET, f.takerAccount);
        out.writeLong(at + FILL_TAKER_CLIENT_ORDER_ID_OFFSET, f.takerClientOrderId);
        out.writeLong(at + FILL_TAKER_LEAVES_OFFSET, f.takerLeavesQuantity);
        out.writeLong(at + FILL_TAKER_CUMULATIVE_OFFSET, f.takerCumulativeQuantity);
        out.writeLong(at + FILL_MAKER_ORDER_ID_OFFSET, f.makerOrderId);
        out.writeLong(at + FILL_MAKER_ACCOUNT_OFFSET, f.makerAccount);
        out.writeLong(at + FILL_MAKER_CLIENT_ORDER_ID_OFFSET, f.makerClientOrderId);
        out.writeLong(at + FILL_MAKER_LEAVES_OFFSET, f.makerLeavesQuantity);
        out.writeLong(at + FILL_MAKER_CUMULATIVE_OFFSET, f.makerCumulativeQuantity);
        out.writeUnsignedByte(at + FILL_TAKER_SIDE_OFFSET, ordinal(f.takerSide));
        // Padding is written as zeros, not skipped, so equal results give equal bytes whatever the buffer held (bin/audit
        // verify compares bytes); the 7 bytes after the side as a byte, a short and an int.
        out.writeByte(at + FILL_PADDING_OFFSET, (byte) 0);
        out.writeShort(at + FILL_PADDING_OFFSET + 1, (short) 0);
        out.writeInt(at + FILL_PADDING_OFFSET + 3, 0);
    }

    private static void writeCancel(final Bytes<?> out, final long at, final Cancel x) {
        out.writeLong(at + CANCEL_ORDER_ID_OFFSET, x.orderId);
        out.writeLong(at + CANCEL_ACCOUNT_OFFSET, x.account);
        out.writeLong(at + CANCEL_CLIENT_ORDER_ID_OFFSET, x.clientOrderId);
        out.writeInt(at + CANCEL_SYMBOL_OFFSET, x.symbol);
        out.writeUnsignedByte(at + CANCEL_SIDE_OFFSET, ordinal(x.side));
        out.writeUnsignedByte(at + CANCEL_REASON_OFFSET, ordinal(x.reason));
        out.writeShort(at + CANCEL_PADDING_OFFSET, (short) 0);
        out.writeLong(at + CANCEL_PRICE_OFFSET, x.price);
        out.writeLong(at + CANCEL_QUANTITY_OFFSET, x.quantity);
        out.writeLong(at + CANCEL_LEAVES_OFFSET, x.leavesQuantity);
        out.writeLong(at + CANCEL_CUMULATIVE_OFFSET, x.cumulativeQuantity);
    }

    private static void writeLevelChange(final Bytes<?> out, final long at, final LevelChange l) {
        out.writeInt(at + LEVEL_SYMBOL_OFFSET, l.symbol);
        out.writeUnsignedByte(at + LEVEL_SIDE_OFFSET, ordinal(l.side));
        out.writeByte(at + LEVEL_PADDING_OFFSET, (byte) 0);
        out.writeShort(at + LEVEL_PADDING_OFFSET + 1, (short) 0);
        out.writeLong(at + LEVEL_PRICE_OFFSET, l.price);
        out.writeLong(at + LEVEL_QUANTITY_OFFSET, l.quantity);
        out.writeInt(at + LEVEL_ORDER_COUNT_OFFSET, l.orderCount);
        out.writeInt(at + LEVEL_TAIL_PADDING_OFFSET, 0);
    }

    /**
     * Whether the excerpt of {@code length} bytes at absolute offset {@code at} of {@code in} is, byte for byte, what
     * {@link #write} makes of {@code r} with that excerpt's own header (command index, routing, hop times): every
     * field of the result, the counts, the length and the zero padding are compared where they lie, without
     * encoding {@code r} (bin/audit verify, for every result of a journal). The header's routing and times are
     * not compared: they are the excerpt's own; nor is a checkpoint's state hash, which is not part of the result
     * (verify compares it with its own engine's). EventCodecTest checks it against {@link #write} byte by byte.
     */
    public static boolean matches(final RandomDataInput in, final long at, final long length, final Result r) {
        final long hash = length >= HEADER_LENGTH && in.readByte(at + VERSION_OFFSET) == VERSION_WITH_STATE_HASH ? STATE_HASH_LENGTH : 0;
        if (length != length(r) + hash || in.readByte(at + MESSAGE_TYPE_OFFSET) != MESSAGE_TYPE
            || (hash == 0 && in.readByte(at + VERSION_OFFSET) != VERSION)
            || in.readUnsignedByte(at + COMMAND_TYPE_OFFSET) != ordinal(r.commandType)
            || in.readUnsignedByte(at + REJECT_REASON_OFFSET) != ordinal(r.rejectReason)
            || in.readUnsignedByte(at + SIDE_OFFSET) != ordinal(r.side)
            || in.readUnsignedByte(at + ORDER_TYPE_OFFSET) != ordinal(r.orderType)
            || in.readUnsignedByte(at + TIME_IN_FORCE_OFFSET) != ordinal(r.timeInForce)
            || in.readUnsignedByte(at + ORDER_STATUS_OFFSET) != ordinal(r.orderStatus)
            || in.readInt(at + SYMBOL_OFFSET) != r.symbol || in.readLong(at + ORDER_ID_OFFSET) != r.orderId
            || in.readLong(at + ACCOUNT_OFFSET) != r.account || in.readLong(at + CLIENT_ORDER_ID_OFFSET) != r.clientOrderId
            || in.readLong(at + PRICE_OFFSET) != priceSlot(r) || in.readLong(at + QUANTITY_OFFSET) != r.quantity
            || in.readLong(at + LEAVES_OFFSET) != leavesSlot(r) || in.readLong(at + CUMULATIVE_OFFSET) != cumulativeSlot(r)
            || in.readInt(at + AFFECTED_ORDERS_OFFSET) != r.affectedOrders || in.readInt(at + FILL_COUNT_OFFSET) != r.fillCount()
            || in.readInt(at + CANCEL_COUNT_OFFSET) != r.cancelCount()
            || in.readInt(at + LEVEL_CHANGE_COUNT_OFFSET) != r.levelChangeCount()) {
            return false;
        }
        long entry = at + HEADER_LENGTH;
        for (int i = 0; i < r.fillCount(); i++, entry += FILL_LENGTH) {
            if (!matchesFill(in, entry, r.fill(i))) {
                return false;
            }
        }
        for (int i = 0; i < r.cancelCount(); i++, entry += CANCEL_LENGTH) {
            if (!matchesCancel(in, entry, r.cancel(i))) {
                return false;
            }
        }
        for (int i = 0; i < r.levelChangeCount(); i++, entry += LEVEL_CHANGE_LENGTH) {
            if (!matchesLevelChange(in, entry, r.levelChange(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean matchesFill(final RandomDataInput in, final long at, final Fill f) {
        return in.readLong(at + FILL_TRADE_ID_OFFSET) == f.tradeId && in.readLong(at + FILL_PRICE_OFFSET) == f.price
            && in.readLong(at + FILL_QUANTITY_OFFSET) == f.quantity && in.readLong(at + FILL_TAKER_ORDER_ID_OFFSET) == f.takerOrderId
            && in.readLong(at + FILL_TAKER_ACCOUNT_OFFSET) == f.takerAccount
            && in.readLong(at + FILL_TAKER_CLIENT_ORDER_ID_OFFSET) == f.takerClientOrderId
            && in.readLong(at + FILL_TAKER_LEAVES_OFFSET) == f.takerLeavesQuantity
            && in.readLong(at + FILL_TAKER_CUMULATIVE_OFFSET) == f.takerCumulativeQuantity
            && in.readLong(at + FILL_MAKER_ORDER_ID_OFFSET) == f.makerOrderId
            && in.readLong(at + FILL_MAKER_ACCOUNT_OFFSET) == f.makerAccount
            && in.readLong(at + FILL_MAKER_CLIENT_ORDER_ID_OFFSET) == f.makerClientOrderId
            && in.readLong(at + FILL_MAKER_LEAVES_OFFSET) == f.makerLeavesQuantity
            && in.readLong(at + FILL_MAKER_CUMULATIVE_OFFSET) == f.makerCumulativeQuantity
            // The side's byte and the 7 padding bytes after it, as one little-endian long.
            && in.readLong(at + FILL_TAKER_SIDE_OFFSET) == ordinal(f.takerSide);
    }

    private static boolean matchesCancel(final RandomDataInput in, final long at, final Cancel x) {
        return in.readLong(at + CANCEL_ORDER_ID_OFFSET) == x.orderId && in.readLong(at + CANCEL_ACCOUNT_OFFSET) == x.account
            && in.readLong(at + CANCEL_CLIENT_ORDER_ID_OFFSET) == x.clientOrderId && in.readInt(at + CANCEL_SYMBOL_OFFSET) == x.symbol
            // Side, reason and the 2 padding bytes, as one little-endian int.
            && in.readInt(at + CANCEL_SIDE_OFFSET) == (ordinal(x.side) | ordinal(x.reason) << 8)
            && in.readLong(at + CANCEL_PRICE_OFFSET) == x.price && in.readLong(at + CANCEL_QUANTITY_OFFSET) == x.quantity
            && in.readLong(at + CANCEL_LEAVES_OFFSET) == x.leavesQuantity
            && in.readLong(at + CANCEL_CUMULATIVE_OFFSET) == x.cumulativeQuantity;
    }

    private static boolean matchesLevelChange(final RandomDataInput in, final long at, final LevelChange l) {
        return in.readInt(at + LEVEL_SYMBOL_OFFSET) == l.symbol
            // Side and the 3 padding bytes; the order count and the 4 padding bytes: each as one little-endian word.
            && in.readInt(at + LEVEL_SIDE_OFFSET) == ordinal(l.side)
            && in.readLong(at + LEVEL_PRICE_OFFSET) == l.price && in.readLong(at + LEVEL_QUANTITY_OFFSET) == l.quantity
            && in.readLong(at + LEVEL_ORDER_COUNT_OFFSET) == (l.orderCount & 0xFFFF_FFFFL);
    }

    /**
     * Reads one events excerpt at the read position and, when it is OK, moves past it; on anything
     * but OK the result must not be used.
     */
    public static DecodeStatus read(final Bytes<?> in, final EventHeader header, final Result r) {
        final long at = in.readPosition();
        final DecodeStatus status = readAt(in, at, in.readRemaining(), header, r);
        if (status == DecodeStatus.OK) {
            in.readPosition(at + length(r) + (header.checkpoint ? STATE_HASH_LENGTH : 0));
        }
        return status;
    }

    /**
     * Like {@link #read(Bytes, EventHeader, Result)}, for an excerpt of {@code length} bytes at absolute offset
     * {@code at} of {@code in}, which is left untouched (a reader walking the mapped file: {@link ExcerptWalk}).
     */
    public static DecodeStatus readAt(final RandomDataInput in, final long at, final long length, final EventHeader header,
                                      final Result r) {
        final DecodeStatus preamble = readPreamble(in, at, length, header);
        if (preamble != DecodeStatus.OK) {
            return preamble;
        }
        if (!readOutcome(in, at, r)) {
            return DecodeStatus.BAD_VALUE;
        }
        readSubject(in, at, header, r);
        final int fills = in.readInt(at + FILL_COUNT_OFFSET);
        final int cancels = in.readInt(at + CANCEL_COUNT_OFFSET);
        final int levels = in.readInt(at + LEVEL_CHANGE_COUNT_OFFSET);
        if (fills < 0 || cancels < 0 || levels < 0) {
            return DecodeStatus.BAD_VALUE;
        }
        // Counts are checked against the bytes there before any entry is read, so a corrupt count cannot make the result grow.
        final long fillsAt = at + HEADER_LENGTH;
        final long cancelsAt = fillsAt + (long) fills * FILL_LENGTH;
        final long levelsAt = cancelsAt + (long) cancels * CANCEL_LENGTH;
        final long end = levelsAt + (long) levels * LEVEL_CHANGE_LENGTH;
        if (end - at + (header.checkpoint ? STATE_HASH_LENGTH : 0) > length) {
            return DecodeStatus.TRUNCATED;
        }
        header.stateHash = header.checkpoint ? in.readLong(end) : 0;
        if (!readFills(in, fillsAt, fills, r) || !readCancels(in, cancelsAt, cancels, r) || !readLevelChanges(in, levelsAt, levels, r)) {
            return DecodeStatus.BAD_VALUE;
        }
        return DecodeStatus.OK;
    }

    /** The bytes {@link #write} takes for a result. */
    public static long length(final Result r) {
        return HEADER_LENGTH + (long) r.fillCount() * FILL_LENGTH + (long) r.cancelCount() * CANCEL_LENGTH
            + (long) r.levelChangeCount() * LEVEL_CHANGE_LENGTH;
    }

    /**
     * Only the header's routing and hops (the command answered, gateway, session, every timestamp), not
     * the result: for a reader that needs to know which command an excerpt answers and when, such as
     * verify, which re-encodes the result itself and compares bytes. Does not move the read position.
     */
    public static DecodeStatus readHeader(final Bytes<?> in, final EventHeader header) {
        return readHeaderAt(in, in.readPosition(), in.readRemaining(), header);
    }

    /**
     * {@link #readHeader} of an excerpt of {@code length} bytes at absolute offset {@code at} of {@code in}; a
     * checkpoint's state hash too.
     */
    public static DecodeStatus readHeaderAt(final RandomDataInput in, final long at, final long length, final EventHeader header) {
        final DecodeStatus status = readAnsweredAt(in, at, length, header);
        if (status == DecodeStatus.OK) {
            readRouting(in, at, header);
        }
        return status;
    }

    /**
     * Of the header, only the journal index answered and a checkpoint's state hash (routing and hop times left as they
     * were): what verify needs of each recorded result before it compares the result where it lies.
     */
    public static DecodeStatus readAnsweredAt(final RandomDataInput in, final long at, final long length, final EventHeader header) {
        final DecodeStatus preamble = readPreamble(in, at, length, header);
        if (preamble != DecodeStatus.OK) {
            return preamble;
        }
        header.commandIndex = in.readLong(at + COMMAND_INDEX_OFFSET);
        if (header.checkpoint) {
            // The hash ends the excerpt: its last 8 bytes (matches and readAt check the lists' counts against the length).
            header.stateHash = in.readLong(at + length - STATE_HASH_LENGTH);
        }
        return DecodeStatus.OK;
    }

    /** Type, either version (which says whether the excerpt is a checkpoint) and room for the header and a hash. */
    private static DecodeStatus readPreamble(final RandomDataInput in, final long at, final long length, final EventHeader header) {
        header.checkpoint = length >= CommandCodec.PREAMBLE_LENGTH && in.readByte(at + VERSION_OFFSET) == VERSION_WITH_STATE_HASH;
        header.stateHash = 0;
        return CommandCodec.readPreamble(in, at, length, MESSAGE_TYPE, header.checkpoint ? VERSION_WITH_STATE_HASH : VERSION,
            HEADER_LENGTH + (header.checkpoint ? STATE_HASH_LENGTH : 0));
    }

    /** The command answered, its routing and every hop time: all of the header that is not the result. */
    private static void readRouting(final RandomDataInput in, final long at, final EventHeader header) {
        final Hops hops = header.hops;
        header.commandIndex = in.readLong(at + COMMAND_INDEX_OFFSET);
        hops.gatewayId = in.readInt(at + GATEWAY_ID_OFFSET);
        hops.sessionId = in.readLong(at + SESSION_ID_OFFSET);
        hops.gatewayReadNanos = in.readLong(at + GATEWAY_READ_OFFSET);
        hops.gatewayAppendNanos = in.readLong(at + GATEWAY_APPEND_OFFSET);
        hops.receiptEpochNanos = in.readLong(at + RECEIPT_EPOCH_OFFSET);
        hops.engineReadNanos = in.readLong(at + ENGINE_READ_OFFSET);
        hops.engineDoneNanos = in.readLong(at + ENGINE_DONE_OFFSET);
        hops.engineAppendNanos = in.readLong(at + ENGINE_APPEND_OFFSET);
    }

    /** The six enums of the header, into a reset result; false when one is an ordinal no writer produces. */
    private static boolean readOutcome(final RandomDataInput in, final long at, final Result r) {
        final int commandType = in.readUnsignedByte(at + COMMAND_TYPE_OFFSET);
        final int rejectReason = in.readUnsignedByte(at + REJECT_REASON_OFFSET);
        final int side = in.readUnsignedByte(at + SIDE_OFFSET);
        final int orderType = in.readUnsignedByte(at + ORDER_TYPE_OFFSET);
        final int timeInForce = in.readUnsignedByte(at + TIME_IN_FORCE_OFFSET);
        final int orderStatus = in.readUnsignedByte(at + ORDER_STATUS_OFFSET);
        r.reset(CommandType.fromOrdinal(commandType));
        final RejectReason reason = RejectReason.fromOrdinal(rejectReason);
        final OrderStatus status = OrderStatus.fromOrdinal(orderStatus);
        r.side = Side.fromOrdinal(side);
        r.orderType = OrderType.fromOrdinal(orderType);
        r.timeInForce = TimeInForce.fromOrdinal(timeInForce);
        if ((r.commandType == null && commandType != NONE) || reason == null || status == null
            || (r.side == null && side != NONE) || (r.orderType == null && orderType != NONE)
            || (r.timeInForce == null && timeInForce != NONE)) {
            return false;
        }
        r.rejectReason = reason;
        r.orderStatus = status;
        return true;
    }

    /** The header's numbers: the command it answers, the routing and hops, the subject order. */
    private static void readSubject(final RandomDataInput in, final long at, final EventHeader header, final Result r) {
        readRouting(in, at, header);
        r.symbol = in.readInt(at + SYMBOL_OFFSET);
        r.orderId = in.readLong(at + ORDER_ID_OFFSET);
        r.account = in.readLong(at + ACCOUNT_OFFSET);
        r.clientOrderId = in.readLong(at + CLIENT_ORDER_ID_OFFSET);
        final long price = in.readLong(at + PRICE_OFFSET);
        r.quantity = in.readLong(at + QUANTITY_OFFSET);
        final long leaves = in.readLong(at + LEAVES_OFFSET);
        final long cumulative = in.readLong(at + CUMULATIVE_OFFSET);
        r.affectedOrders = in.readInt(at + AFFECTED_ORDERS_OFFSET);
        r.price = price;
        r.leavesQuantity = leaves;
        r.cumulativeQuantity = cumulative;
        r.balanceAvailable = 0;
        r.balanceHeld = 0;
        r.fundsNeeded = 0;
        if (isMoneyCommand(r.commandType) && r.rejectReason == RejectReason.INSUFFICIENT_FUNDS) {
            r.price = 0;
            r.fundsNeeded = price;
        }
        if (isMoneyCommand(r.commandType) || r.rejectReason == RejectReason.INSUFFICIENT_FUNDS) {
            r.leavesQuantity = 0;
            r.cumulativeQuantity = 0;
            r.balanceAvailable = leaves;
            if (isMoneyCommand(r.commandType)) {
                r.balanceHeld = cumulative;
            } else {
                r.fundsNeeded = cumulative;
            }
        }
    }

    // Results about money have no order quantities and, for money commands, no price: their numbers go in those
    // slots (docs/messages.md). A money command's result: price = funds needed when refused for funds (else the price as
    // echoed), leaves = available, cumulative = held;
    // an order rejected for funds: leaves = available, cumulative = funds needed.

    private static boolean isMoneyCommand(final CommandType type) {
        return type == CommandType.DEPOSIT || type == CommandType.WITHDRAW || type == CommandType.ADJUST || type == CommandType.BALANCE;
    }

    private static long priceSlot(final Result r) {
        return isMoneyCommand(r.commandType) && r.rejectReason == RejectReason.INSUFFICIENT_FUNDS ? r.fundsNeeded : r.price;
    }

    private static long leavesSlot(final Result r) {
        return isMoneyCommand(r.commandType) || r.rejectReason == RejectReason.INSUFFICIENT_FUNDS ? r.balanceAvailable : r.leavesQuantity;
    }

    private static long cumulativeSlot(final Result r) {
        if (isMoneyCommand(r.commandType)) {
            return r.balanceHeld;
        }
        return r.rejectReason == RejectReason.INSUFFICIENT_FUNDS ? r.fundsNeeded : r.cumulativeQuantity;
    }

    private static boolean readFills(final RandomDataInput in, final long fillsAt, final int count, final Result r) {
        for (int i = 0; i < count; i++) {
            final long at = fillsAt + (long) i * FILL_LENGTH;
            final Fill f = r.addFill();
            f.tradeId = in.readLong(at + FILL_TRADE_ID_OFFSET);
            f.price = in.readLong(at + FILL_PRICE_OFFSET);
            f.quantity = in.readLong(at + FILL_QUANTITY_OFFSET);
            f.takerOrderId = in.readLong(at + FILL_TAKER_ORDER_ID_OFFSET);
            f.takerAccount = in.readLong(at + FILL_TAKER_ACCOUNT_OFFSET);
            f.takerClientOrderId = in.readLong(at + FILL_TAKER_CLIENT_ORDER_ID_OFFSET);
            f.takerLeavesQuantity = in.readLong(at + FILL_TAKER_LEAVES_OFFSET);
            f.takerCumulativeQuantity = in.readLong(at + FILL_TAKER_CUMULATIVE_OFFSET);
            f.makerOrderId = in.readLong(at + FILL_MAKER_ORDER_ID_OFFSET);
            f.makerAccount = in.readLong(at + FILL_MAKER_ACCOUNT_OFFSET);
            f.makerClientOrderId = in.readLong(at + FILL_MAKER_CLIENT_ORDER_ID_OFFSET);
            f.makerLeavesQuantity = in.readLong(at + FILL_MAKER_LEAVES_OFFSET);
            f.makerCumulativeQuantity = in.readLong(at + FILL_MAKER_CUMULATIVE_OFFSET);
            f.takerSide = Side.fromOrdinal(in.readUnsignedByte(at + FILL_TAKER_SIDE_OFFSET));
            if (f.takerSide == null) {
                return false;
            }
        }
        return true;
    }

    private static boolean readCancels(final RandomDataInput in, final long cancelsAt, final int count, final Result r) {
        for (int i = 0; i < count; i++) {
            final long at = cancelsAt + (long) i * CANCEL_LENGTH;
            final Cancel x = r.addCancel();
            x.orderId = in.readLong(at + CANCEL_ORDER_ID_OFFSET);
            x.account = in.readLong(at + CANCEL_ACCOUNT_OFFSET);
            x.clientOrderId = in.readLong(at + CANCEL_CLIENT_ORDER_ID_OFFSET);
            x.symbol = in.readInt(at + CANCEL_SYMBOL_OFFSET);
            x.side = Side.fromOrdinal(in.readUnsignedByte(at + CANCEL_SIDE_OFFSET));
            x.reason = CancelReason.fromOrdinal(in.readUnsignedByte(at + CANCEL_REASON_OFFSET));
            x.price = in.readLong(at + CANCEL_PRICE_OFFSET);
            x.quantity = in.readLong(at + CANCEL_QUANTITY_OFFSET);
            x.leavesQuantity = in.readLong(at + CANCEL_LEAVES_OFFSET);
            x.cumulativeQuantity = in.readLong(at + CANCEL_CUMULATIVE_OFFSET);
            if (x.side == null || x.reason == null) {
                return false;
            }
        }
        return true;
    }

    private static boolean readLevelChanges(final RandomDataInput in, final long levelsAt, final int count, final Result r) {
        for (int i = 0; i < count; i++) {
            final long at = levelsAt + (long) i * LEVEL_CHANGE_LENGTH;
            final LevelChange l = r.addLevelChange();
            l.symbol = in.readInt(at + LEVEL_SYMBOL_OFFSET);
            l.side = Side.fromOrdinal(in.readUnsignedByte(at + LEVEL_SIDE_OFFSET));
            l.price = in.readLong(at + LEVEL_PRICE_OFFSET);
            l.quantity = in.readLong(at + LEVEL_QUANTITY_OFFSET);
            l.orderCount = in.readInt(at + LEVEL_ORDER_COUNT_OFFSET);
            if (l.side == null) {
                return false;
            }
        }
        return true;
    }
}
