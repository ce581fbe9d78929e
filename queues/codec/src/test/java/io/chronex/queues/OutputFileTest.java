package io.chronex.queues;

import io.chronex.runtime.Args;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every spelling of a place inside a data directory or a queue is refused as an output file; places outside are not. */
class OutputFileTest {
    @TempDir
    Path tmp;

    private void refused(final Path file, final String says) {
        final Args.UsageException e = assertThrows(Args.UsageException.class, () -> OutputFile.checked("--out", file.toString()),
            file.toString());
        assertTrue(e.getMessage().contains(says), e.getMessage());
        assertTrue(e.getMessage().startsWith("--out " + file), e.getMessage());
    }

    @Test
    void placesInsideADataDirectoryAreRefusedHoweverTheyAreSpelt() throws Exception {
        final Path data = tmp.resolve("data");
        try (var commands = DataDirectory.open(data).commands()) {
            commands.acquireAppender().writeText("x"); // a queue file and metadata, as the engine leaves them
        }
        final String inside = "inside the data directory " + data.toRealPath();
        refused(data.resolve("export.csv"), inside);
        refused(data.resolve("gateways/1/new-folder/export.csv"), inside);
        refused(data.resolve("commands/metadata.cq4t"), inside);
        try (var files = Files.list(data.resolve("commands"))) {
            final Path cycle = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
            refused(cycle, inside);
            refused(Path.of(cycle.toString().replace(".cq4", ".CQ4")), inside);
        }
        refused(tmp.resolve("loose.cq4"), "a Chronicle queue file");
        refused(data.resolve("commands/out.csv"), inside);
        refused(tmp.resolve("elsewhere/../data/out.csv"), inside);
        Files.createDirectories(tmp.resolve("elsewhere"));
        refused(tmp.resolve("elsewhere/../data/out.csv"), inside);
        // Links: to the directory, to a file in it, and one that dangles into it (writing through it creates the file there).
        final Path dirLink = Files.createSymbolicLink(tmp.resolve("link-to-data"), data);
        refused(dirLink.resolve("events/out.csv"), inside);
        final Path fileLink = Files.createSymbolicLink(tmp.resolve("report.csv"), data.resolve("chronex-data.properties"));
        refused(fileLink, inside);
        final Path dangling = Files.createSymbolicLink(tmp.resolve("dangling.csv"), data.resolve("snapshots/new.csv"));
        refused(dangling, inside);
        refused(data, inside);
    }

    @Test
    void aBareChronicleQueueIsRefusedToo() throws Exception {
        final Path queue = tmp.resolve("q");
        try (var q = net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder.single(queue.toFile()).build()) {
            q.acquireAppender().writeText("x");
        }
        refused(queue.resolve("out.txt"), "inside the Chronicle queue " + queue.toRealPath());
    }

    @Test
    void placesOutsideAreGivenBackAsTheyWereWritten() throws Exception {
        DataDirectory.open(tmp.resolve("data"));
        for (final String ok : new String[] {tmp.resolve("out.csv").toString(), tmp.resolve("data-reports/out.csv").toString(),
            tmp.resolve("data/../out.csv").toString(), "relative-name.hlog"}) {
            assertEquals(Path.of(ok), OutputFile.checked("--out", ok));
        }
    }
}
