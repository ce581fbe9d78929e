package io.chronex.runtime;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The levels a writer steps down through as the disk fills, when the filesystem is read, and sizes on the command line. */
class StorageGuardTest {
    private static final long MIB = 1L << 20;

    /** A filesystem whose free space the test sets, counting how often it is asked. */
    private static final class Disk implements StorageGuard.FreeSpace {
        long free;
        int readings;
        boolean broken;

        @Override
        public long usableBytes() throws IOException {
            readings++;
            if (broken) {
                throw new IOException("statfs failed");
            }
            return free;
        }
    }

    @Test
    void levelsFollowTheReserve() {
        final Disk disk = new Disk();
        disk.free = 1000 * MIB;
        final StorageGuard guard = new StorageGuard(Path.of("/data"), 100 * MIB, disk);
        long now = System.nanoTime();
        assertEquals(StorageGuard.Level.OK, guard.level(now += 60_000_000L));
        disk.free = 99 * MIB;
        assertEquals(StorageGuard.Level.LOW, guard.level(now += 60_000_000L));
        disk.free = 49 * MIB;
        assertEquals(StorageGuard.Level.CRITICAL, guard.level(now += 60_000_000L));
        disk.free = 24 * MIB;
        assertEquals(StorageGuard.Level.EXHAUSTED, guard.level(now += 60_000_000L));
        disk.free = 500 * MIB;
        assertEquals(StorageGuard.Level.OK, guard.level(now += 60_000_000L), "space freed: back by itself");
        disk.broken = true;
        assertEquals(StorageGuard.Level.EXHAUSTED, guard.level(now += 60_000_000L), "a filesystem that cannot say is taken as full");
        assertTrue(guard.describe().contains("/data") && guard.describe().contains("the reserve 100.0 MiB"), guard.describe());
    }

    @Test
    void theFilesystemIsReadAgainWhenAnEighthOfTheRoomIsWrittenOrTimeHasPassed() {
        final Disk disk = new Disk();
        disk.free = 180 * MIB; // 80 MiB above the reserve: re-read after 10 MiB written
        final StorageGuard guard = new StorageGuard(Path.of("/data"), 100 * MIB, disk);
        final long start = System.nanoTime();
        final int atStart = disk.readings;
        for (int i = 0; i < 9; i++) {
            guard.wrote(MIB);
            guard.level(start);
        }
        assertEquals(atStart, disk.readings, "9 MiB written within the budget, no time passed: not read again");
        guard.wrote(MIB);
        disk.free = 95 * MIB; // another process filled the disk meanwhile
        assertEquals(StorageGuard.Level.LOW, guard.level(start));
        assertEquals(atStart + 1, disk.readings);
        assertEquals(StorageGuard.Level.LOW, guard.level(start + 10_000_000L));
        assertEquals(atStart + 1, disk.readings, "within 50 ms and the budget: the last reading stands");
        disk.free = 10 * MIB;
        assertEquals(StorageGuard.Level.EXHAUSTED, guard.level(start + 60_000_000L), "50 ms on: read again");
    }

    @Test
    void sizesOnTheCommandLine() {
        assertEquals(256 * MIB, StorageGuard.parseSize("256MiB"));
        assertEquals(256 * MIB, StorageGuard.parseSize("256m"));
        assertEquals(2L << 30, StorageGuard.parseSize("2GiB"));
        assertEquals(4096, StorageGuard.parseSize("4096"));
        assertEquals(8 * 1024, StorageGuard.parseSize("8k"));
        for (final String bad : new String[] {"", "MiB", "-1m", "12 parsecs", "99999999999999999999g", "1.5g"}) {
            assertThrows(Args.UsageException.class, () -> StorageGuard.parseSize(bad), bad);
        }
    }
}
