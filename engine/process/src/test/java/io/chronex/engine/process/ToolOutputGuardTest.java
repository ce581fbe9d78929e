package io.chronex.engine.process;

import io.chronex.queues.DataDirectory;
import io.chronex.replay.LatencyReport;
import io.chronex.replay.audit.Audit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A read tool's output option aimed into a data directory (the journal's own file, a folder of it, a
 * link or a {@code ..} path into it) exits 2 with a message naming the data directory, and leaves every
 * file of the directory byte for byte as it was; the same option aimed outside writes as asked.
 */
class ToolOutputGuardTest {
    @TempDir
    Path tmp;

    /** Every file under dir (links not followed) with a digest of its bytes. */
    private static Map<String, String> contents(final Path dir) throws Exception {
        final Map<String, String> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path file : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(file)) {
                    all.put(dir.relativize(file).toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
                }
            }
        }
        return all;
    }

    private interface Tool {
        int run(String[] argv, PrintStream out);
    }

    private static String run(final Tool tool, final int expectedExit, final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream err = System.err;
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
             PrintStream errOut = new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
            System.setErr(errOut);
            assertEquals(expectedExit, tool.run(argv, out), String.join(" ", argv) + "\n" + bytes + errBytes);
        } finally {
            System.setErr(err);
        }
        return bytes.toString(StandardCharsets.UTF_8) + errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void outputsAimedIntoADataDirectoryAreRefusedAndChangeNothing() throws Exception {
        final Path dir = tmp.resolve("data");
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), 2_000, 5));
        final Path journalFile;
        try (Stream<Path> files = Files.list(dir.resolve("commands"))) {
            journalFile = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        Files.createDirectories(tmp.resolve("reports"));
        final Path link = Files.createSymbolicLink(tmp.resolve("reports/journal.csv"), journalFile);
        final Map<String, String> before = contents(dir);
        final String data = dir.toString();
        for (final String target : new String[] {journalFile.toString(), dir.resolve("events/out.csv").toString(), link.toString(),
            tmp.resolve("reports/../data/export.csv").toString(), dir.resolve("snapshots").toString()}) {
            final String said = run(Audit::exitCode, 2, "export", "--data-dir", data, "--format", "csv", "--out", target);
            assertTrue(said.contains("is inside the data directory " + dir.toRealPath()), said);
            final String plot = run(LatencyReport::exitCode, 2, "--data-dir", data, "--plot", target);
            assertTrue(plot.contains("--plot " + target), plot);
            final String hlog = run(LatencyReport::exitCode, 2, "--data-dir", data, "--hlog", target);
            assertTrue(hlog.contains("--hlog " + target), hlog);
        }
        assertEquals(before, contents(dir));
        // The journal still reads whole: an export of every record, written where it was asked to be.
        final Path csv = tmp.resolve("reports/export.csv");
        final String said = run(Audit::exitCode, 0, "export", "--data-dir", data, "--format", "csv", "--out", csv.toString());
        assertTrue(said.contains("RESULT records="), said);
        assertTrue(Files.readAllLines(csv).size() > 2_000, "records exported");
        assertEquals(before, contents(dir));
    }
}
