package io.chronex.queues;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.charset.StandardCharsets;

/**
 * The journal's configuration record: the exchange configuration as {@link EngineConfigFile#text} writes it, appended to
 * the commands queue by the engine process (the one the data directory starts under, then each change it is told to
 * make), so that the journal says what it was written under. Layout (little-endian, docs/messages.md):
 * u8 'K', u8 version 1, u8 kind (1 initial, 2 change), u8 0, i32 text length, i64 when recorded (epoch nanos), the text.
 */
public final class ConfigRecord {
    public static final byte MESSAGE_TYPE = 'K';
    public static final byte VERSION = 1;
    static final int KIND_OFFSET = 2;
    static final int LENGTH_OFFSET = 4;
    static final int EPOCH_OFFSET = 8;
    static final int HEADER_LENGTH = 16;

    /** What a record says: where the history starts, or a change to what was in force. */
    public enum Kind {
        INITIAL, CHANGE;

        /** As the record's kind byte says it. */
        int code() {
            return ordinal() + 1;
        }
    }

    /** One record as read: its kind, when it was recorded and its text (UTF-8). */
    public record Decoded(Kind kind, long epochNanos, byte[] text) {
    }

    private ConfigRecord() {
    }

    /** Is the excerpt of {@code length} bytes at {@code at} a configuration record (whether or not it reads)? */
    public static boolean is(final RandomDataInput in, final long at, final long length) {
        return length >= 1 && in.readByte(at) == MESSAGE_TYPE;
    }

    /** Appends one record as one excerpt; returns its journal index. */
    public static long append(final ExcerptAppender appender, final Kind kind, final long epochNanos, final String text) {
        try (DocumentContext dc = appender.writingDocument()) {
            write(dc.wire().bytes(), kind, epochNanos, text);
        }
        return appender.lastIndexAppended();
    }

    /** Writes one record at the write position and moves past it. */
    static void write(final Bytes<?> out, final Kind kind, final long epochNanos, final String text) {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeByte(MESSAGE_TYPE);
        out.writeByte(VERSION);
        out.writeUnsignedByte(kind.code());
        out.writeUnsignedByte(0);
        out.writeInt(bytes.length);
        out.writeLong(epochNanos);
        out.write(bytes);
    }

    /** The record of {@code length} bytes at {@code at}; an IllegalArgumentException saying what is wrong with one that does not read. */
    public static Decoded read(final RandomDataInput in, final long at, final long length) {
        if (length < HEADER_LENGTH || in.readByte(at) != MESSAGE_TYPE) {
            throw new IllegalArgumentException("not a configuration record (" + length + " bytes)");
        }
        if (in.readByte(at + 1) != VERSION) {
            throw new IllegalArgumentException("configuration record version " + in.readByte(at + 1) + " is not " + VERSION);
        }
        final int kind = in.readUnsignedByte(at + KIND_OFFSET);
        if (kind < 1 || kind > Kind.values().length) {
            throw new IllegalArgumentException("configuration record kind " + kind + " is not 1 (initial) or 2 (change)");
        }
        final int textLength = in.readInt(at + LENGTH_OFFSET);
        if (textLength < 0 || HEADER_LENGTH + (long) textLength != length) {
            throw new IllegalArgumentException("configuration record says " + textLength + " bytes of text in an excerpt of " + length);
        }
        final byte[] text = new byte[textLength];
        in.read(at + HEADER_LENGTH, text, 0, textLength);
        return new Decoded(Kind.values()[kind - 1], in.readLong(at + EPOCH_OFFSET), text);
    }
}
