package io.chronex.engine.process;

import io.chronex.queues.DataDirectory;
import io.chronex.replay.audit.Audit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A --from/--to window (which bin/audit reaches by binary search over the events' index, not by a read
 * from the start) selects exactly the records a full read filtered by receipt time selects, on a
 * journal of 30 s of receipt times with a malformed excerpt in the middle.
 */
class AuditWindowTest {
    private static final int COMMANDS = 3_000;
    private static final long SPACING = 10_000_000L;

    @TempDir
    Path tmp;

    private static List<String> export(final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            assertEquals(0, Audit.exitCode(argv, out));
        }
        final List<String> lines = Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n"));
        return lines.subList(1, lines.size() - 1); // the records: no header, no RESULT line
    }

    @Test
    void aWindowSelectsWhatAFullReadFilteredByTimeSelects() throws Exception {
        final Path dir = tmp.resolve("data");
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), COMMANDS, 9, SPACING));
        final List<String> all = export("export", "--data-dir", dir.toString(), "--format", "csv");
        for (final int[] window : new int[][] {{1, 40}, {700, 1_700}, {1_490, 1_510}, {2_950, 4_000}, {5_000, 6_000}}) {
            final Instant from = Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS + window[0] * SPACING);
            final Instant to = Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS + window[1] * SPACING);
            // utc_time is the third column, ISO-8601 at microseconds: its text order is its time order.
            final List<String> expected = all.stream().filter(l -> {
                final Instant t = Instant.parse(l.split(",")[2]);
                return !t.isBefore(from) && t.isBefore(to);
            }).collect(Collectors.toList());
            final List<String> windowed = export("export", "--data-dir", dir.toString(), "--format", "csv", "--from", from.toString(),
                "--to", to.toString());
            int same = 0;
            while (same < Math.min(expected.size(), windowed.size()) && expected.get(same).equals(windowed.get(same))) {
                same++;
            }
            assertEquals(expected.size() + " records, from " + (expected.isEmpty() ? "-" : expected.get(0)),
                windowed.size() + " records, from " + (windowed.isEmpty() ? "-" : windowed.get(0)), "window " + Arrays.toString(window)
                + ": first difference at record " + same);
            assertEquals(expected, windowed);
            assertTrue(window[0] >= COMMANDS || !windowed.isEmpty(), "window " + Arrays.toString(window));
        }
    }
}
