package io.chronex.queues;

import net.openhft.chronicle.bytes.RandomDataInput;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The header every snapshot file starts with, around the engine's own snapshot bytes (the body): what the file
 * claims to be, so that a reader never has to trust its name. A file name can be changed by anyone; the journal
 * index, the configuration hash and a fingerprint of the journal's command at that index, sealed with a checksum,
 * cannot be changed without the reader noticing.
 *
 * <pre>
 *   offset  field (big-endian)
 *    0      magic i64 "CHRNXSNP"
 *    8      version i32 (1)
 *   12      header length i32 (56)
 *   16      journal index i64: the snapshot holds the state after this command
 *   24      configuration hash i64 (MatchingEngine.configHash, as in snapshots/config.hash)
 *   32      command fingerprint i64: {@link #fingerprint} of the journal's excerpt at that index
 *   40      body length i64
 *   48      body CRC32C i32
 *   52      header CRC32C i32, of bytes 0-51
 *   56      body
 * </pre>
 */
public final class SnapshotEnvelope {
    public static final long MAGIC = 0x43_48_52_4E_58_53_4E_50L; // "CHRNXSNP"
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 56;
    private static final int HEADER_CRC_AT = 52;

    /** What a snapshot file's header says. */
    public record Header(long journalIndex, long configHash, long commandFingerprint, long bodyLength) {
    }

    private SnapshotEnvelope() {
    }

    /** The header for {@code body}, the engine's state after the command at {@code journalIndex}. */
    public static byte[] header(final long journalIndex, final long configHash, final long commandFingerprint, final byte[] body) {
        final byte[] header = new byte[HEADER_BYTES];
        final CRC32C bodyCrc = new CRC32C();
        bodyCrc.update(body, 0, body.length);
        final ByteBuffer out = ByteBuffer.wrap(header);
        out.putLong(MAGIC).putInt(VERSION).putInt(HEADER_BYTES).putLong(journalIndex).putLong(configHash).putLong(commandFingerprint)
            .putLong(body.length).putInt((int) bodyCrc.getValue());
        out.putInt(HEADER_CRC_AT, crc(header, 0, HEADER_CRC_AT));
        return header;
    }

    /** A whole snapshot file: header and body in one array (for writers that write one array). */
    public static byte[] wrap(final long journalIndex, final long configHash, final long commandFingerprint, final byte[] body) {
        final byte[] file = new byte[HEADER_BYTES + body.length];
        System.arraycopy(header(journalIndex, configHash, commandFingerprint, body), 0, file, 0, HEADER_BYTES);
        System.arraycopy(body, 0, file, HEADER_BYTES, body.length);
        return file;
    }

    /**
     * The header of a whole snapshot file, once its magic, version, both checksums and its length are checked; an
     * IllegalArgumentException saying what is wrong otherwise (a file of an older build without this header, a torn,
     * truncated, zeroed or flipped one).
     */
    public static Header open(final byte[] file) {
        if (file.length < HEADER_BYTES) {
            throw new IllegalArgumentException("only " + file.length + " bytes, shorter than a snapshot file's header ("
                + HEADER_BYTES + "): truncated or empty");
        }
        final ByteBuffer in = ByteBuffer.wrap(file);
        if (in.getLong(0) != MAGIC) {
            throw new IllegalArgumentException("no snapshot header (magic " + String.format("%016x", in.getLong(0))
                + "): not a snapshot file, or one written before snapshots carried their journal index (an older build), which"
                + " is not used");
        }
        if (in.getInt(HEADER_CRC_AT) != crc(file, 0, HEADER_CRC_AT)) {
            throw new IllegalArgumentException("its header's checksum does not match: the header is damaged");
        }
        if (in.getInt(8) != VERSION || in.getInt(12) != HEADER_BYTES) {
            throw new IllegalArgumentException("snapshot file version " + in.getInt(8) + " (header " + in.getInt(12)
                + " bytes); this build reads version " + VERSION);
        }
        final Header header = new Header(in.getLong(16), in.getLong(24), in.getLong(32), in.getLong(40));
        if (header.bodyLength() != file.length - HEADER_BYTES) {
            throw new IllegalArgumentException(file.length + " bytes where its header says " + (HEADER_BYTES + header.bodyLength())
                + ": truncated or extended");
        }
        if (in.getInt(48) != crc(file, HEADER_BYTES, file.length - HEADER_BYTES)) {
            throw new IllegalArgumentException("its body's checksum does not match its header: the snapshot is damaged");
        }
        return header;
    }

    /**
     * The fingerprint of one journal excerpt, its {@code length} bytes at {@code offset} (what a tailer's document holds
     * between its read position and limit, and what {@link ExcerptWalk} gives): a 64-bit FNV-1a with a final mix.
     * The excerpt carries the gateway's timestamps, so the same command journalled in another run has another one.
     */
    public static long fingerprint(final RandomDataInput in, final long offset, final int length) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < length; i++) {
            hash ^= in.readUnsignedByte(offset + i);
            hash *= 0x100000001b3L;
        }
        hash ^= length;
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        return hash;
    }

    private static int crc(final byte[] bytes, final int offset, final int length) {
        final CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
