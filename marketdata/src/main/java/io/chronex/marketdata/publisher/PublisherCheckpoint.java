package io.chronex.marketdata.publisher;

import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.queues.book.Books;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.function.Consumer;

/**
 * The publisher's checkpoint, DATA/marketdata/checkpoint: what a start would otherwise rebuild from the events queue's
 * first excerpt, as of one events index, so that a start reads only what follows it and the days before it may be archived
 * (docs/marketdata.md, "Start and restart"). The file is a {@link ReaderCheckpoint} of kind PUBLISHER (no journal index);
 * its body, big-endian:
 *
 * <pre>
 *   version i32 (1)
 *   market-data excerpts through the index i64 (the last one's sequence number)
 *   unreadable excerpts through the index i64
 *   n i32, then n x i64: the events indices of the last n market-data excerpts, oldest first (n = min(count, 1024))
 *   m i32, then m x i32: the ids of the symbols halted
 *   every book ({@link Books#writeTo})
 * </pre>
 *
 * <p>Written by a thread of its own ({@link ReaderCheckpoint.Writer}), so that the publisher's loop never waits on the disk.
 */
final class PublisherCheckpoint implements AutoCloseable {
    static final int BODY_VERSION = 1;

    /** What a checkpoint's body holds besides the books, and the events index it was taken through. */
    record State(long eventsIndex, long marketData, long unreadable, long[] recent, int[] halted) {
    }

    private final ReaderCheckpoint.Writer writer;
    /** The events index of the newest checkpoint handed over (the loop's thread only). */
    private long lastAsked = -1;

    /** A writer of {@code file}, which holds a checkpoint through {@code loaded} (-1: none that was used). */
    PublisherCheckpoint(final Path file, final SingleChronicleQueue events, final Consumer<String> log, final long loaded) {
        this.writer = new ReaderCheckpoint.Writer(file, ReaderCheckpoint.PUBLISHER, 0, null, events, "marketdata-checkpoint",
            line -> log.accept("marketdata: " + line));
        this.lastAsked = loaded;
    }

    /** The body for a checkpoint: {@code recent} holds market-data excerpt n (from 1) at (n - 1) % its length. */
    static byte[] encode(final long marketData, final long unreadable, final long[] recent, final int[] halted, final Books books) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(BODY_VERSION);
            out.writeLong(marketData);
            out.writeLong(unreadable);
            final int n = (int) Math.min(marketData, recent.length);
            out.writeInt(n);
            for (long k = marketData - n; k < marketData; k++) {
                out.writeLong(recent[(int) (k % recent.length)]);
            }
            out.writeInt(halted.length);
            for (final int symbol : halted) {
                out.writeInt(symbol);
            }
            books.writeTo(out);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Reads a body into a State and {@code books}; an IllegalArgumentException when it cannot be one this build wrote. */
    static State decode(final long eventsIndex, final ByteBuffer body, final Books books) {
        try {
            final int version = body.getInt();
            if (version != BODY_VERSION) {
                throw new IllegalArgumentException("its state is of version " + version + ", this build reads " + BODY_VERSION);
            }
            final long marketData = body.getLong();
            final long unreadable = body.getLong();
            final int n = body.getInt();
            if (marketData < 0 || unreadable < 0 || n < 0 || n > marketData || n > body.remaining() / Long.BYTES) {
                throw new IllegalArgumentException("its counts cannot be (" + marketData + " market-data excerpts, " + n + " recent)");
            }
            final long[] recent = new long[n];
            for (int i = 0; i < n; i++) {
                recent[i] = body.getLong();
                if (recent[i] > eventsIndex || i > 0 && recent[i] <= recent[i - 1]) {
                    throw new IllegalArgumentException("its recent market-data excerpts are not in order before its index");
                }
            }
            final int m = body.getInt();
            if (m < 0 || m > body.remaining() / Integer.BYTES) {
                throw new IllegalArgumentException("its " + m + " halted symbols cannot be");
            }
            final int[] halted = new int[m];
            for (int i = 0; i < m; i++) {
                halted[i] = body.getInt();
            }
            books.readFrom(body);
            if (body.hasRemaining()) {
                throw new IllegalArgumentException("its state has " + body.remaining() + " bytes after the books");
            }
            return new State(eventsIndex, marketData, unreadable, recent, halted);
        } catch (final BufferUnderflowException e) {
            throw new IllegalArgumentException("its state ends too soon", e);
        }
    }

    /**
     * The checkpoint to start from, its books read into {@code books}; null to rebuild from the events queue's first excerpt
     * (there is none, or none that can be used, and no day of the events is archived: said as a warning).
     *
     * @throws IllegalStateException when there is none that can be used and days of the events are archived
     */
    static State startingPoint(final Path file, final Path root, final SingleChronicleQueue events, final Books books,
                               final Consumer<String> log) {
        String problem = null;
        try {
            final ReaderCheckpoint.Checkpoint read = ReaderCheckpoint.read(file, ReaderCheckpoint.PUBLISHER, 0);
            if (read != null) {
                problem = read.header().mismatch(null, events);
                if (problem == null) {
                    return decode(read.header().eventsIndex(), read.body(), books);
                }
            }
        } catch (final IllegalArgumentException e) {
            problem = e.getMessage();
        } catch (final IOException e) {
            problem = "cannot be read: " + e.getMessage();
        }
        final List<ArchivedCycles.Cycle> missing = ArchivedCycles.ofDataDirectory(root).cycles().stream()
            .filter(c -> c.queue().equals("events") && !Files.exists(root.resolve("events").resolve(c.file()))).toList();
        if (!missing.isEmpty()) {
            final int through = missing.stream().mapToInt(ArchivedCycles.Cycle::cycle).max().orElseThrow();
            throw new IllegalStateException("the events queue's days through " + LocalDate.ofEpochDay(through) + " were archived ("
                + missing.size() + " listed in " + root.resolve(ArchivedCycles.FILE) + " and not in " + root.resolve("events") + "), and "
                + (problem == null ? "there is no checkpoint " + file : "the checkpoint " + file + " cannot be used: " + problem)
                + ": the books and sequence numbers rebuilt from the days left would be wrong, and the feed would send wrong books"
                + " under numbers that name other messages. Restore " + file + " (the copy taken with the data directory), or put"
                + " the archived days back into " + root.resolve("events") + " (docs/operating.md, Archiving past days)");
        }
        if (problem != null) {
            log.accept("marketdata: WARNING: the checkpoint " + file + " cannot be used (" + problem + "): rebuilding from the events"
                + " queue's first excerpt (no day of it is archived)");
        }
        return null;
    }

    /** Hands a checkpoint through {@code eventsIndex} to the writing thread (the loop's thread). */
    void writeInBackground(final long eventsIndex, final byte[] body) {
        lastAsked = eventsIndex;
        writer.writeInBackground(-1, eventsIndex, body, "checkpoint through " + Long.toHexString(eventsIndex));
    }

    /** The events index of the newest checkpoint handed over (or the one started from), -1 before the first. */
    long lastAsked() {
        return lastAsked;
    }

    /** Waits for the checkpoints handed over to be written (or to fail with a warning). */
    @Override
    public void close() {
        writer.close();
    }
}
