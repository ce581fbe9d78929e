package io.chronex.engine.process;

import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.SnapshotFiles;
import io.chronex.replay.audit.BookAt;
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

import static io.chronex.engine.process.AuditJournals.audit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/audit book on a journal the engine service answered in three runs, each ending with a
 * snapshot: after N commands (before the first snapshot, exactly at one, between two, at the end) the levels
 * equal those of an engine core fed the journal's first N commands directly, and past a snapshot
 * the tool says it started from it; --at TIME finds the last command received by then.
 */
class AuditBookTest {
    private static final int COMMANDS = 3_000;

    @TempDir
    Path tmp;

    /** The level lines and the RESULT line of a book printout (what the rebuilt engine holds), without the notes before them. */
    private static String levels(final String output) {
        return Arrays.stream(output.split("\n"))
            .filter(l -> l.startsWith("ask ") || l.startsWith("bid ") || l.startsWith("RESULT ") || l.startsWith("       #"))
            .collect(Collectors.joining("\n"));
    }

    /** The same book from an engine core that applied the journal's first {@code n} excerpts itself, printed alike. */
    private static String reference(final DataDirectory data, final long n, final int symbol) throws Exception {
        return reference(data, n, symbol, false);
    }

    private static String reference(final DataDirectory data, final long n, final int symbol, final boolean orders) throws Exception {
        final MatchingEngine engine = AuditJournals.engineAfter(data, n);
        final SymbolSpec spec = EngineConfigFile.load(AuditJournals.CONFIG).symbols().stream().filter(s -> s.id() == symbol)
            .findFirst().orElseThrow();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            BookAt.print(engine, spec, Integer.MAX_VALUE, orders, out);
        }
        return levels(bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theBookAfterNCommandsIsTheEnginesAfterN() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 11);
        // Three engine runs, each ending with a snapshot: after the journal's 1,000th, 2,000th and last (3,001st: one
        // excerpt is malformed) excerpts; the later runs recover from the earlier ones' snapshots, as bin/engine does.
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, Long.MAX_VALUE, true);
        assertEquals(List.of(AuditJournals.journalIndex(data, COMMANDS + 1), AuditJournals.journalIndex(data, 2_000),
            AuditJournals.journalIndex(data, 1_000)), SnapshotFiles.indices(data.snapshots()));
        for (final long n : new long[] {1, 500, 999, 1_000, 1_001, 1_750, 2_999, COMMANDS + 1}) {
            for (final String symbol : new String[] {"ACME", "2"}) {
                final String output = audit(0, "book", symbol, "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(),
                    "--after", Long.toString(n));
                assertEquals(reference(data, n, symbol.equals("ACME") ? 1 : 2), levels(output), "after " + n + " in " + symbol);
                final long from = n >= 2_000 ? 2_000 : n >= 1_000 ? 1_000 : 0;
                assertTrue(output.contains(from == 0 ? "rebuilt from the configuration" : "rebuilt from "
                    + SnapshotFiles.name(AuditJournals.journalIndex(data, n == COMMANDS + 1 ? n : from))), "after " + n + ":\n" + output);
            }
        }
        audit(1, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(), "--after",
            Long.toString(COMMANDS + 2));
        // Neither --after nor --at: the book now, after the journal's last command.
        final String now = audit(0, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString());
        assertTrue(now.startsWith("after command " + String.format("%,d", COMMANDS + 1) + " of the journal"), now);
        assertEquals(reference(data, COMMANDS + 1, 1), levels(now), "the book now");
    }

    @Test
    void theToolKeepsSnapshotsAsItReplaysAndTheNextRebuildStartsFromThemWithTheSameBook() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 13);
        AuditJournals.answer(data, Long.MAX_VALUE, false);
        final String config = AuditJournals.CONFIG.toString();
        System.setProperty("chronex.audit.snapshotEvery", "400");
        try {
            final String first = audit(0, "book", "ACME", "--data-dir", dir.toString(), "--config", config, "--after", "2900");
            assertEquals(reference(data, 2_900, 1), levels(first));
            assertTrue(first.contains("rebuilt from the configuration") && first.contains("(7 snapshots kept in "), first);
            for (final long n : new long[] {399, 401, 1_234, 2_000, 2_900, COMMANDS + 1}) {
                final String output = audit(0, "book", "ACME", "--data-dir", dir.toString(), "--config", config, "--after",
                    Long.toString(n));
                assertEquals(reference(data, n, 1), levels(output), "after " + n);
                // After the command the nearest snapshot at or below n was kept after (every 400th), not from the start.
                assertTrue(output.contains(n < 400 ? "rebuilt from the configuration" : "rebuilt from snapshots-"), output);
                assertTrue(output.contains(", then " + (n < 400 ? n : n > 2_800 ? n - 2_800 : n % 400) + " commands replayed"), output);
            }
        } finally {
            System.clearProperty("chronex.audit.snapshotEvery");
        }
    }

    @Test
    void withOrdersEveryRestingOrderIsListedInQueueOrder() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 17);
        AuditJournals.answer(data, 1_500, true);
        AuditJournals.answer(data, Long.MAX_VALUE, false);
        for (final long n : new long[] {700, 1_500, 2_600}) {
            final String output = audit(0, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(),
                "--after", Long.toString(n), "--orders");
            // Past the snapshot the queues come from a restored engine: their order must survive the snapshot.
            assertEquals(reference(data, n, 1, true), levels(output), "after " + n);
            final List<String> lines = Arrays.asList(output.split("\n"));
            final String result = lines.get(lines.size() - 1);
            final long listed = lines.stream().filter(l -> l.startsWith("       #")).count();
            assertEquals(Long.parseLong(field(result, "bid_orders")) + Long.parseLong(field(result, "ask_orders")), listed, output);
            assertTrue(listed > 0, output);
            // Under each level, positions run 1, 2, 3... as many as the level's order count.
            int expected = 0;
            int position = 0;
            for (final String line : lines) {
                if (line.startsWith("ask ") || line.startsWith("bid ")) {
                    assertEquals(expected, position, "orders listed under the level before " + line);
                    expected = Integer.parseInt(line.trim().split("\\s+")[3]);
                    position = 0;
                } else if (line.startsWith("       #")) {
                    assertEquals(++position, Integer.parseInt(line.trim().substring(1).split("\\s+")[0]), line);
                }
            }
            assertEquals(expected, position);
        }
    }

    private static String field(final String resultLine, final String key) {
        return Arrays.stream(resultLine.split(" ")).filter(f -> f.startsWith(key + "=")).findFirst().orElseThrow()
            .substring(key.length() + 1);
    }

    @Test
    void atATimeOnAJournalLongerThanTheSeekSlackFindsTheSameCommandAsAFullRead() throws Exception {
        final Path dir = tmp.resolve("data");
        // 3,000 commands 10 ms apart: 30 s of receipt times, so the seek lands well inside the journal.
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), COMMANDS, 5, 10_000_000L));
        for (final int i : new int[] {1, 150, 1_499, 1_500, 1_501, 2_222, COMMANDS}) {
            for (final long offset : new long[] {0, 5_000_000L}) {
                final Instant at = Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS + i * 10_000_000L + offset);
                final String output = audit(0, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(),
                    "--at", at.toString());
                // Command i is the journal's i-th excerpt, or the (i+1)-th past the malformed one after the 1,500th; that one has
                // no receipt time of its own and goes with the command before it, as a full read counts it.
                final long excerpt = i >= COMMANDS / 2 ? i + 1 : i;
                assertTrue(output.startsWith(String.format("after command %,d of the journal (index 0x%x,", excerpt,
                    AuditJournals.journalIndex(DataDirectory.open(dir), excerpt))), at + ":\n" + output);
            }
        }
        audit(1, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(), "--at",
            Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS).toString());
    }

    @Test
    void atATimeIsAfterTheLastCommandReceivedByThen() throws Exception {
        final Path dir = tmp.resolve("data");
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), 200, 5));
        // Command i was received at START + i µs; half a microsecond after the 120th is still the 120th, which is the
        // journal's 121st excerpt (the 101st is the malformed one, counted as the engine counts it).
        final Instant at = Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS + 120 * 1_000L + 500);
        final String output = audit(0, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(),
            "--at", at.toString());
        assertTrue(output.startsWith("after command 121 of the journal"), output);
        assertTrue(output.contains("received " + Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS + 120_000L)), output);
        audit(1, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(), "--at",
            Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS).toString());
        audit(2, "book", "NOPE", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(), "--after", "1");
        audit(2, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(), "--after", "5", "--at",
            at.toString());
        audit(2, "book", "ACME", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString(), "--at", "10:31");
    }
}
