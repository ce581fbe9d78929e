package io.chronex.replay.audit;

import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.ExcerptWalk;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where each order's life starts in the events queue, by engine order id (the engine numbers orders
 * 1, 2, 3... as it accepts them): bin/audit builds it into {@code DIR/audit-index/order-starts} and
 * extends it on each use, reading only the events added since; the engine never touches it. A file
 * that does not read back is rebuilt, with a note; two tools updating it at once each write a whole
 * file and rename it into place, so a reader sees one or the other, never a mix.
 *
 * <p>Layout (little-endian): {@code u64 magic | i32 version | i32 0 | i64 events index read through
 * (-1: none) | i64 highest order id}, then one i64 per order id from 0: the events index of the result
 * that accepted it (0: not known).
 */
final class OrderIndex {
    private static final long MAGIC = 0x5844_4E49_4452_4F43L; // "CORDINDX" read little-endian
    private static final int VERSION = 1;
    private static final int HEADER = 32;
    static final String FILE = "order-starts";

    private final Path file;
    private long readThrough = -1;
    private long[] starts = new long[1024];
    private long highest;

    private OrderIndex(final Path file) {
        this.file = file;
    }

    /** The index of the data directory, brought up to date with its events queue; null when it cannot be written (said). */
    static OrderIndex updated(final DataDirectory data, final PrintStream out) {
        final Path dir = data.root().resolve("audit-index");
        final OrderIndex index = new OrderIndex(dir.resolve(FILE));
        index.load(out);
        final long before = index.readThrough;
        final long added = index.extend(data);
        if (added > 0 || before != index.readThrough) {
            try {
                Files.createDirectories(dir);
                index.save();
            } catch (final IOException e) {
                out.println("note: the order index cannot be written in " + dir + " (" + e.getMessage() + "): used for this run only");
            }
        }
        return index;
    }

    /** The events index of the result that accepted the order, or -1 when the index does not know the order. */
    long startOf(final long orderId) {
        return orderId > 0 && orderId <= highest && starts[(int) orderId] != 0 ? starts[(int) orderId] : -1;
    }

    private void load(final PrintStream out) {
        if (!Files.exists(file)) {
            return;
        }
        try {
            final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            if (bytes.remaining() < HEADER || bytes.getLong(0) != MAGIC || bytes.getInt(8) != VERSION) {
                throw new IOException("not an order index of this version");
            }
            final long through = bytes.getLong(16);
            final long high = bytes.getLong(24);
            if (high < 0 || high > Integer.MAX_VALUE - 8 || bytes.remaining() != HEADER + (high + 1) * 8) {
                throw new IOException("its length does not match its highest order id " + high);
            }
            starts = new long[(int) Math.max(1024, high + 1)];
            bytes.position(HEADER).asLongBuffer().get(starts, 0, (int) high + 1);
            highest = high;
            readThrough = through;
        } catch (final IOException | RuntimeException e) {
            out.println("note: rebuilding the order index " + file + ": " + e.getMessage());
            readThrough = -1;
            highest = 0;
            starts = new long[1024];
        }
    }

    /** Reads the events after the last one indexed; returns how many orders were added. */
    private long extend(final DataDirectory data) {
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        long added = 0;
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            if (readThrough >= 0 && !(tailer.moveToIndex(readThrough) && skipOne(tailer))) {
                // The queue no longer has the excerpt the index ends at (another directory's index): start again.
                tailer.toStart();
                readThrough = -1;
                highest = 0;
                Arrays.fill(starts, 0);
            }
            try (ExcerptWalk walk = new ExcerptWalk(tailer)) {
                while (walk.next()) {
                    readThrough = walk.index();
                    if (EventCodec.readAt(walk.in(), walk.offset(), walk.length(), header, result) == DecodeStatus.OK
                        && !result.isRejected() && result.commandType == CommandType.NEW_ORDER && result.orderId > 0
                        && result.orderId < Integer.MAX_VALUE - 8) {
                        put(result.orderId, walk.index());
                        added++;
                    }
                }
                return added;
            }
        }
    }

    private static boolean skipOne(final ExcerptTailer tailer) {
        try (DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent();
        }
    }

    private void put(final long orderId, final long eventsIndex) {
        if (orderId >= starts.length) {
            starts = Arrays.copyOf(starts, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(orderId + 1, starts.length * 2L)));
        }
        if (starts[(int) orderId] == 0) {
            starts[(int) orderId] = eventsIndex;
        }
        highest = Math.max(highest, orderId);
    }

    private void save() throws IOException {
        IndexFile.replace(file, out -> {
            // MAGIC, then the version as an i32 and a zero i32 in one little-endian i64.
            out.put(MAGIC);
            out.put(VERSION);
            out.put(readThrough);
            out.put(highest);
            for (int i = 0; i <= highest; i++) {
                out.put(starts[i]);
            }
        });
    }
}
