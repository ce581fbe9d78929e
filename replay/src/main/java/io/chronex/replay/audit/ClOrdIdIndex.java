package io.chronex.replay.audit;

import io.chronex.queues.DataDirectory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Where the commands that carried a ClOrdID in an account were answered, for bin/audit order --clordid:
 * built by the tool into {@code DIR/audit-index/clordid} and extended on each use from the results added
 * since (the engine never touches it), like {@link OrderIndex}. Each answered command gives an entry for
 * each ClOrdID it carried (its own and, for a replace, the new one; a command journalled without texts,
 * such as bin/inject's, its numeric client order id in decimal), keyed by a 64-bit hash of the account
 * and the ClOrdID: a lookup gives candidate events indexes, which the caller reads to keep those that
 * really carried it (two ClOrdIDs may share a hash).
 *
 * <p>Layout (little-endian): {@code u64 magic | i32 version | i32 0 | i64 events index read through
 * (-1: none) | i64 entry count}, then per entry {@code i64 key | i64 events index}, in journal order.
 */
final class ClOrdIdIndex {
    private static final long MAGIC = 0x5844_4E49_4452_4C43L; // "CLRDINDX" read little-endian
    private static final int VERSION = 1;
    private static final int HEADER = 32;
    static final String FILE = "clordid";

    private final Path file;
    private long readThrough = -1;
    /** The entries the file held when opened, mapped rather than copied: a lookup only scans them. */
    private LongBuffer stored = LongBuffer.allocate(0);
    /** Entries added by this run, after the stored ones. */
    private long[] keys = new long[1024];
    private long[] eventsIndexes = new long[1024];
    private int count;

    private ClOrdIdIndex(final Path file) {
        this.file = file;
    }

    /** The index of the data directory, brought up to date with its journals (used for this run only when it cannot be written). */
    static ClOrdIdIndex updated(final DataDirectory data, final PrintStream out) {
        final Path dir = data.root().resolve("audit-index");
        final ClOrdIdIndex index = new ClOrdIdIndex(dir.resolve(FILE));
        index.load(out);
        final long before = index.readThrough;
        if (!index.extend(data)) {
            out.println("note: rebuilding the ClOrdID index " + index.file + ": its last entry is not in " + data.shownAs() + "'s events");
            index.readThrough = -1;
            index.stored = LongBuffer.allocate(0);
            index.count = 0;
            index.extend(data);
        }
        if (before != index.readThrough) {
            try {
                Files.createDirectories(dir);
                index.save();
            } catch (final IOException e) {
                out.println("note: the ClOrdID index cannot be written in " + dir + " (" + e.getMessage() + "): used for this run only");
            }
        }
        return index;
    }

    /** The events indexes of the results whose commands may have carried {@code clOrdId} in {@code account}, in journal order. */
    long[] candidates(final long account, final String clOrdId) {
        final long key = key(account, clOrdId);
        long[] found = new long[4];
        int n = 0;
        final int storedEntries = stored.limit() / 2;
        for (int i = 0; i < storedEntries + count; i++) {
            final boolean old = i < storedEntries;
            if ((old ? stored.get(2 * i) : keys[i - storedEntries]) == key) {
                if (n == found.length) {
                    found = Arrays.copyOf(found, n * 2);
                }
                found[n++] = old ? stored.get(2 * i + 1) : eventsIndexes[i - storedEntries];
            }
        }
        return Arrays.copyOf(found, n);
    }

    /** FNV-1a over the ClOrdID's UTF-8 bytes, then the account mixed in: stable, since it is stored. */
    static long key(final long account, final String clOrdId) {
        long h = 0xCBF2_9CE4_8422_2325L;
        for (final byte b : clOrdId.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100_0000_01B3L;
        }
        h ^= account * 0x9E37_79B9_7F4A_7C15L;
        return h ^ (h >>> 29);
    }

    /** Reads the results after the last one indexed; false when the walk could not start there (another directory's index). */
    private boolean extend(final DataDirectory data) {
        final long after = readThrough;
        final AnsweredCommands.Counts counts = AnsweredCommands.walk(data, after, Long.MIN_VALUE, Long.MAX_VALUE,
            (journalIndex, eventsIndex, command, text, hops, result) -> {
                if (eventsIndex <= after && after >= 0) {
                    return; // the one read through last time, where the walk starts
                }
                readThrough = eventsIndex;
                if (command == null) {
                    return;
                }
                final String own = text.clientOrderIdText();
                if (!own.isEmpty()) {
                    add(key(command.account, own), eventsIndex);
                } else if (command.clientOrderId != 0) {
                    add(key(command.account, Long.toString(command.clientOrderId)), eventsIndex);
                }
                final String replacing = text.newClientOrderIdText();
                if (!replacing.isEmpty() && !replacing.equals(own)) {
                    add(key(command.account, replacing), eventsIndex);
                }
            }, () -> false);
        return after < 0 || counts.read() > 0;
    }

    private void add(final long key, final long eventsIndex) {
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2);
            eventsIndexes = Arrays.copyOf(eventsIndexes, count * 2);
        }
        keys[count] = key;
        eventsIndexes[count] = eventsIndex;
        count++;
    }

    private void load(final PrintStream out) {
        if (!Files.exists(file)) {
            return;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            final ByteBuffer bytes = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()).order(ByteOrder.LITTLE_ENDIAN);
            if (bytes.remaining() < HEADER || bytes.getLong(0) != MAGIC || bytes.getInt(8) != VERSION) {
                throw new IOException("not a ClOrdID index of this version");
            }
            final long through = bytes.getLong(16);
            final long n = bytes.getLong(24);
            if (n < 0 || n > (Integer.MAX_VALUE - 8) / 2 || bytes.remaining() != HEADER + n * 16) {
                throw new IOException("its length does not match its entry count " + n);
            }
            stored = bytes.position(HEADER).slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
            readThrough = through;
        } catch (final IOException | RuntimeException e) {
            out.println("note: rebuilding the ClOrdID index " + file + ": " + e.getMessage());
            readThrough = -1;
            stored = LongBuffer.allocate(0);
            count = 0;
        }
    }

    private void save() throws IOException {
        IndexFile.replace(file, out -> {
            // MAGIC, then the version as an i32 and a zero i32 in one little-endian i64.
            out.put(MAGIC);
            out.put(VERSION);
            out.put(readThrough);
            out.put(stored.limit() / 2 + (long) count);
            for (int i = 0; i < stored.limit(); i++) {
                out.put(stored.get(i));
            }
            for (int i = 0; i < count; i++) {
                out.put(keys[i]);
                out.put(eventsIndexes[i]);
            }
        });
    }
}
