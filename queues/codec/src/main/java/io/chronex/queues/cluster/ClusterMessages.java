package io.chronex.queues.cluster;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The messages between a gateway host's bridge and the cluster, little-endian over Aeron Cluster's ingress and
 * egress (docs/cluster.md has the table). Every message starts with the same 16 bytes:
 *
 * <pre>
 *  0  u8   type (below)
 *  1  3    zero
 *  4  i32  source: the bridge's id (one per gateway host's journal)
 *  8  i64  sequence: a command's index in that host's journal, or the position a HELLO or WELCOME names
 *  16 ...  the payload: a commands-journal excerpt (COMMAND), an events excerpt (RESULT), or as below
 * </pre>
 *
 * Ingress: COMMAND (sequence = the command's journal index; payload = the excerpt as the host's journal holds it),
 * HELLO (sequence = the last journal index whose result the host's events queue holds, -1 for none).
 * Egress: RESULT (sequence = the command's index in the host's journal; payload = its events excerpt, naming that
 * index), WELCOME (sequence = the last of the source's commands the cluster has applied, -1 for none; then i64:
 * how many RESULTs the cluster resent before it).
 */
public final class ClusterMessages {
    public static final byte COMMAND = 1;
    public static final byte HELLO = 2;
    public static final byte RESULT = 1;
    public static final byte WELCOME = 2;

    static final int TYPE_OFFSET = 0;
    static final int SOURCE_OFFSET = 4;
    static final int SEQUENCE_OFFSET = 8;
    public static final int HEADER_LENGTH = 16;
    static final int RESENT_OFFSET = HEADER_LENGTH;
    public static final int WELCOME_LENGTH = HEADER_LENGTH + Long.BYTES;
    public static final int HELLO_LENGTH = HEADER_LENGTH;

    private ClusterMessages() {
    }

    /** Writes the 16-byte header at offset; returns the payload's offset. */
    public static int header(final MutableDirectBuffer buffer, final int offset, final byte type, final int source, final long sequence) {
        buffer.putByte(offset + TYPE_OFFSET, type);
        buffer.putByte(offset + 1, (byte) 0);
        buffer.putShort(offset + 2, (short) 0);
        buffer.putInt(offset + SOURCE_OFFSET, source);
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence);
        return offset + HEADER_LENGTH;
    }

    /** A WELCOME: the source's last applied command and how many results were resent before it; returns its length. */
    public static int welcome(final MutableDirectBuffer buffer, final int offset, final int source, final long lastApplied,
                              final long resent) {
        header(buffer, offset, WELCOME, source, lastApplied);
        buffer.putLong(offset + RESENT_OFFSET, resent);
        return WELCOME_LENGTH;
    }

    /** A message's type, or 0 when it is shorter than a header. */
    public static byte type(final DirectBuffer buffer, final int offset, final int length) {
        return length < HEADER_LENGTH ? 0 : buffer.getByte(offset + TYPE_OFFSET);
    }

    public static int source(final DirectBuffer buffer, final int offset) {
        return buffer.getInt(offset + SOURCE_OFFSET);
    }

    public static long sequence(final DirectBuffer buffer, final int offset) {
        return buffer.getLong(offset + SEQUENCE_OFFSET);
    }

    /** A WELCOME's count of results resent before it. */
    public static long resent(final DirectBuffer buffer, final int offset) {
        return buffer.getLong(offset + RESENT_OFFSET);
    }
}
