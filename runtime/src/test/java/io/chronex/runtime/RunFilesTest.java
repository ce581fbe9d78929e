package io.chronex.runtime;

import io.chronex.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One process per role and directory, by an OS file lock: a pid file left behind proves nothing either way. */
class RunFilesTest {
    @TempDir
    Path dir;

    @Test
    void aSecondStartIsRefusedUntilTheFirstStops() throws Exception {
        final RunFiles first = RunFiles.start(dir, "engine");
        assertEquals(Long.toString(ProcessHandle.current().pid()), Files.readString(dir.resolve("engine.pid")).trim());
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> RunFiles.start(dir, "engine"));
        assertTrue(refused.getMessage().startsWith("another engine is running on " + dir), refused.getMessage());
        assertTrue(refused.getMessage().contains("pid " + ProcessHandle.current().pid()), refused.getMessage());
        RunFiles.start(dir, "gateway").stop();
        first.stop();
        assertFalse(Files.exists(dir.resolve("engine.pid")), "a clean stop removes the pid file");
        RunFiles.start(dir, "engine").stop();
    }

    @Test
    void aPidFileNamingALiveProcessDoesNotBlockWhenNothingHoldsTheLock() throws Exception {
        // The pid of this very JVM: alive, yet not an engine on this directory.
        Files.writeString(dir.resolve("engine.pid"), ProcessHandle.current().pid() + "\n");
        RunFiles.start(dir, "engine").stop();
    }

    @Test
    void anotherProcessHoldsTheLockUntilItIsKilled() throws Exception {
        try (ChildJvm jvms = new ChildJvm()) {
            final Path log = dir.resolve("holder.out");
            final Process holder = jvms.start(HoldRunFilesMain.class.getName(), List.of(dir.toString()), log);
            ChildJvm.awaitLine(holder, log, "holding");
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> RunFiles.start(dir, "engine"));
            assertTrue(refused.getMessage().contains("pid " + holder.pid()), refused.getMessage());
            jvms.killAll();
            assertTrue(Files.exists(dir.resolve("engine.pid")), "kill -9 leaves the pid file behind");
            RunFiles.start(dir, "engine").stop();
        }
    }
}
