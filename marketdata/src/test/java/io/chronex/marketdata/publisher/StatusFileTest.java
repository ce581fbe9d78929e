package io.chronex.marketdata.publisher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The resume point a publisher leaves survives a successor that dies before sending anything. */
class StatusFileTest {
    @TempDir
    Path dir;

    @Test
    void aSuccessorKilledBeforeItsFirstSendLeavesThePredecessorsResumePoint() {
        final Path file = dir.resolve("marketdata").resolve("status");
        try (StatusFile first = new StatusFile(file)) {
            first.lastSent(0x51_0000_0042L);
        }
        // A second publisher starts (and is killed during its rebuild, before sending): the third still finds the point.
        try (StatusFile second = new StatusFile(file)) {
            assertEquals(0x51_0000_0042L, second.previousLastSentIndex());
        }
        try (StatusFile third = new StatusFile(file)) {
            assertEquals(0x51_0000_0042L, third.previousLastSentIndex());
            third.lastSent(0x51_0000_0050L);
        }
        try (StatusFile fourth = new StatusFile(file)) {
            assertEquals(0x51_0000_0050L, fourth.previousLastSentIndex());
        }
    }
}
