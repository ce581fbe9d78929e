package io.chronex.queues;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * Where a reader of both queues (a gateway, the market-data publisher) can start again without reading anything before
 * it: the state it had rebuilt through an events index (and a commands index), sealed with checksums and fingerprints of
 * the two excerpts, so a reader never trusts a damaged file or one from another data directory. {@code bin/admin archive}
 * moves only days before every reader's checkpoint (docs/operating.md, Archiving past days).
 *
 * <pre>
 *   offset  field (big-endian)
 *    0      magic i64 "CHRNXRCP"
 *    8      version i32 (1)
 *   12      header length i32 (80)
 *   16      kind i32: 1 a gateway, 2 the market-data publisher
 *   20      owner i32: the gateway id (0 for the publisher)
 *   24      commands index i64: the journal read through here (-1: not used)
 *   32      events index i64: the events read through here
 *   40      commands fingerprint i64: {@link SnapshotEnvelope#fingerprint} of the journal's excerpt there (0: none)
 *   48      events fingerprint i64: of the events excerpt there
 *   56      written at i64, epoch milliseconds
 *   64      body length i64
 *   72      body CRC32C i32
 *   76      header CRC32C i32, of bytes 0-75
 *   80      body: the reader's own state
 * </pre>
 */
public final class ReaderCheckpoint {
    /** The file's name in the reader's directory (gateways/N, marketdata). */
    public static final String FILE = "checkpoint";
    public static final long MAGIC = 0x43_48_52_4E_58_52_43_50L; // "CHRNXRCP"
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 80;
    public static final int GATEWAY = 1;
    public static final int PUBLISHER = 2;
    private static final int HEADER_CRC_AT = 76;

    /** What a checkpoint's header says. */
    public record Header(int kind, int owner, long commandsIndex, long eventsIndex, long commandsFingerprint, long eventsFingerprint,
                         long writtenMillis) {
        /** The earliest day (cycle) either index is in: the days a restart from here still reads start with it. */
        public int firstCycle() {
            final int events = ArchivedCycles.cycleOfIndex(eventsIndex);
            return commandsIndex < 0 ? events : Math.min(events, ArchivedCycles.cycleOfIndex(commandsIndex));
        }

        /**
         * Null when the excerpts at both indices are there with the fingerprints recorded, else what is wrong (the
         * checkpoint belongs to other queues, or the queues lost the days it starts from).
         */
        public String mismatch(final SingleChronicleQueue commands, final SingleChronicleQueue events) {
            if (commandsIndex >= 0) {
                final String c = mismatch("commands journal", commands, commandsIndex, commandsFingerprint);
                if (c != null) {
                    return c;
                }
            }
            return mismatch("events queue", events, eventsIndex, eventsFingerprint);
        }

        private static String mismatch(final String name, final SingleChronicleQueue queue, final long index, final long fingerprint) {
            final OptionalLong actual = SnapshotFiles.commandFingerprint(queue, index);
            if (actual.isEmpty()) {
                return "the " + name + " has no excerpt at index " + Long.toHexString(index) + ", where it was read through";
            }
            if (actual.getAsLong() != fingerprint) {
                return "the " + name + "'s excerpt at index " + Long.toHexString(index) + " is not the one it was read through"
                    + " (another data directory's queue, or one written again)";
            }
            return null;
        }
    }

    /** A whole checkpoint: its header and body. */
    public record Checkpoint(Header header, ByteBuffer body) {
    }

    private ReaderCheckpoint() {
    }

    /** The header for a checkpoint through these indices, with the fingerprints of their excerpts (-1 commands index: none). */
    public static Header header(final int kind, final int owner, final SingleChronicleQueue commands, final long commandsIndex,
                                final SingleChronicleQueue events, final long eventsIndex, final long nowMillis) {
        final long commandsPrint = commandsIndex < 0 ? 0 : SnapshotFiles.commandFingerprint(commands, commandsIndex).orElseThrow(
            () -> new IllegalStateException("no journal excerpt at " + Long.toHexString(commandsIndex) + " to fingerprint"));
        final long eventsPrint = SnapshotFiles.commandFingerprint(events, eventsIndex).orElseThrow(
            () -> new IllegalStateException("no events excerpt at " + Long.toHexString(eventsIndex) + " to fingerprint"));
        return new Header(kind, owner, commandsIndex, eventsIndex, commandsPrint, eventsPrint, nowMillis);
    }

    /** Replaces {@code file} with header and body: written beside it, forced to disk, then renamed (a crash leaves old or new). */
    public static void write(final Path file, final Header h, final byte[] body) throws IOException {
        final ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES);
        final CRC32C bodyCrc = new CRC32C();
        bodyCrc.update(body, 0, body.length);
        head.putLong(MAGIC).putInt(VERSION).putInt(HEADER_BYTES).putInt(h.kind()).putInt(h.owner()).putLong(h.commandsIndex())
            .putLong(h.eventsIndex()).putLong(h.commandsFingerprint()).putLong(h.eventsFingerprint()).putLong(h.writtenMillis())
            .putLong(body.length).putInt((int) bodyCrc.getValue());
        head.putInt(HEADER_CRC_AT, crc(head.array(), HEADER_CRC_AT));
        head.clear();
        final Path partial = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            final ByteBuffer all = ByteBuffer.wrap(body);
            while (head.hasRemaining() || all.hasRemaining()) {
                channel.write(new ByteBuffer[] {head, all});
            }
            channel.force(true);
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The checkpoint in {@code file}, null when there is none; an IllegalArgumentException saying what is wrong when the file
     * is there but not a whole checkpoint of this kind and owner (torn, truncated, zeroed, flipped, or another reader's).
     */
    public static Checkpoint read(final Path file, final int kind, final int owner) throws IOException {
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (final NoSuchFileException e) {
            return null;
        }
        if (bytes.length < HEADER_BYTES) {
            throw new IllegalArgumentException(file + ": only " + bytes.length + " bytes, shorter than a checkpoint's header");
        }
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.getLong(0) != MAGIC || in.getInt(HEADER_CRC_AT) != crc(bytes, HEADER_CRC_AT) || in.getInt(8) != VERSION
            || in.getInt(12) != HEADER_BYTES) {
            throw new IllegalArgumentException(file + ": not a whole checkpoint of this build (its header is damaged, or of another"
                + " version)");
        }
        final Header h = new Header(in.getInt(16), in.getInt(20), in.getLong(24), in.getLong(32), in.getLong(40), in.getLong(48),
            in.getLong(56));
        if (h.kind() != kind || h.owner() != owner) {
            throw new IllegalArgumentException(file + ": a checkpoint of " + describe(h.kind(), h.owner()) + ", not of "
                + describe(kind, owner));
        }
        final long length = in.getLong(64);
        if (length != bytes.length - HEADER_BYTES) {
            throw new IllegalArgumentException(file + ": its header says " + length + " bytes of state, the file holds "
                + (bytes.length - HEADER_BYTES) + " (cut short or added to)");
        }
        final CRC32C bodyCrc = new CRC32C();
        bodyCrc.update(bytes, HEADER_BYTES, (int) length);
        if ((int) bodyCrc.getValue() != in.getInt(72)) {
            throw new IllegalArgumentException(file + ": its state's checksum does not match (damaged)");
        }
        return new Checkpoint(h, ByteBuffer.wrap(bytes, HEADER_BYTES, (int) length).slice());
    }

    /**
     * Writes one reader's checkpoints on a thread of its own, so that the reader never waits on the disk: it hands over its
     * state's bytes and goes on; one handed over replaces one whose write has not started. The excerpts' fingerprints are
     * taken here too. A write that fails is said in the log and leaves the previous checkpoint: a longer start, nothing lost.
     */
    public static final class Writer implements AutoCloseable {
        private final Path file;
        private final int kind;
        private final int owner;
        private final SingleChronicleQueue commands;
        private final SingleChronicleQueue events;
        private final java.util.function.Consumer<String> log;
        private final java.util.concurrent.ExecutorService thread;
        private final java.util.concurrent.atomic.AtomicReference<Runnable> pending = new java.util.concurrent.atomic.AtomicReference<>();

        /** A writer of {@code file} for this kind and owner; commands may be null for a reader that records no journal index. */
        public Writer(final Path file, final int kind, final int owner, final SingleChronicleQueue commands,
                      final SingleChronicleQueue events, final String threadName, final java.util.function.Consumer<String> log) {
            this.file = file;
            this.kind = kind;
            this.owner = owner;
            this.commands = commands;
            this.events = events;
            this.log = log;
            this.thread = java.util.concurrent.Executors.newSingleThreadExecutor(task -> {
                final Thread t = new Thread(task, threadName);
                t.setDaemon(true);
                return t;
            });
        }

        /** Hands over a checkpoint through these indices; {@code what} names it in the log line said once it is written. */
        public void writeInBackground(final long commandsIndex, final long eventsIndex, final byte[] body, final String what) {
            if (pending.getAndSet(() -> write(commandsIndex, eventsIndex, body, what)) == null) {
                thread.execute(() -> {
                    final Runnable next = pending.getAndSet(null);
                    if (next != null) {
                        next.run();
                    }
                });
            }
        }

        /** Writes a checkpoint on the caller's thread (at a stop, after {@link #finish} returned true). */
        public void writeNow(final long commandsIndex, final long eventsIndex, final byte[] body, final String what) {
            write(commandsIndex, eventsIndex, body, what);
        }

        private void write(final long commandsIndex, final long eventsIndex, final byte[] body, final String what) {
            final long start = System.nanoTime();
            try {
                ReaderCheckpoint.write(file, header(kind, owner, commands, commandsIndex, events, eventsIndex, System.currentTimeMillis()),
                    body);
                log.accept(String.format(java.util.Locale.ROOT, "%s written (%d bytes) in %.1f ms", what, body.length,
                    (System.nanoTime() - start) / 1e6));
            } catch (final IOException | RuntimeException e) {
                log.accept("warning: cannot write " + file + " (" + e + "): the previous checkpoint stays, a restart reads more");
            }
        }

        /**
         * Waits for the checkpoint being written; false when it did not finish within a minute, and then no other may be
         * written (both would use the same file beside it).
         */
        public boolean finish() {
            thread.shutdown();
            try {
                if (thread.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES)) {
                    return true;
                }
                log.accept("warning: " + file + " was still being written after a minute: not waited for, and no other written");
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }

        @Override
        public void close() {
            finish();
        }
    }

    private static String describe(final int kind, final int owner) {
        return kind == GATEWAY ? "gateway " + owner : kind == PUBLISHER ? "the market-data publisher" : "an unknown reader (" + kind + ")";
    }

    private static int crc(final byte[] bytes, final int length) {
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
