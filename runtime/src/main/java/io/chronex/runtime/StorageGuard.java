package io.chronex.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much a process may still write to the filesystem under its data directory, judged before it
 * writes. Chronicle's queues are memory-mapped sparse files: a write into a page the filesystem can no
 * longer back is not an I/O error but a SIGBUS, which the JVM turns into an InternalError that kills the
 * process (a gateway died that way in OutboundStore.write on a full disk). So every writer keeps a
 * reserve of free space and steps down before it is reached:
 * <ul>
 * <li>{@link Level#LOW}: free space below the reserve: a gateway refuses new orders; cancels and operator
 *     commands still go through, from the reserve;</li>
 * <li>{@link Level#CRITICAL}: below half the reserve: nothing new is journalled; results and reports of
 *     what is already in the journal are still written;</li>
 * <li>{@link Level#EXHAUSTED}: below a quarter: writers pause before their next write until space returns.</li>
 * </ul>
 * The free space is read from the filesystem ({@code statfs}) at most every {@value #CHECK_EVERY_NANOS}
 * ns and whenever this process has written an eighth of what was left above the last step since the last
 * read, so a fast writer re-reads more often as the disk fills; between reads it counts its own writes
 * down from the last reading. Other processes on the same filesystem are seen at the next read: the
 * quarter of the reserve below the last step is their margin. Not thread-safe: one per writing thread.
 */
public final class StorageGuard {
    /** Where a writer stands; each level includes the ones before it. */
    public enum Level { OK, LOW, CRITICAL, EXHAUSTED }

    /** The reserve when none is configured: a few seconds of a busy exchange's journals, far below any real disk. */
    public static final long DEFAULT_RESERVE = 256L << 20;
    private static final long CHECK_EVERY_NANOS = 50_000_000L;

    /** Reads the free space; a seam for tests, which cannot fill a real disk at will. */
    @FunctionalInterface
    public interface FreeSpace {
        long usableBytes() throws IOException;
    }

    private final Path dir;
    private final FreeSpace freeSpace;
    private final long reserve;
    private long lastReading;
    private long writtenSinceReading;
    private long readingBudget;
    private long nextReadingNanos;
    private Level level = Level.OK;

    /** Guards writes to the filesystem that holds {@code dir}, keeping {@code reserve} bytes free. */
    public static StorageGuard forDirectory(final Path dir, final long reserve) {
        final FileStore store;
        try {
            store = Files.getFileStore(dir);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot find the filesystem of " + dir + ": " + e.getMessage(), e);
        }
        return new StorageGuard(dir, reserve, store::getUsableSpace);
    }

    public StorageGuard(final Path dir, final long reserve, final FreeSpace freeSpace) {
        if (reserve < 0) {
            throw new IllegalArgumentException("a storage reserve cannot be negative: " + reserve);
        }
        this.dir = dir;
        this.reserve = reserve;
        this.freeSpace = freeSpace;
        read(System.nanoTime());
    }

    /** The level now: re-read from the filesystem when due, else from the last reading less what this process wrote since. */
    public Level level(final long nowNanos) {
        if (nowNanos - nextReadingNanos >= 0 || writtenSinceReading >= readingBudget) {
            read(nowNanos);
        }
        return level;
    }

    /** Counts bytes this process has just written (or is about to), so the estimate between readings stays on the safe side. */
    public void wrote(final long bytes) {
        writtenSinceReading += bytes;
    }

    /** Reads the filesystem now, whatever is due (a paused writer asks this before trying again). */
    public Level recheck() {
        read(System.nanoTime());
        return level;
    }

    private void read(final long nowNanos) {
        long usable;
        try {
            usable = freeSpace.usableBytes();
        } catch (final IOException e) {
            usable = 0; // a filesystem that cannot say how full it is is treated as full: pause, do not guess
        }
        lastReading = usable;
        writtenSinceReading = 0;
        nextReadingNanos = nowNanos + CHECK_EVERY_NANOS;
        level = usable >= reserve ? Level.OK : usable >= reserve / 2 ? Level.LOW : usable >= reserve / 4 ? Level.CRITICAL : Level.EXHAUSTED;
        // Re-read once an eighth of the room above the next step down has been written by us.
        final long nextStep = level == Level.OK ? reserve : level == Level.LOW ? reserve / 2 : level == Level.CRITICAL ? reserve / 4 : 0;
        readingBudget = Math.max(4096, (usable - nextStep) / 8);
    }

    /** Free bytes at the last reading. */
    public long lastReading() {
        return lastReading;
    }

    public long reserve() {
        return reserve;
    }

    /** One line for a log or a reject: where, how much is free, the reserve. */
    public String describe() {
        return "free space on the filesystem of " + dir + " is " + mib(lastReading) + " MiB, the reserve " + mib(reserve) + " MiB";
    }

    private static String mib(final long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f", bytes / (double) (1 << 20));
    }

    /** Parses a size such as {@code 256MiB}, {@code 64m}, {@code 1GiB} or a number of bytes; for --storage-reserve. */
    public static long parseSize(final String text) {
        final String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        final int unitAt = firstLetter(t);
        final String digits = t.substring(0, unitAt).trim();
        final String unit = t.substring(unitAt);
        final long multiplier = switch (unit) {
            case "", "b" -> 1L;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> throw new Args.UsageException("'" + text + "' is not a size (use e.g. 256MiB, 1GiB or a number of bytes)");
        };
        try {
            final long value = Long.parseLong(digits);
            if (value < 0 || value > Long.MAX_VALUE / multiplier) {
                throw new NumberFormatException();
            }
            return value * multiplier;
        } catch (final NumberFormatException e) {
            throw new Args.UsageException("'" + text + "' is not a size (use e.g. 256MiB, 1GiB or a number of bytes)");
        }
    }

    private static int firstLetter(final String t) {
        for (int i = 0; i < t.length(); i++) {
            if (Character.isLetter(t.charAt(i))) {
                return i;
            }
        }
        return t.length();
    }
}
