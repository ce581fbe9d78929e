package io.chronex.gateway;

import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixTags;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The distinct third-party routes of the orders this gateway journalled: an OnBehalfOfCompID (115)
 * with the OnBehalfOfSubID (116) and OnBehalfOfLocationID (144) that came with it, each numbered
 * once and for ever in an append-only file of the gateway's directory ({@code gateways/N/routes}).
 * A live order ({@link ClOrdIdTable}) and a request awaiting its answer ({@link RequestRoutes}) keep
 * only the number; their reports get the values back as DeliverToCompID (128), DeliverToSubID (129)
 * and DeliverToLocationID (145). Route {@link #NONE} (0) is no route. Values follow the ClOrdID rule
 * ({@link ClientOrderIds#valid}: 1..64 printable ASCII characters without spaces).
 *
 * <p>The file: an 8-byte magic, then one record per route in number order, back to back: i32 body
 * length, i32 CRC-32 of the body, the body (each of 115, 116, 144 as a u8 length and its bytes; 0 =
 * absent). A record goes to the file with one positioned write before anything can name its number,
 * so a kill -9 can at most leave the last record cut short. Opening cuts off such a tail (a record
 * shorter than its length says, a tail of zero bytes, or a last record whose CRC fails) and refuses
 * anything else: a record in the middle that does not check would shift every number after it.
 * Lookups go through an index in memory, so a known route costs no allocation; a new one allocates
 * (its bytes, sometimes a bigger index), once per route.
 */
final class Routes implements AutoCloseable {
    static final int NONE = ClOrdIdTable.NO_ROUTE;
    /** What {@link #id} returns when the file holds {@link #MAX_ROUTES} already. */
    static final int FULL = -1;
    /** Routes are never forgotten: this many distinct ones per gateway, about 13 MB of file at most. */
    static final int MAX_ROUTES = 65_535;
    private static final long MAGIC = 0x3145_5455_4F52_5843L; // "CXROUTE1" read little-endian
    private static final int HEADER = 8;
    private static final int RECORD_HEADER = 8;
    private static final int CRC_OFFSET = 4;
    /** A one-character OnBehalfOfCompID and two empty values. */
    private static final int MIN_BODY = 4;
    private static final int MAX_BODY = 3 * (1 + ClientOrderIds.MAX_LENGTH);

    private final Path file;
    private final FileChannel channel;
    /** Where the next record goes. */
    private long end;
    private int count;
    /** Bytes of a record a crash left unfinished, cut off when the file was opened. */
    final long cutOff;
    /** The bodies of routes 1..count back to back (route n's at starts[n]), as in the file. */
    private byte[] bodies = new byte[4096];
    private final UnsafeBuffer bodiesBuffer = new UnsafeBuffer(bodies);
    private int bodiesLength;
    private int[] starts = new int[64];
    /** Open addressing by the hash of the values: route numbers, 0 = empty; at most half full. */
    private int[] index = new int[128];
    private final ByteBuffer record = ByteBuffer.allocateDirect(RECORD_HEADER + MAX_BODY).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32 crc = new CRC32();

    /** Opens (or creates) the routes file, cutting off a last record a crash left unfinished. */
    Routes(final Path file) {
        this.file = file;
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            try {
                cutOff = load();
            } catch (final RuntimeException | IOException e) {
                channel.close();
                throw e;
            }
        } catch (final IOException e) {
            throw new IllegalStateException("cannot open the routes file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The magic, by way of a temporary file and a rename: a file without it is never taken for an empty routes file. */
    private static void create(final Path file) throws IOException {
        final Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        final ByteBuffer magic = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN).putLong(0, MAGIC);
        try (FileChannel c = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
            while (magic.hasRemaining()) {
                c.write(magic);
            }
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads every record; returns how many bytes of an unfinished last record were cut off. */
    private long load() throws IOException {
        final long size = channel.size();
        if (size > HEADER + (long) MAX_ROUTES * (RECORD_HEADER + MAX_BODY)) {
            throw damaged("is " + size + " bytes, more than " + MAX_ROUTES + " routes can take");
        }
        final byte[] bytes = new byte[(int) size];
        final ByteBuffer into = ByteBuffer.wrap(bytes);
        while (into.hasRemaining() && channel.read(into, into.position()) >= 0) {
            // read on until the whole file is in
        }
        final UnsafeBuffer b = new UnsafeBuffer(bytes);
        if (size < HEADER || b.getLong(0) != MAGIC) {
            throw new IllegalStateException(file + " is not a routes file");
        }
        int at = HEADER;
        while (at < size && !zeros(b, at)) {
            final int left = (int) size - at;
            if (left < RECORD_HEADER) {
                break;
            }
            final int length = b.getInt(at);
            if (length < MIN_BODY || length > MAX_BODY) {
                throw damaged("has a record at byte " + at + " with a body of " + length + " bytes");
            }
            if (left < RECORD_HEADER + length) {
                break;
            }
            final int body = at + RECORD_HEADER;
            if (crc(b.byteArray(), body, length) != b.getInt(at + CRC_OFFSET)) {
                if (left == RECORD_HEADER + length) {
                    break;
                }
                throw damaged("has a record at byte " + at + " whose CRC fails, with records after it");
            }
            if (!wellFormed(b, body, length) || count == MAX_ROUTES) {
                throw damaged("has a record at byte " + at + " that is not a route");
            }
            add(b, body, length);
            at = body + length;
        }
        end = at;
        if (at < size) {
            channel.truncate(at);
        }
        return size - at;
    }

    private IllegalStateException damaged(final String what) {
        return new IllegalStateException(file + " is damaged: it " + what + "; the routes of live orders cannot be trusted. "
            + Recovery.RESTORE_HINT);
    }

    private static boolean zeros(final UnsafeBuffer b, final int from) {
        for (int i = from; i < b.capacity(); i++) {
            if (b.getByte(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Three values that fill the body exactly: an OnBehalfOfCompID, then two that may be empty. */
    private static boolean wellFormed(final UnsafeBuffer b, final int body, final int length) {
        int at = body;
        for (int i = 0; i < 3; i++) {
            if (at >= body + length) {
                return false;
            }
            final int n = b.getByte(at) & 0xFF;
            if (at + 1 + n > body + length || ((i == 0 || n > 0) && !ClientOrderIds.valid(b, at + 1, n))) {
                return false;
            }
            at += 1 + n;
        }
        return at == body + length;
    }

    private int crc(final byte[] bytes, final int offset, final int length) {
        crc.reset();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /** Routes in the file. */
    int count() {
        return count;
    }

    /**
     * The number of the route in the message's 115, 116 and 144 (the message has 115; the caller
     * checked the values with {@link ClientOrderIds#valid}), written to the file first if it is new.
     *
     * @return the route, or {@link #FULL}
     */
    int id(final FixDecoder m) {
        final DirectBuffer b = m.buffer();
        return id(b, m.valueOffset(FixTags.ON_BEHALF_OF_COMP_ID), m.valueLength(FixTags.ON_BEHALF_OF_COMP_ID),
            m.valueOffset(FixTags.ON_BEHALF_OF_SUB_ID), Math.max(0, m.valueLength(FixTags.ON_BEHALF_OF_SUB_ID)),
            m.valueOffset(FixTags.ON_BEHALF_OF_LOCATION_ID), Math.max(0, m.valueLength(FixTags.ON_BEHALF_OF_LOCATION_ID)));
    }

    /** Like {@link #id(FixDecoder)}, for the three values in b (length 0: absent). */
    int id(final DirectBuffer b, final int compOffset, final int compLength, final int subOffset, final int subLength,
           final int locationOffset, final int locationLength) {
        final int mask = index.length - 1;
        int i = hash(b, compOffset, compLength, subOffset, subLength, locationOffset, locationLength) & mask;
        while (index[i] != NONE) {
            if (matches(index[i], b, compOffset, compLength, subOffset, subLength, locationOffset, locationLength)) {
                return index[i];
            }
            i = (i + 1) & mask;
        }
        if (count == MAX_ROUTES) {
            return FULL;
        }
        return append(b, compOffset, compLength, subOffset, subLength, locationOffset, locationLength);
    }

    /** Writes a new route's record, then knows it: nothing names a number before its record is in the file. */
    private int append(final DirectBuffer b, final int compOffset, final int compLength, final int subOffset, final int subLength,
                       final int locationOffset, final int locationLength) {
        record.clear();
        record.position(RECORD_HEADER);
        put(b, compOffset, compLength);
        put(b, subOffset, subLength);
        put(b, locationOffset, locationLength);
        final int length = record.position() - RECORD_HEADER;
        crc.reset();
        crc.update(record.duplicate().position(RECORD_HEADER).limit(RECORD_HEADER + length));
        record.putInt(0, length).putInt(CRC_OFFSET, (int) crc.getValue());
        record.flip();
        try {
            long at = end;
            while (record.hasRemaining()) {
                at += channel.write(record, at);
            }
        } catch (final IOException e) {
            // Whatever part of it reached the file is cut off again: a shorter record written over it later would leave
            // its tail behind, which the next start would take for damage.
            try {
                channel.truncate(end);
            } catch (final IOException again) {
                e.addSuppressed(again);
            }
            throw new IllegalStateException("cannot write the routes file " + file + ": " + e.getMessage(), e);
        }
        end += RECORD_HEADER + length;
        final UnsafeBuffer body = new UnsafeBuffer(record, RECORD_HEADER, length);
        add(body, 0, length);
        return count;
    }

    private void put(final DirectBuffer b, final int offset, final int length) {
        record.put((byte) length);
        for (int i = 0; i < length; i++) {
            record.put(b.getByte(offset + i));
        }
    }

    /** Knows the route whose body is at b[body, body + length) as number count + 1. */
    private void add(final DirectBuffer b, final int body, final int length) {
        if (bodiesLength + length > bodies.length) {
            bodies = Arrays.copyOf(bodies, Math.max(bodies.length * 2, bodiesLength + length));
            bodiesBuffer.wrap(bodies);
        }
        b.getBytes(body, bodies, bodiesLength, length);
        count++;
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, starts.length * 2);
        }
        starts[count] = bodiesLength;
        bodiesLength += length;
        if (2 * (count + 1) > index.length) {
            index = new int[index.length * 2];
            for (int route = 1; route <= count; route++) {
                indexRoute(route);
            }
        } else {
            indexRoute(count);
        }
    }

    private void indexRoute(final int route) {
        final int at = starts[route];
        final int compLength = bodies[at] & 0xFF;
        final int sub = at + 1 + compLength;
        final int subLength = bodies[sub] & 0xFF;
        final int location = sub + 1 + subLength;
        final int mask = index.length - 1;
        int i = hash(bodiesBuffer, at + 1, compLength, sub + 1, subLength, location + 1, bodies[location] & 0xFF) & mask;
        while (index[i] != NONE) {
            i = (i + 1) & mask;
        }
        index[i] = route;
    }

    private boolean matches(final int route, final DirectBuffer b, final int compOffset, final int compLength, final int subOffset,
                            final int subLength, final int locationOffset, final int locationLength) {
        final int at = starts[route];
        final int sub = at + 1 + (bodies[at] & 0xFF);
        final int location = sub + 1 + (bodies[sub] & 0xFF);
        return same(at, b, compOffset, compLength) && same(sub, b, subOffset, subLength) && same(location, b, locationOffset,
            locationLength);
    }

    /** Whether the value stored at bodies[at] (length byte, then bytes) is b[offset, offset + length). */
    private boolean same(final int at, final DirectBuffer b, final int offset, final int length) {
        if ((bodies[at] & 0xFF) != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (bodies[at + 1 + i] != b.getByte(offset + i)) {
                return false;
            }
        }
        return true;
    }

    private static int hash(final DirectBuffer b, final int compOffset, final int compLength, final int subOffset, final int subLength,
                            final int locationOffset, final int locationLength) {
        long h = 0xCBF29CE484222325L;
        h = hash(h, b, compOffset, compLength);
        h = hash(h, b, subOffset, subLength);
        h = hash(h, b, locationOffset, locationLength);
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) h;
    }

    private static long hash(final long seed, final DirectBuffer b, final int offset, final int length) {
        long h = (seed ^ length) * 0x100000001B3L;
        for (int i = 0; i < length; i++) {
            h = (h ^ (b.getByte(offset + i) & 0xFF)) * 0x100000001B3L;
        }
        return h;
    }

    /** Adds the route's values to a message's header as DeliverToCompID (128), DeliverToSubID (129), DeliverToLocationID (145). */
    void write(final FixEncoder e, final int route) {
        final int at = starts[route];
        final int compLength = bodies[at] & 0xFF;
        e.addBytes(FixTags.DELIVER_TO_COMP_ID, bodiesBuffer, at + 1, compLength);
        final int sub = at + 1 + compLength;
        final int subLength = bodies[sub] & 0xFF;
        if (subLength > 0) {
            e.addBytes(FixTags.DELIVER_TO_SUB_ID, bodiesBuffer, sub + 1, subLength);
        }
        final int location = sub + 1 + subLength;
        final int locationLength = bodies[location] & 0xFF;
        if (locationLength > 0) {
            e.addBytes(FixTags.DELIVER_TO_LOCATION_ID, bodiesBuffer, location + 1, locationLength);
        }
    }

    /** For logs and tests: "115/116/144" of a route, empty parts for absent values; allocates. */
    String describe(final int route) {
        final StringBuilder sb = new StringBuilder();
        int at = starts[route];
        for (int i = 0; i < 3; i++) {
            final int n = bodies[at] & 0xFF;
            sb.append(i == 0 ? "" : "/").append(new String(bodies, at + 1, n, java.nio.charset.StandardCharsets.US_ASCII));
            at += 1 + n;
        }
        return sb.toString();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (final IOException ignored) {
            // nothing is buffered: every record went out with its write
        }
    }
}
