package io.chronex.queues;

import io.chronex.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Processes started together on a fresh data directory (an engine and gateways from one script) all
 * open it: none reads a half-written marker or takes another's queue folders for a foreign directory.
 */
class DataDirectoryConcurrencyTest {
    private static final int THREADS = 16;
    private static final int PROCESSES = 6;

    @TempDir
    Path tmp;

    @Test
    void threadsOpeningAFreshDirectoryAtOnceAllSucceed() throws Exception {
        for (int round = 0; round < 20; round++) {
            final Path dir = tmp.resolve("threads-" + round);
            final CyclicBarrier start = new CyclicBarrier(THREADS);
            final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                final List<Future<Path>> opened = new ArrayList<>();
                for (int i = 0; i < THREADS; i++) {
                    opened.add(pool.submit(() -> {
                        start.await();
                        return DataDirectory.open(dir).root();
                    }));
                }
                for (final Future<Path> f : opened) {
                    assertEquals(dir.toAbsolutePath().normalize(), f.get(60, TimeUnit.SECONDS), "round " + round);
                }
            } finally {
                pool.shutdownNow();
            }
            assertMarkerWhole(dir);
        }
    }

    @Test
    void processesOpeningAFreshDirectoryAtOnceAllSucceed() throws Exception {
        for (int round = 0; round < 2; round++) {
            final Path dir = tmp.resolve("processes-" + round);
            try (ChildJvm jvms = new ChildJvm()) {
                final List<Process> processes = new ArrayList<>();
                for (int i = 0; i < PROCESSES; i++) {
                    processes.add(jvms.start(OpenDataDirectoryMain.class.getName(), List.of(dir.toString()),
                        tmp.resolve("open-" + round + "-" + i + ".log")));
                }
                for (int i = 0; i < PROCESSES; i++) {
                    assertTrue(processes.get(i).waitFor(120, TimeUnit.SECONDS), "process " + i + " did not end");
                    final String out = Files.readString(tmp.resolve("open-" + round + "-" + i + ".log"));
                    assertEquals(0, processes.get(i).exitValue(), "process " + i + ": " + out);
                    assertTrue(out.contains("opened " + dir.toAbsolutePath().normalize()), out);
                }
            }
            assertMarkerWhole(dir);
        }
    }

    private static void assertMarkerWhole(final Path dir) throws Exception {
        final String marker = Files.readString(dir.resolve(DataDirectory.MARKER));
        assertTrue(marker.contains("layout=" + DataDirectory.LAYOUT_VERSION) && marker.contains("rollCycle="), marker);
        try (var entries = Files.list(dir)) {
            assertTrue(entries.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary marker left behind");
        }
    }
}
