package io.chronex.queues;

import io.chronex.api.AssetSpec;
import io.chronex.api.MoneyTotals;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The engine's money totals for the monitor: {@code DATA/ledger}, per asset what was deposited, withdrawn and adjusted, what
 * open orders hold and the fees collected, as the engine's ledger has them after a given command (docs/monitor.md, "Money").
 * The engine rewrites it in place about twice a second; the held total cannot be rebuilt from the events (a bid's hold
 * depends on its reserve price and fee), which is why the engine publishes it. A header of little-endian longs, then one
 * {@value #RECORD}-byte record per asset. The engine writes under a sequence number (odd while writing) and a reader
 * retries until it reads the same even number before and after, so it never sees half an update. A new writer builds its
 * file beside the old one and renames it into place: a file a reader has mapped is never truncated under it (a read of a
 * mapping past the end of its file is a SIGBUS, which would take the reader down).
 */
public final class LedgerStatusFile {
    /** "CXLEDGER" as a little-endian long. */
    public static final long MAGIC = 0x5245_4744_454C_5843L;
    public static final int VERSION = 1;
    static final int MAGIC_AT = 0;
    static final int VERSION_AT = 8;
    static final int SEQ_AT = 16;
    static final int PID_AT = 24;
    static final int WRITTEN_EPOCH_MILLIS_AT = 32;
    static final int COMMANDS_AT = 40;
    static final int LAST_JOURNAL_INDEX_AT = 48;
    static final int ASSET_COUNT_AT = 56;
    static final int HEADER = 64;
    /** Per asset: id, decimals, code (up to {@value #CODE_BYTES} bytes of UTF-8), then the five totals. */
    static final int RECORD = 96;
    static final int ID = 0;
    static final int DECIMALS = 8;
    static final int CODE = 16;
    static final int CODE_BYTES = 32;
    static final int DEPOSITED = 48;
    static final int WITHDRAWN = 56;
    static final int ADJUSTED = 64;
    static final int FEES = 72;
    static final int HELD = 80;
    /** More assets than this in a file is a damaged file, not a configuration. */
    static final int MAX_ASSETS = 1 << 16;
    /** How long a reader waits for an update in progress to end: far longer than one takes, unless the writer was stopped. */
    private static final long READ_PATIENCE_NANOS = 20_000_000L;

    /** One asset's totals, in its smallest units. */
    public record Asset(int id, String code, int decimals, long deposited, long withdrawn, long adjusted, long fees, long held) {
        /** What the accounts can spend: everything that came in, less what is held and what went to fees. */
        public long available() {
            return deposited - withdrawn + adjusted - held - fees;
        }

        /** The amount with the asset's decimals ("12.50"). */
        public String format(final long amount) {
            return new AssetSpec(id, code, decimals).format(amount);
        }
    }

    /**
     * The file as read: {@code problem} is null when it is a whole ledger file of a version this reader knows, else says why
     * nothing else is to be believed. {@code lastJournalIndex} is the last command the totals include (-1: none yet).
     */
    public record Snapshot(long pid, long writtenEpochMillis, long commands, long lastJournalIndex, List<Asset> assets,
                           String problem) {
        static Snapshot bad(final String problem) {
            return new Snapshot(0, 0, 0, -1, List.of(), problem);
        }
    }

    private LedgerStatusFile() {
    }

    /** Where a data directory's ledger file is. */
    public static Path of(final Path dataDir) {
        return dataDir.resolve("ledger");
    }

    /**
     * The engine's writer for a data directory's ledger file, or null when it cannot be made (said to {@code warn}): the
     * monitor's money figures are not worth stopping an engine for.
     */
    public static Writer openOrWarn(final Path dataDir, final List<AssetSpec> assets, final Consumer<String> warn) {
        try {
            return new Writer(of(dataDir), assets);
        } catch (final UncheckedIOException e) {
            warn.accept(e.getMessage() + "; the monitor shows no money totals for this run");
            return null;
        }
    }

    /** Reads the file without writing to it: null when there is none; a snapshot with a problem when it is not one we know. */
    public static Snapshot read(final Path file) {
        final long size;
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            size = channel.size();
            if (size < HEADER) {
                return Snapshot.bad("ledger file of " + size + " bytes, shorter than its header");
            }
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, Math.min(size, HEADER + (long) MAX_ASSETS * RECORD));
        } catch (final NoSuchFileException e) {
            return null;
        } catch (final IOException e) {
            return Snapshot.bad("cannot read " + file.getFileName() + ": " + e.getMessage());
        }
        try {
            return read(new UnsafeBuffer(mapped), mapped.capacity());
        } finally {
            IoUtil.unmap(mapped);
        }
    }

    /** Reads a ledger file's first {@code length} bytes in {@code b}, retrying while the engine is part way through an update. */
    public static Snapshot read(final UnsafeBuffer b, final int length) {
        final long magic = b.getLongVolatile(MAGIC_AT);
        if (magic != MAGIC) {
            return Snapshot.bad(magic == 0 ? "ledger file zeroed" : "not a ledger file (magic 0x" + Long.toHexString(magic) + ")");
        }
        final long version = b.getLong(VERSION_AT);
        if (version != VERSION) {
            return Snapshot.bad("ledger file version " + version + ", this reader knows version " + VERSION);
        }
        final long count = b.getLong(ASSET_COUNT_AT);
        if (count < 0 || count > MAX_ASSETS || HEADER + count * RECORD > length) {
            return Snapshot.bad("ledger file names " + count + " assets but holds " + (length - HEADER) / RECORD);
        }
        final long deadline = System.nanoTime() + READ_PATIENCE_NANOS;
        long before;
        do {
            before = b.getLongVolatile(SEQ_AT);
            if ((before & 1) != 0) {
                Thread.yield(); // the engine is writing, or was descheduled while writing
                continue;
            }
            final List<Asset> assets = new ArrayList<>((int) count);
            String damaged = null;
            for (int i = 0; i < count && damaged == null; i++) {
                damaged = damage(b, HEADER + i * RECORD);
                assets.add(damaged == null ? asset(b, HEADER + i * RECORD) : null);
            }
            final long pid = b.getLong(PID_AT);
            final long written = b.getLong(WRITTEN_EPOCH_MILLIS_AT);
            final long commands = b.getLong(COMMANDS_AT);
            final long last = b.getLong(LAST_JOURNAL_INDEX_AT);
            VarHandle.acquireFence(); // the reads above happen before the second look at the sequence
            if (b.getLongVolatile(SEQ_AT) == before) {
                return damaged != null ? Snapshot.bad("ledger file damaged: " + damaged)
                    : new Snapshot(pid, written, commands, last, List.copyOf(assets), null);
            }
        } while (System.nanoTime() - deadline < 0);
        // An odd number that stays is an engine stopped part way through an update (kill -9, SIGSTOP): the next engine rewrites it.
        return Snapshot.bad((before & 1) != 0 ? "ledger file stuck part way through an update (its engine stopped while writing it?)"
            : "ledger file changing on every read");
    }

    /** Why an asset record cannot be an asset the engine wrote, or null when it can. */
    private static String damage(final UnsafeBuffer b, final int at) {
        final long id = b.getLong(at + ID);
        final long decimals = b.getLong(at + DECIMALS);
        if (id <= 0 || id > Integer.MAX_VALUE) {
            return "an asset record with id " + id;
        }
        if (decimals < 0 || decimals > AssetSpec.MAX_DECIMALS) {
            return "asset " + id + " with " + decimals + " decimals";
        }
        if (b.getByte(at + CODE) == 0) {
            return "asset " + id + " without a code";
        }
        return null;
    }

    private static Asset asset(final UnsafeBuffer b, final int at) {
        final byte[] code = new byte[CODE_BYTES];
        b.getBytes(at + CODE, code);
        int length = 0;
        while (length < CODE_BYTES && code[length] != 0) {
            length++;
        }
        return new Asset((int) b.getLong(at + ID), new String(code, 0, length, StandardCharsets.UTF_8), (int) b.getLong(at + DECIMALS),
            b.getLong(at + DEPOSITED), b.getLong(at + WITHDRAWN), b.getLong(at + ADJUSTED), b.getLong(at + FEES), b.getLong(at + HELD));
    }

    /**
     * The engine's end: maps the file sized for its assets (creating or replacing it) and rewrites the totals in place on
     * each {@link #begin} ... {@link #end}. One thread writes; nothing allocates after construction.
     */
    public static final class Writer implements AutoCloseable {
        private final MappedByteBuffer mapped;
        private final UnsafeBuffer buffer;
        private final int[] assetIds;
        private long seq;
        private boolean closed;

        /**
         * Creates the file for these assets (in ledger index order), stamped with this process's id: built beside the old one
         * ({@code ledger.new}) and renamed over it, so a reader sees the old file or the whole new one, never a truncated one.
         */
        public Writer(final Path file, final List<AssetSpec> assets) {
            final int length = HEADER + assets.size() * RECORD;
            final Path beside = file.resolveSibling(file.getFileName() + ".new");
            try (FileChannel channel = FileChannel.open(beside, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // Zeros written through the channel, not left sparse: the disk blocks exist now, so a full disk fails here with
                // an exception instead of later as a SIGBUS on a store into the mapping.
                final ByteBuffer zeros = ByteBuffer.allocate(length);
                while (zeros.hasRemaining()) {
                    channel.write(zeros, zeros.position());
                }
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot write " + beside + ": " + e.getMessage(), e);
            }
            buffer = new UnsafeBuffer(mapped);
            assetIds = assets.stream().mapToInt(AssetSpec::id).toArray();
            buffer.putLong(VERSION_AT, VERSION);
            buffer.putLong(PID_AT, ProcessHandle.current().pid());
            buffer.putLong(LAST_JOURNAL_INDEX_AT, -1);
            buffer.putLong(ASSET_COUNT_AT, assets.size());
            for (int i = 0; i < assets.size(); i++) {
                final int at = HEADER + i * RECORD;
                final AssetSpec asset = assets.get(i);
                buffer.putLong(at + ID, asset.id());
                buffer.putLong(at + DECIMALS, asset.decimals());
                final byte[] code = asset.code().getBytes(StandardCharsets.UTF_8);
                buffer.putBytes(at + CODE, code, 0, Math.min(code.length, CODE_BYTES));
            }
            buffer.putLongVolatile(MAGIC_AT, MAGIC);
            try {
                Files.move(beside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (final IOException e) {
                IoUtil.unmap(mapped);
                throw new UncheckedIOException("cannot rename " + beside + " to " + file.getFileName() + ": " + e.getMessage(), e);
            }
        }

        /**
         * One whole update from the engine's totals, after {@code commands} commands, the last at {@code lastJournalIndex}
         * (-1: not known here). A few stores per asset; no allocation.
         */
        public void publish(final MoneyTotals totals, final long commands, final long lastJournalIndex, final long epochMillis) {
            if (closed) {
                return; // the mapping is gone: a store into it would crash the process
            }
            begin();
            for (int i = 0; i < assetIds.length; i++) {
                final int id = assetIds[i];
                asset(i, totals.deposited(id), totals.withdrawn(id), totals.adjusted(id), totals.feesCollected(id), totals.heldTotal(id));
            }
            end(commands, lastJournalIndex, epochMillis);
        }

        /** Starts an update: a reader waits or retries until {@link #end}. */
        public void begin() {
            seq++;
            buffer.putLongOrdered(SEQ_AT, seq); // odd
            VarHandle.storeStoreFence(); // the field stores below become visible after the odd number, never before it
        }

        /** One asset's totals, by its index in the list the file was created with. */
        public void asset(final int index, final long deposited, final long withdrawn, final long adjusted, final long fees,
                          final long held) {
            final int at = HEADER + index * RECORD;
            buffer.putLong(at + DEPOSITED, deposited);
            buffer.putLong(at + WITHDRAWN, withdrawn);
            buffer.putLong(at + ADJUSTED, adjusted);
            buffer.putLong(at + FEES, fees);
            buffer.putLong(at + HELD, held);
        }

        /** Ends an update: the totals are those after {@code commands} commands, the last at {@code lastJournalIndex}. */
        public void end(final long commands, final long lastJournalIndex, final long epochMillis) {
            buffer.putLong(COMMANDS_AT, commands);
            buffer.putLong(LAST_JOURNAL_INDEX_AT, lastJournalIndex);
            buffer.putLong(WRITTEN_EPOCH_MILLIS_AT, epochMillis);
            seq++;
            buffer.putLongOrdered(SEQ_AT, seq); // even; the writes above are visible before it
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                IoUtil.unmap(mapped);
            }
        }
    }
}
