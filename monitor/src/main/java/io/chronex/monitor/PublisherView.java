package io.chronex.monitor;

import io.chronex.queues.MarketDataStatusFile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The market-data publisher as the monitor shows it, from its status file ({@code DATA/marketdata/status}) and pid file
 * ({@code DATA/marketdata/marketdata.pid}), both read, never written. {@code status} is null when there is no status file
 * (no publisher ever ran on this data directory); {@code incrementalsPerSecond} is NaN until two heartbeats of one
 * publisher run were seen (and always with --once).
 */
public record PublisherView(State state, MarketDataStatusFile.Snapshot status, long heartbeatAgeMillis, double incrementalsPerSecond) {
    /** A heartbeat older than this, of a process that is still there, is a publisher that stopped working. */
    static final long STUCK_AFTER_MILLIS = 5_000;

    /** What the files say about the publisher. */
    public enum State {
        /** Its pid is a live process and its heartbeat is recent. */
        ALIVE,
        /** Its pid is a live process but the heartbeat has not moved for {@link #STUCK_AFTER_MILLIS}. */
        STUCK,
        /** Its pid file names a process that is gone: it died without stopping (kill -9, a crash). */
        GONE,
        /** No pid file and no live process: stopped cleanly (the status file stays, as the publisher left it). */
        NOT_RUNNING,
        /** The status file is there but cannot be read (its problem says why). */
        UNREADABLE
    }

    /**
     * The view from the files now. The pid file says whether the publisher was stopped cleanly (it is removed then) or
     * died; without one (a publisher run in-process, by a test or a tool), the status file's pid is looked at.
     */
    static PublisherView of(final Path dataDir, final MarketDataStatusFile.Snapshot status, final long nowEpochMillis,
                            final double incrementalsPerSecond) {
        if (status == null) {
            return null;
        }
        if (status.problem() != null) {
            return new PublisherView(State.UNREADABLE, status, 0, Double.NaN);
        }
        final long age = status.heartbeatAgeMillis(nowEpochMillis);
        final Path pidFile = dataDir.resolve("marketdata").resolve("marketdata.pid");
        final ProcessStatus process = ProcessStatus.of(pidFile);
        final boolean running = process.alive() || !Files.exists(pidFile) && ProcessHandle.of(status.pid()).map(ProcessHandle::isAlive)
            .orElse(false);
        final State state;
        if (running) {
            state = age > STUCK_AFTER_MILLIS ? State.STUCK : State.ALIVE;
        } else {
            state = process.state() == ProcessStatus.State.GONE ? State.GONE : State.NOT_RUNNING;
        }
        return new PublisherView(state, status, age, state == State.ALIVE ? incrementalsPerSecond : Double.NaN);
    }

    /** "alive (pid N, heartbeat 0.4 s ago)", "GONE (...)": the block's and the page's words. */
    public String describe() {
        final String heartbeat = String.format(Locale.ROOT, "heartbeat %.1f s ago", heartbeatAgeMillis / 1e3);
        return switch (state) {
            case ALIVE -> "alive (pid " + status.pid() + ", " + heartbeat + ")";
            case STUCK -> "STUCK (pid " + status.pid() + " runs, " + heartbeat + ")";
            case GONE -> "GONE (pid " + status.pid() + " in its pid file is not running; last " + heartbeat + ")";
            case NOT_RUNNING -> "not running (stopped; last " + heartbeat + ")";
            case UNREADABLE -> "? (" + status.problem() + ")";
        };
    }

    /** "1,234.5 incrementals/s", or "? incrementals/s" when no rate is known. */
    public String rate() {
        return Double.isNaN(incrementalsPerSecond) ? "? incrementals/s" : String.format(Locale.ROOT, "%.1f incrementals/s",
            incrementalsPerSecond);
    }

    /**
     * The monitor's reader of the status file: keeps the last heartbeat of the publisher run it read, for the rate of
     * incrementals between two heartbeats (the publisher writes the count and the heartbeat together, about once a second,
     * so counting over its heartbeats, not the monitor's interval, gives no zero for an interval that saw no update).
     */
    static final class Reader {
        private final Path dataDir;
        private long lastStarted;
        private long lastPid;
        private long lastHeartbeat;
        private long lastIncrementals;
        private double rate = Double.NaN;

        Reader(final Path dataDir) {
            this.dataDir = dataDir;
        }

        /** The publisher now; null when there is no status file. */
        PublisherView read(final long nowEpochMillis) {
            final MarketDataStatusFile.Snapshot s = MarketDataStatusFile.read(dataDir.resolve("marketdata").resolve("status"));
            if (s != null && s.problem() == null) {
                final boolean sameRun = s.pid() == lastPid && s.startedEpochMillis() == lastStarted;
                if (!sameRun) {
                    rate = Double.NaN;
                } else if (s.heartbeatEpochMillis() > lastHeartbeat) {
                    rate = (s.incrementals() - lastIncrementals) * 1e3 / (s.heartbeatEpochMillis() - lastHeartbeat);
                }
                if (!sameRun || s.heartbeatEpochMillis() > lastHeartbeat) {
                    lastPid = s.pid();
                    lastStarted = s.startedEpochMillis();
                    lastHeartbeat = s.heartbeatEpochMillis();
                    lastIncrementals = s.incrementals();
                }
            }
            return of(dataDir, s, nowEpochMillis, rate);
        }
    }
}
