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
 * absent), so their constants may only ever be appended to. A command with client order id texts
 * ({@link CommandText}) is the same layout under version 2 followed by the two texts; one without
 * is written as version 1, byte for byte what it was before texts existed.
 */
public final class CommandCodec {
    public static final byte MESSAGE_TYPE = 'C';
    public static final byte VERSION = 1;
    /** Version 1's fixed part, then the texts: u8 length and the bytes of each, clientOrderId's first. */
    public static final byte VERSION_WITH_TEXT = 2;
    /**
     * Version 2 (texts always present, maybe empty) followed by the command's origin in cluster mode
     * ({@link CommandOrigin}): i32 source, i64 sequence, i64 log position. Only a cluster node writes it.
     */
    public static final byte VERSION_WITH_ORIGIN = 3;
    /** The origin's length after the texts of a version 3 excerpt. */
    static final int ORIGIN_LENGTH = Integer.BYTES + Long.BYTES + Long.BYTES;

    // The layout, declared once for the writer and both readers: each field's offset from the
    // excerpt's start and its type, in order (docs/messages.md says what each field means).
    static final int MESSAGE_TYPE_OFFSET = 0;            // u8, 'C'
    static final int VERSION_OFFSET = 1;                 // u8
    static final int COMMAND_TYPE_OFFSET = 2;            // u8 ordinal
    static final int SIDE_OFFSET = 3;                    // u8 ordinal
    static final int ORDER_TYPE_OFFSET = 4;              // u8 ordinal
    static final int TIME_IN_FORCE_OFFSET = 5;           // u8 ordinal
    static final int FLAGS_OFFSET = 6;                   // u8, POST_ONLY_FLAG
    static final int SELF_TRADE_PREVENTION_OFFSET = 7;   // u8 ordinal
    static final int SYMBOL_OFFSET = 8;                  // i32
    static final int GATEWAY_ID_OFFSET = 12;             // i32
    static final int SESSION_ID_OFFSET = 16;             // i64
    static final int ACCOUNT_OFFSET = 24;                // i64
    static final int CLIENT_ORDER_ID_OFFSET = 32;        // i64
    static final int ORDER_ID_OFFSET = 40;               // i64
    static final int NEW_CLIENT_ORDER_ID_OFFSET = 48;    // i64
    static final int PRICE_OFFSET = 56;                  // i64
    static final int QUANTITY_OFFSET = 64;               // i64
    /** SET_ACCOUNT_LIMITS: maxOrderQuantity; NEW_ORDER: reservePrice (the slot is shared, no command has both). */
    static final int MAX_ORDER_QUANTITY_OFFSET = 72;     // i64
    static final int MAX_ORDER_NOTIONAL_OFFSET = 80;     // i64
    static final int MAX_OPEN_ORDERS_OFFSET = 88;        // i32
    static final int CLIENT_SEQ_NUM_OFFSET = 92;         // i32
    static final int GATEWAY_READ_OFFSET = 96;           // i64 nanos
    /** Where the gateway-append timestamp sits in the excerpt (written last, by {@link #append}). */
    static final int GATEWAY_APPEND_OFFSET = 104;        // i64 nanos
    static final int RECEIPT_EPOCH_OFFSET = 112;         // i64 nanos since the epoch
    public static final int LENGTH = 120;                // the whole excerpt
    /** The two bytes every excerpt of both queues starts with: message type and schema version. */
    static final int PREAMBLE_LENGTH = 2;
    /** Bit 0 of the flags byte; the other bits are 0. */
    static final int POST_ONLY_FLAG = 1;
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
        append(appender, c, hops, null);
    }

    /** Like {@link #append(ExcerptAppender, Command, Hops)}, with the command's client order id texts (null = none). */
    public static void append(final ExcerptAppender appender, final Command c, final Hops hops, final CommandText text) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            final long start = out.writePosition();
            write(out, c, hops, text);
            hops.gatewayAppendNanos = System.nanoTime();
            out.writeLong(start + GATEWAY_APPEND_OFFSET, hops.gatewayAppendNanos);
        }
    }

    /** Writes one command excerpt at the write position and moves past it. */
    public static void write(final Bytes<?> out, final Command c, final Hops hops) {
        write(out, c, hops, null);
    }

    /** Writes one command excerpt with its client order id texts (null or empty: version 1, no texts) and moves past it. */
    public static void write(final Bytes<?> out, final Command c, final Hops hops, final CommandText text) {
        final long at = out.writePosition();
        final boolean withText = text != null && !text.isEmpty();
        // Claims (and for elastic bytes, grows to) the whole excerpt; every one of its bytes is written below.
        out.writeSkip(LENGTH);
        out.writeByte(at + MESSAGE_TYPE_OFFSET, MESSAGE_TYPE);
        out.writeByte(at + VERSION_OFFSET, withText ? VERSION_WITH_TEXT : VERSION);
        out.writeUnsignedByte(at + COMMAND_TYPE_OFFSET, ordinal(c.type));
        out.writeUnsignedByte(at + SIDE_OFFSET, ordinal(c.side));
        out.writeUnsignedByte(at + ORDER_TYPE_OFFSET, ordinal(c.orderType));
        out.writeUnsignedByte(at + TIME_IN_FORCE_OFFSET, ordinal(c.timeInForce));
        out.writeUnsignedByte(at + FLAGS_OFFSET, c.postOnly ? POST_ONLY_FLAG : 0);
        out.writeUnsignedByte(at + SELF_TRADE_PREVENTION_OFFSET, ordinal(c.selfTradePrevention));
        out.writeInt(at + SYMBOL_OFFSET, c.symbol);
        out.writeInt(at + GATEWAY_ID_OFFSET, hops.gatewayId);
        out.writeLong(at + SESSION_ID_OFFSET, hops.sessionId);
        out.writeLong(at + ACCOUNT_OFFSET, c.account);
        out.writeLong(at + CLIENT_ORDER_ID_OFFSET, c.clientOrderId);
        out.writeLong(at + ORDER_ID_OFFSET, c.orderId);
        out.writeLong(at + NEW_CLIENT_ORDER_ID_OFFSET, c.newClientOrderId);
        out.writeLong(at + PRICE_OFFSET, c.price);
        out.writeLong(at + QUANTITY_OFFSET, c.quantity);
        out.writeLong(at + MAX_ORDER_QUANTITY_OFFSET, c.type == CommandType.NEW_ORDER ? c.reservePrice : c.maxOrderQuantity);
        out.writeLong(at + MAX_ORDER_NOTIONAL_OFFSET, c.maxOrderNotional);
        out.writeInt(at + MAX_OPEN_ORDERS_OFFSET, c.maxOpenOrders);
        out.writeInt(at + CLIENT_SEQ_NUM_OFFSET, hops.clientSeqNum);
        out.writeLong(at + GATEWAY_READ_OFFSET, hops.gatewayReadNanos);
        out.writeLong(at + GATEWAY_APPEND_OFFSET, hops.gatewayAppendNanos);
        out.writeLong(at + RECEIPT_EPOCH_OFFSET, hops.receiptEpochNanos);
        if (withText) {
            out.writeUnsignedByte(text.clientOrderIdLength);
            out.write(text.clientOrderId, 0, text.clientOrderIdLength);
            out.writeUnsignedByte(text.newClientOrderIdLength);
            out.write(text.newClientOrderId, 0, text.newClientOrderIdLength);
        }
    }

    /**
     * Writes one command excerpt as a cluster node keeps it: version 3, the texts (null: none) and then
     * where the command came from and where the cluster's log put it.
     */
    public static void write(final Bytes<?> out, final Command c, final Hops hops, final CommandText text, final CommandOrigin origin) {
        final long at = out.writePosition();
        write(out, c, hops, text);
        if (text == null || text.isEmpty()) {
            out.writeUnsignedByte(0);
            out.writeUnsignedByte(0);
        }
        out.writeByte(at + VERSION_OFFSET, VERSION_WITH_ORIGIN);
        out.writeInt(origin.source);
        out.writeLong(origin.sequence);
        out.writeLong(origin.logPosition);
    }

    /**
     * Reads the origin of a version 3 excerpt of {@code length} bytes at {@code at} into origin; false (origin
     * cleared) for an excerpt of another version or one too short to hold it.
     */
    public static boolean readOrigin(final RandomDataInput in, final long at, final long length, final CommandOrigin origin) {
        origin.clear();
        if (length < LENGTH + 2 || in.readByte(at + VERSION_OFFSET) != VERSION_WITH_ORIGIN
            || in.readByte(at + MESSAGE_TYPE_OFFSET) != MESSAGE_TYPE || readText(in, at, length, null) != DecodeStatus.OK) {
            return false;
        }
        final long from = at + textEnd(in, at);
        if (from + ORIGIN_LENGTH > at + length) {
            return false;
        }
        origin.source = in.readInt(from);
        origin.sequence = in.readLong(from + Integer.BYTES);
        origin.logPosition = in.readLong(from + Integer.BYTES + Long.BYTES);
        return true;
    }

    /**
     * Reads one command excerpt into c and hops (the engine's own hop fields are left alone). On
     * anything but OK, c and hops may be partly filled and must not be used, except hops' routing
     * when the fixed part was complete. Consumes the fixed part when it is all there.
     */
    public static DecodeStatus read(final Bytes<?> in, final Command c, final Hops hops) {
        return read(in, c, hops, null);
    }

    /** Like {@link #read(Bytes, Command, Hops)}, also reading the client order id texts into text (if not null); OK consumes them. */
    public static DecodeStatus read(final Bytes<?> in, final Command c, final Hops hops, final CommandText text) {
        final long at = in.readPosition();
        final long length = in.readRemaining();
        final DecodeStatus status = readAt(in, at, length, c, hops, text);
        final byte version = length >= PREAMBLE_LENGTH ? in.readByte(at + VERSION_OFFSET) : 0;
        if (status == DecodeStatus.OK && version == VERSION_WITH_TEXT) {
            in.readPosition(at + textEnd(in, at));
        } else if (status == DecodeStatus.OK && version == VERSION_WITH_ORIGIN) {
            in.readPosition(at + textEnd(in, at) + ORIGIN_LENGTH);
        } else if (length >= LENGTH) {
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
        return readAt(in, at, length, c, hops, null);
    }

    /** Like {@link #readAt(RandomDataInput, long, long, Command, Hops)}, also reading the texts into text (if not null). */
    public static DecodeStatus readAt(final RandomDataInput in, final long at, final long length, final Command c, final Hops hops,
                                      final CommandText text) {
        // Every version shares the fixed part; the preamble check is told the version found if it is one we read.
        final byte version = length >= PREAMBLE_LENGTH ? in.readByte(at + VERSION_OFFSET) : VERSION;
        final boolean withText = version == VERSION_WITH_TEXT || version == VERSION_WITH_ORIGIN;
        final DecodeStatus preamble = readPreamble(in, at, length, MESSAGE_TYPE, withText ? version : VERSION, LENGTH);
        if (preamble != DecodeStatus.OK) {
            return preamble;
        }
        DecodeStatus texts = withText ? readText(in, at, length, text) : DecodeStatus.OK;
        if (texts == DecodeStatus.OK && version == VERSION_WITH_ORIGIN && length < textEnd(in, at) + ORIGIN_LENGTH) {
            texts = DecodeStatus.TRUNCATED;
        }
        if (texts != DecodeStatus.OK) {
            return texts;
        }
        if (!withText && text != null) {
            text.clear();
        }
        final int type = in.readUnsignedByte(at + COMMAND_TYPE_OFFSET);
        final int side = in.readUnsignedByte(at + SIDE_OFFSET);
        final int orderType = in.readUnsignedByte(at + ORDER_TYPE_OFFSET);
        final int timeInForce = in.readUnsignedByte(at + TIME_IN_FORCE_OFFSET);
        final int flags = in.readUnsignedByte(at + FLAGS_OFFSET);
        final int stp = in.readUnsignedByte(at + SELF_TRADE_PREVENTION_OFFSET);
        c.symbol = in.readInt(at + SYMBOL_OFFSET);
        hops.gatewayId = in.readInt(at + GATEWAY_ID_OFFSET);
        hops.sessionId = in.readLong(at + SESSION_ID_OFFSET);
        c.account = in.readLong(at + ACCOUNT_OFFSET);
        c.clientOrderId = in.readLong(at + CLIENT_ORDER_ID_OFFSET);
        c.orderId = in.readLong(at + ORDER_ID_OFFSET);
        c.newClientOrderId = in.readLong(at + NEW_CLIENT_ORDER_ID_OFFSET);
        c.price = in.readLong(at + PRICE_OFFSET);
        c.quantity = in.readLong(at + QUANTITY_OFFSET);
        final long slot72 = in.readLong(at + MAX_ORDER_QUANTITY_OFFSET);
        c.maxOrderNotional = in.readLong(at + MAX_ORDER_NOTIONAL_OFFSET);
        c.maxOpenOrders = in.readInt(at + MAX_OPEN_ORDERS_OFFSET);
        hops.clientSeqNum = in.readInt(at + CLIENT_SEQ_NUM_OFFSET);
        hops.gatewayReadNanos = in.readLong(at + GATEWAY_READ_OFFSET);
        hops.gatewayAppendNanos = in.readLong(at + GATEWAY_APPEND_OFFSET);
        hops.receiptEpochNanos = in.readLong(at + RECEIPT_EPOCH_OFFSET);
        c.type = CommandType.fromOrdinal(type);
        c.reservePrice = c.type == CommandType.NEW_ORDER ? slot72 : 0;
        c.maxOrderQuantity = c.type == CommandType.NEW_ORDER ? 0 : slot72;
        c.side = Side.fromOrdinal(side);
        c.orderType = OrderType.fromOrdinal(orderType);
        c.timeInForce = TimeInForce.fromOrdinal(timeInForce);
        c.selfTradePrevention = SelfTradePrevention.fromOrdinal(stp);
        c.postOnly = (flags & POST_ONLY_FLAG) != 0;
        // CONFIGURATION is a record of its own ('K', ConfigRecord), never a command excerpt's type.
        if ((c.type == null && type != NONE) || c.type == CommandType.CONFIGURATION || (c.side == null && side != NONE)
            || (c.orderType == null && orderType != NONE)
            || (c.timeInForce == null && timeInForce != NONE) || (c.selfTradePrevention == null && stp != NONE) || flags > POST_ONLY_FLAG) {
            return DecodeStatus.BAD_VALUE;
        }
        return DecodeStatus.OK;
    }

    /** Checks the texts after the fixed part of a version 2 or 3 excerpt fit in it and copies them into text (if not null). */
    private static DecodeStatus readText(final RandomDataInput in, final long at, final long length, final CommandText text) {
        if (length < LENGTH + 1) {
            return DecodeStatus.TRUNCATED;
        }
        final int first = in.readUnsignedByte(at + LENGTH);
        if (first > CommandText.MAX_LENGTH) {
            return DecodeStatus.BAD_VALUE;
        }
        if (length < LENGTH + 2L + first) {
            return DecodeStatus.TRUNCATED;
        }
        final int second = in.readUnsignedByte(at + LENGTH + 1 + first);
        if (second > CommandText.MAX_LENGTH) {
            return DecodeStatus.BAD_VALUE;
        }
        if (length < LENGTH + 2L + first + second) {
            return DecodeStatus.TRUNCATED;
        }
        if (text != null) {
            in.read(at + LENGTH + 1, text.clientOrderId, 0, first);
            text.clientOrderIdLength = first;
            in.read(at + LENGTH + 2 + first, text.newClientOrderId, 0, second);
            text.newClientOrderIdLength = second;
        }
        return DecodeStatus.OK;
    }

    /** Where the texts of a version 2 or 3 excerpt whose texts were checked end. */
    private static long textEnd(final RandomDataInput in, final long at) {
        final int first = in.readUnsignedByte(at + LENGTH);
        return LENGTH + 2L + first + in.readUnsignedByte(at + LENGTH + 1 + first);
    }

    /**
     * Checks the two bytes every excerpt starts with (message type, schema version) at absolute
     * offset {@code at}, and that the fixed part of the given length is all in the excerpt's
     * {@code length} bytes; shared by both codecs.
     */
    static DecodeStatus readPreamble(final RandomDataInput in, final long at, final long length, final byte messageType,
                                     final byte version, final int fixedLength) {
        if (length < PREAMBLE_LENGTH) {
            return DecodeStatus.TRUNCATED;
        }
        if (in.readByte(at + MESSAGE_TYPE_OFFSET) != messageType) {
            return DecodeStatus.UNKNOWN_MESSAGE_TYPE;
        }
        if (in.readByte(at + VERSION_OFFSET) != version) {
            return DecodeStatus.UNSUPPORTED_VERSION;
        }
        return length < fixedLength ? DecodeStatus.TRUNCATED : DecodeStatus.OK;
    }

    static int ordinal(final Enum<?> value) {
        return value == null ? NONE : value.ordinal();
    }
}
