package io.chronex.engine.process;

import io.chronex.queues.DataDirectory;
import io.chronex.replay.audit.Audit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/audit order --order-id through the order index (DIR/audit-index/order-starts): the same records as
 * the order's own lines in a full export; the index is built on first use, extended when the journal
 * grows (an order accepted later is found), and rebuilt, with a note, when its file is damaged.
 */
class OrderIndexTest {
    @TempDir
    Path tmp;

    private static String audit(final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            assertEquals(0, Audit.exitCode(argv, out));
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The journal index and event type of each record line of an order printout. */
    private static String records(final String output) {
        return Arrays.stream(output.split("\n")).filter(l -> l.startsWith("20"))
            .map(l -> l.substring(l.indexOf("journal"), l.indexOf(" order "))).collect(Collectors.joining("\n"));
    }

    /** The same from a full export: the rows of that order id, as journal index (hex) and event type. */
    private static String fromExport(final Path dir, final long orderId) {
        return Arrays.stream(audit("export", "--data-dir", dir.toString(), "--format", "csv").split("\n")).skip(1)
            .map(l -> l.split(",")).filter(f -> f.length > 5 && f[5].equals(Long.toString(orderId)))
            .map(f -> String.format("journal 0x%s  %-6s", Long.toHexString(Long.parseLong(f[0])), f[3]))
            .collect(Collectors.joining("\n"));
    }

    @Test
    void theIndexIsBuiltExtendedAndRebuiltAndAnswersAsAFullReadDoes() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), 2_000, 3);
        AuditJournals.answer(data, 1_000, false);
        for (final long id : new long[] {1, 37, 400}) {
            final String out = audit("order", "--data-dir", dir.toString(), "--order-id", Long.toString(id));
            assertEquals(fromExport(dir, id), records(out), "order " + id);
            assertTrue(!records(out).isEmpty(), out);
        }
        final Path file = dir.resolve("audit-index").resolve("order-starts");
        assertTrue(Files.exists(file));
        // An order accepted only after the journal grew: the index extends to it.
        final String unknown = audit("order", "--data-dir", dir.toString(), "--order-id", "900");
        assertTrue(unknown.contains("no order 900 was accepted"), unknown);
        AuditJournals.answer(data, Long.MAX_VALUE, false);
        assertEquals(fromExport(dir, 900), records(audit("order", "--data-dir", dir.toString(), "--order-id", "900")));
        // A damaged index file is rebuilt, and answers the same.
        Files.write(file, new byte[] {1, 2, 3});
        final String rebuilt = audit("order", "--data-dir", dir.toString(), "--order-id", "37");
        assertTrue(rebuilt.contains("note: rebuilding the order index"), rebuilt);
        assertEquals(fromExport(dir, 37), records(rebuilt));
    }

    /** The account and ClOrdID an order's own "new" line shows. */
    private static String[] accountAndClOrdId(final String output, final long orderId) {
        final Matcher m = Pattern.compile(" new +order " + orderId + " account (\\d+) clOrdId (\\S+) ").matcher(output);
        assertTrue(m.find(), output);
        return new String[] {m.group(1), m.group(2)};
    }

    @Test
    void aClOrdIdIsFoundThroughItsIndexAsTheOrderIdFindsItBuiltExtendedAndRebuilt() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), 2_000, 3);
        AuditJournals.answer(data, 1_000, false);
        final String byId = audit("order", "--data-dir", dir.toString(), "--order-id", "37");
        final String[] ids = accountAndClOrdId(byId, 37);
        final String byClOrdId = audit("order", "--data-dir", dir.toString(), "--clordid", ids[1], "--account", ids[0]);
        // The same life, and besides it the commands the engine refused that named that ClOrdID (a cancel of the ended order).
        assertEquals(records(byId), lives(byClOrdId));
        assertTrue(!records(byClOrdId).isEmpty(), byClOrdId);
        final Path file = dir.resolve("audit-index").resolve("clordid");
        final long built = Files.size(file);
        // The journal grows: an order accepted later is found, the index extended (what it held, then the new entries).
        AuditJournals.answer(data, Long.MAX_VALUE, false);
        final String later = audit("order", "--data-dir", dir.toString(), "--order-id", "900");
        final String[] laterIds = accountAndClOrdId(later, 900);
        assertEquals(records(later), lives(audit("order", "--data-dir", dir.toString(), "--clordid", laterIds[1], "--account",
            laterIds[0])));
        assertTrue(Files.size(file) > built, "extended: " + Files.size(file) + " bytes, was " + built);
        assertEquals(records(byClOrdId), records(audit("order", "--data-dir", dir.toString(), "--clordid", ids[1], "--account",
            ids[0])), "an entry of the first build, read from the extended file");
        // A damaged index file is rebuilt, and answers the same.
        Files.write(file, new byte[] {1, 2, 3});
        final String rebuilt = audit("order", "--data-dir", dir.toString(), "--clordid", ids[1], "--account", ids[0]);
        assertTrue(rebuilt.contains("note: rebuilding the ClOrdID index"), rebuilt);
        assertEquals(records(byClOrdId), records(rebuilt));
    }

    /** The record lines of an order printout but its rejects (records of no order: order 0). */
    private static String lives(final String output) {
        return records(Arrays.stream(output.split("\n")).filter(l -> !l.contains(" order 0 ")).collect(Collectors.joining("\n")));
    }
}
