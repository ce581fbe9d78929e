package io.chronex.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process of a role (engine, a gateway) is running, from the pid file RunFiles writes:
 * read, never locked. The role's OS file lock ({@code NAME.lock}) would be the stronger proof, but
 * trying it would take a lock the engine or gateway waits on at start, which a reader must never do;
 * a pid file of a process that died (kill -9 leaves it behind) names a pid that is gone, and a clean
 * stop removes it. A pid reused by an unrelated process after a crash would read as alive: said here.
 */
public record ProcessStatus(State state, long pid, String via) {
    /** What the pid file says. */
    public enum State {
        /** No pid file: never started here, or stopped cleanly. */
        NOT_RUNNING,
        /** The pid file names a live process. */
        ALIVE,
        /** The pid file names a process that is gone: it died without stopping (kill -9, a crash). */
        GONE
    }

    /** A process's status as its own pid file says (not answering for another). */
    public ProcessStatus(final State state, final long pid) {
        this(state, pid, null);
    }

    /**
     * Who answers a data directory's journal: its engine (DIR/engine.pid, bin/engine or a cluster member), or on a gateway
     * host in cluster mode the cluster, through the host's bridge (DIR/bridge.pid), whose status is then shown as the engine's.
     */
    public static ProcessStatus engineOf(final Path dir) {
        final ProcessStatus engine = of(dir.resolve("engine.pid"));
        if (engine.state != State.NOT_RUNNING || !Files.exists(dir.resolve("bridge.pid"))) {
            return engine;
        }
        final ProcessStatus bridge = of(dir.resolve("bridge.pid"));
        return new ProcessStatus(bridge.state, bridge.pid, "the cluster through the host's bridge");
    }

    /** The status of the process whose pid file is {@code pidFile}. */
    public static ProcessStatus of(final Path pidFile) {
        final String text;
        try {
            text = Files.readString(pidFile).trim();
        } catch (final IOException e) {
            return new ProcessStatus(State.NOT_RUNNING, 0);
        }
        final long pid;
        try {
            pid = Long.parseLong(text);
        } catch (final NumberFormatException e) {
            // Being written (RunFiles writes it whole, but a reader may catch an empty file): not known to run.
            return new ProcessStatus(State.NOT_RUNNING, 0);
        }
        final boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return new ProcessStatus(alive ? State.ALIVE : State.GONE, pid);
    }

    public boolean alive() {
        return state == State.ALIVE;
    }

    /** "alive (pid N)", "GONE (pid N)" or "not running"; after what answers for the process, if another does. */
    public String describe() {
        return via == null ? own() : via + ", " + own();
    }

    private String own() {
        return switch (state) {
            case ALIVE -> "alive (pid " + pid + ")";
            case GONE -> "GONE (pid " + pid + " in its pid file is not running)";
            case NOT_RUNNING -> "not running (no pid file)";
        };
    }
}
