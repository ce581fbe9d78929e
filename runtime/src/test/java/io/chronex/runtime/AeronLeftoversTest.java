package io.chronex.runtime;

import io.aeron.CncFileDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A driver directory is cleared only when its cnc file names a process that is gone; mark files are moved aside, not lost. */
class AeronLeftoversTest {
    @TempDir
    Path tmp;

    @Test
    void aDriverDirectoryIsClearedOnlyWhenItsProcessIsGone() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final Path dead = driverDir("dead", CncFileDescriptor.CNC_VERSION, gone.pid());
        final Path live = driverDir("live", CncFileDescriptor.CNC_VERSION, ProcessHandle.current().pid());
        final Path otherVersion = driverDir("other", CncFileDescriptor.CNC_VERSION + 1, gone.pid());
        final Path noCnc = Files.createDirectories(tmp.resolve("empty"));

        assertTrue(AeronLeftovers.clearDeadDriverDirectory(dead));
        assertFalse(Files.exists(dead));
        assertFalse(AeronLeftovers.clearDeadDriverDirectory(live));
        assertTrue(Files.exists(live.resolve(CncFileDescriptor.CNC_FILE)));
        assertFalse(AeronLeftovers.clearDeadDriverDirectory(otherVersion));
        assertTrue(Files.exists(otherVersion.resolve(CncFileDescriptor.CNC_FILE)));
        assertFalse(AeronLeftovers.clearDeadDriverDirectory(noCnc));
        assertFalse(AeronLeftovers.clearDeadDriverDirectory(tmp.resolve("missing")));
    }

    @Test
    void markFilesAreMovedAsideKeepingTheLastOne() throws Exception {
        final Path mark = Files.writeString(tmp.resolve("cluster-mark.dat"), "first");
        assertEquals(1, AeronLeftovers.setAsideMarkFiles(mark, tmp.resolve("archive-mark.dat")));
        Files.writeString(mark, "second");
        assertEquals(1, AeronLeftovers.setAsideMarkFiles(mark));
        assertFalse(Files.exists(mark));
        assertEquals("second", Files.readString(tmp.resolve("cluster-mark.dat" + AeronLeftovers.SET_ASIDE_SUFFIX)));
    }

    private Path driverDir(final String name, final int version, final long pid) throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve(name));
        final UnsafeBuffer cnc = new UnsafeBuffer(new byte[CncFileDescriptor.END_OF_METADATA_OFFSET]);
        cnc.putInt(CncFileDescriptor.cncVersionOffset(0), version);
        cnc.putLong(CncFileDescriptor.PID_FIELD_OFFSET, pid);
        Files.write(dir.resolve(CncFileDescriptor.CNC_FILE), cnc.byteArray());
        return dir;
    }
}
