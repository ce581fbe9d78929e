package io.chronex.monitor;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The filesystem under a data directory as the monitor shows it: free space, how fast it is being used,
 * and how long until the writers reach their reserve (where gateways start refusing orders) at that rate.
 * Read once an interval; the rate is over the last interval.
 */
final class Storage {
    /** Alert when the reserve would be reached sooner than this at the current rate. */
    static final long ALERT_SECONDS_TO_RESERVE = 600;

    /**
     * One reading. {@code bytesPerSecond} is how fast free space went down over the last interval (0 or less: not
     * filling); {@code secondsToReserve} is -1 when it is not filling or already below the reserve.
     */
    record Reading(long totalBytes, long usableBytes, long reserveBytes, double bytesPerSecond, double secondsToReserve,
                   String problem) {
        /** Below the reserve: gateways refuse new orders. */
        boolean low() {
            return problem == null && usableBytes < reserveBytes;
        }

        /** Filling fast enough to reach the reserve within {@link #ALERT_SECONDS_TO_RESERVE}. */
        boolean fillingSoon() {
            return secondsToReserve >= 0 && secondsToReserve < ALERT_SECONDS_TO_RESERVE;
        }

        /** "12.3 GiB free of 252.0 GiB (reserve 256 MiB), filling 1.2 MiB/s: reserve reached in 2 h 50 min". */
        String describe() {
            if (problem != null) {
                return "? (" + problem + ")";
            }
            final String free = size(usableBytes) + " free of " + size(totalBytes) + " (reserve " + size(reserveBytes) + ")";
            if (low()) {
                return free + ": BELOW THE RESERVE, gateways refuse new orders";
            }
            if (bytesPerSecond <= 0 || secondsToReserve < 0) {
                return free;
            }
            return free + ", filling " + size((long) bytesPerSecond) + "/s: reserve reached in " + duration(secondsToReserve);
        }
    }

    private final Path dir;
    private final long reserve;
    private long lastUsable = -1;
    private long lastNanos;

    Storage(final Path dir, final long reserve) {
        this.dir = dir;
        this.reserve = reserve;
    }

    Reading read(final long nowNanos) {
        final long total;
        final long usable;
        try {
            final FileStore store = Files.getFileStore(dir);
            total = store.getTotalSpace();
            usable = store.getUsableSpace();
        } catch (final IOException e) {
            return new Reading(0, 0, reserve, 0, -1, "cannot read the filesystem of " + dir + ": " + e.getMessage());
        }
        double rate = 0;
        if (lastUsable >= 0 && nowNanos > lastNanos) {
            rate = (lastUsable - usable) / ((nowNanos - lastNanos) / 1e9);
        }
        lastUsable = usable;
        lastNanos = nowNanos;
        final double toReserve = rate > 0 && usable > reserve ? (usable - reserve) / rate : -1;
        return new Reading(total, usable, reserve, rate, toReserve, null);
    }

    static String size(final long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }

    static String duration(final double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.0f s", seconds);
        }
        if (seconds < 7200) {
            return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        }
        return String.format(Locale.ROOT, "%d h %d min", (long) (seconds / 3600), (long) (seconds % 3600 / 60));
    }
}
