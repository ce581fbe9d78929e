package io.chronex.monitor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Who answers a data directory's journal: its engine, or on a gateway host in cluster mode the bridge, named as such. */
class ProcessStatusTest {
    @TempDir
    Path dir;

    /** A pid no process has: beyond the kernel's pid_max, which is at most 2^22. */
    private static final long DEAD_PID = 9_999_999;

    @Test
    void theEnginesOwnPidFileWins() throws IOException {
        Files.writeString(dir.resolve("engine.pid"), ProcessHandle.current().pid() + "\n");
        Files.writeString(dir.resolve("bridge.pid"), DEAD_PID + "\n");
        final ProcessStatus status = ProcessStatus.engineOf(dir);
        assertEquals(ProcessStatus.State.ALIVE, status.state());
        assertNull(status.via());
        assertEquals("alive (pid " + ProcessHandle.current().pid() + ")", status.describe());
    }

    @Test
    void onAGatewayHostInClusterModeTheBridgeAnswersForTheEngine() throws IOException {
        assertEquals("not running (no pid file)", ProcessStatus.engineOf(dir).describe());
        Files.writeString(dir.resolve("bridge.pid"), ProcessHandle.current().pid() + "\n");
        assertEquals("the cluster through the host's bridge, alive (pid " + ProcessHandle.current().pid() + ")",
            ProcessStatus.engineOf(dir).describe());
        Files.writeString(dir.resolve("bridge.pid"), DEAD_PID + "\n");
        final ProcessStatus gone = ProcessStatus.engineOf(dir);
        assertEquals(ProcessStatus.State.GONE, gone.state());
        assertEquals("the cluster through the host's bridge, GONE (pid " + DEAD_PID + " in its pid file is not running)", gone.describe());
    }
}
