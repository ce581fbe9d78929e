package io.chronex.engine.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Map;
import java.util.TreeMap;

/**
 * The clustered service's snapshot, as Aeron Cluster stores it in each node's archive: one header message, then
 * the engine's own snapshot bytes (sealed, with their checksum, exactly what bin/engine writes to a file) in chunks.
 *
 * <pre>
 * header:  i32 magic "CXCS", i32 version 1, i64 log position, i32 sources, (i32 source, i64 last applied) x sources,
 *          i32 engine bytes
 * chunks:  the engine bytes, CHUNK at a time
 * </pre>
 */
final class ServiceSnapshot {
    static final int MAGIC = 0x53435843; // "CXCS" little-endian
    static final int VERSION = 1;
    /** Each chunk's size: well under the smallest term's largest message (64 KiB term / 8). */
    static final int CHUNK = 4096;

    /** What a snapshot held. */
    record Loaded(long logPosition, Map<Long, Long> lastApplied, byte[] engine) {
    }

    private ServiceSnapshot() {
    }

    static void write(final ExclusivePublication publication, final IdleStrategy idle, final long logPosition,
                      final Long2LongHashMap lastApplied, final byte[] engine) {
        // Sources in order, so that every node's snapshot of the same state is the same bytes.
        final TreeMap<Long, Long> sorted = new TreeMap<>(lastApplied);
        final UnsafeBuffer header = new UnsafeBuffer(new byte[24 + sorted.size() * 12]);
        int at = 0;
        header.putInt(at, MAGIC);
        header.putInt(at + 4, VERSION);
        header.putLong(at + 8, logPosition);
        header.putInt(at + 16, sorted.size());
        at += 20;
        for (final Map.Entry<Long, Long> e : sorted.entrySet()) {
            header.putInt(at, (int) (long) e.getKey());
            header.putLong(at + 4, e.getValue());
            at += 12;
        }
        header.putInt(at, engine.length);
        offer(publication, idle, header, 0, at + 4);
        final UnsafeBuffer bytes = new UnsafeBuffer(engine);
        for (int from = 0; from < engine.length; from += CHUNK) {
            offer(publication, idle, bytes, from, Math.min(CHUNK, engine.length - from));
        }
    }

    private static void offer(final ExclusivePublication publication, final IdleStrategy idle, final UnsafeBuffer buffer,
                              final int offset, final int length) {
        idle.reset();
        while (true) {
            final long position = publication.offer(buffer, offset, length);
            if (position > 0) {
                return;
            }
            if (position == io.aeron.Publication.CLOSED || position == io.aeron.Publication.MAX_POSITION_EXCEEDED) {
                throw new IllegalStateException("cannot write the cluster snapshot: publication " + position);
            }
            idle.idle();
        }
    }

    /** Reads a whole snapshot from the image Aeron hands the service at start; throws on anything but one of ours. */
    static Loaded load(final Image image, final IdleStrategy idle) {
        final Reader reader = new Reader();
        final FragmentAssembler assembler = new FragmentAssembler(reader);
        idle.reset();
        while (!reader.done()) {
            if (image.isEndOfStream() && !reader.done()) {
                throw new IllegalStateException("the cluster snapshot ends early: " + reader.describe());
            }
            idle.idle(image.poll(assembler, 16));
        }
        return new Loaded(reader.logPosition, reader.lastApplied, reader.engine);
    }

    /** Assembles the header and the chunks in order. */
    private static final class Reader implements FragmentHandler {
        private long logPosition;
        private final Map<Long, Long> lastApplied = new TreeMap<>();
        private byte[] engine;
        private int filled;

        @Override
        public void onFragment(final org.agrona.DirectBuffer buffer, final int offset, final int length,
                               final io.aeron.logbuffer.Header header) {
            if (engine == null) {
                if (length < 24 || buffer.getInt(offset) != MAGIC || buffer.getInt(offset + 4) != VERSION) {
                    throw new IllegalStateException("the cluster snapshot is not a chronex engine snapshot of version " + VERSION);
                }
                logPosition = buffer.getLong(offset + 8);
                final int sources = buffer.getInt(offset + 16);
                if (sources < 0 || length != 24 + sources * 12) {
                    throw new IllegalStateException("the cluster snapshot's header is damaged (" + sources + " sources in " + length
                        + " bytes)");
                }
                int at = offset + 20;
                for (int i = 0; i < sources; i++) {
                    lastApplied.put((long) buffer.getInt(at), buffer.getLong(at + 4));
                    at += 12;
                }
                engine = new byte[buffer.getInt(at)];
                return;
            }
            if (filled + length > engine.length) {
                throw new IllegalStateException("the cluster snapshot holds more engine bytes than its header says");
            }
            buffer.getBytes(offset, engine, filled, length);
            filled += length;
        }

        boolean done() {
            return engine != null && filled == engine.length;
        }

        String describe() {
            return engine == null ? "no header" : filled + " of " + engine.length + " engine bytes";
        }
    }
}
