package io.chronex.gateway;

import io.chronex.queues.DataDirectory;
import io.chronex.replay.audit.Audit;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/audit order, account, trades, export and dump on a journal written by real engine and gateway
 * processes for two FIX clients: an order placed, replaced (a new ClOrdID), partly filled by the other
 * client and cancelled, and a cancel the engine rejects. Each query finds exactly the records that
 * story made, with the ClOrdIDs the clients sent and the counterparty of the fill.
 */
class AuditQueriesTest {
    private static final String SESSIONS = "  - {senderCompId: LOAD1, account: 101}\n  - {senderCompId: LOAD2, account: 102}\n";
    private static final Pattern ORDER = Pattern.compile(" order (\\d+) account (\\d+) clOrdId (\\S+) ");

    @TempDir
    Path tmp;

    private static String audit(final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Audit.exitCode(argv, out);
        }
        final String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, output);
        return output;
    }

    /** The index of a queue's excerpt after its first {@code skip}; the queue is closed. */
    private static long indexAfter(final SingleChronicleQueue queue, final int skip) {
        try (queue; ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i <= skip; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    assertTrue(dc.isPresent(), "the queue has more than " + skip + " excerpts");
                    if (i == skip) {
                        return dc.index();
                    }
                }
            }
        }
        throw new AssertionError("unreachable");
    }

    /** The record lines (those with a UTC time first), each as "type order account clOrdId". */
    private static List<String> records(final String output) {
        final List<String> records = new ArrayList<>();
        for (final String line : output.split("\n")) {
            final Matcher m = ORDER.matcher(line);
            if (line.startsWith("20") && m.find()) {
                records.add(line.substring(line.indexOf("  ", 30)).trim().split(" ")[0] + " " + m.group(1) + " " + m.group(2) + " "
                    + m.group(3));
            }
        }
        return records;
    }

    /** A limit order at 90.00 for ACME, good till cancel (the replace takes the same fields after its OrigClOrdID). */
    private static String order(final String clOrdId, final String side, final int quantity) {
        return "11=" + clOrdId + "\u000155=ACME\u000154=" + side + "\u000138=" + quantity + "\u000140=2\u000144=90.00\u000159=1"
            + "\u000160=20261124-10:00:00\u0001";
    }

    @Test
    void eachQueryFindsTheRecordsTheStoryMade() throws Exception {
        final Path data;
        try (Exchange exchange = new Exchange(tmp, SESSIONS)) {
            exchange.startEngine();
            exchange.startGateway();
            try (FixText buyer = FixText.logOn(exchange.port, "LOAD1"); FixText seller = FixText.logOn(exchange.port, "LOAD2")) {
                buyer.send("D", order("A-1", "1", 10));
                assertEquals("0", buyer.expect("8").get(150));
                buyer.send("G", "41=A-1\u0001" + order("A-2", "1", 8));
                assertEquals("5", buyer.expect("8").get(150));
                seller.send("D", order("B-1", "2", 5));
                assertEquals("0", seller.expect("8").get(150), "New, then the trade");
                assertEquals("F", seller.expect("8").get(150));
                assertEquals("F", buyer.expect("8").get(150));
                buyer.send("F", "41=A-2\u000111=A-3\u000155=ACME\u000154=1\u000138=8\u000160=20261124-10:00:03\u0001");
                assertEquals("4", buyer.expect("8").get(150));
                buyer.send("F", "41=NO-SUCH\u000111=A-4\u000155=ACME\u000154=1\u000138=1\u000160=20261124-10:00:04\u0001");
                buyer.expect("9");
            }
            data = exchange.data;
            final String gatewayConfig = exchange.gatewayConfig.toString();
            final String dir = data.toString();

            final String life = audit("order", "--data-dir", dir, "--clordid", "A-1", "--session", "LOAD1", "--gateway-config",
                gatewayConfig);
            final List<String> records = records(life);
            final String buyOrder = records.get(0).split(" ")[1];
            final String sellOrder = records(audit("order", "--data-dir", dir, "--clordid", "B-1", "--account", "102")).get(0)
                .split(" ")[1];
            assertEquals(List.of("new " + buyOrder + " 101 A-1", "amend " + buyOrder + " 101 A-2", "fill " + buyOrder + " 101 A-2",
                "cancel " + buyOrder + " 101 A-2"), records, life);
            // No --config: the journal records the engine's configuration, so the price is in ACME's decimals.
            assertTrue(life.contains("5@90.00 trade 1 against order " + sellOrder + " (account 102)"), life);
            assertTrue(life.contains("RESULT records=4 "), life);
            assertEquals(records, records(audit("order", "--data-dir", dir, "--clordid", "A-2", "--account", "101")),
                "the same life found by the ClOrdID the replace gave it");
            assertEquals(records, records(audit("order", "--data-dir", dir, "--order-id", buyOrder)));
            // --clordid goes through the ClOrdID index the first call built into the data directory.
            assertTrue(Files.size(data.resolve("audit-index").resolve("clordid")) > 32, "the ClOrdID index was written");
            assertEquals(List.of("reject 0 101 NO-SUCH"), records(audit("order", "--data-dir", dir, "--clordid", "NO-SUCH", "--account",
                "101")), "a command the engine refused, found by the ClOrdID it named");
            assertTrue(audit("order", "--data-dir", dir, "--clordid", "A-1", "--account", "102").contains("RESULT records=0 "),
                "another account's ClOrdID is not this one's");
            assertTrue(audit("order", "--data-dir", dir, "--clordid", "Z-9", "--account", "101").contains("RESULT records=0 "));

            // Each account's three deposits first (config/demo-funding.admin: USD, ACME, GLOBEX; their references as clOrdId).
            final List<String> account = records(audit("account", "101", "--data-dir", dir));
            assertEquals(List.of("cash 0 101 13", "cash 0 101 14", "cash 0 101 15"), account.subList(0, 3), account.toString());
            assertEquals(3 + 5, account.size(), account.toString());
            assertEquals("reject 0 101 NO-SUCH", account.get(7), "the cancel the engine refused, with the OrigClOrdID it named");
            assertEquals(List.of("cash 0 102 16", "cash 0 102 17", "cash 0 102 18", "new " + sellOrder + " 102 B-1",
                "fill " + sellOrder + " 102 B-1"), records(audit("account", "102", "--data-dir", dir)));

            final String trades = audit("trades", "--data-dir", dir);
            assertTrue(trades.contains("RESULT trades=1 volume=5"), trades);

            final List<String> csv = Arrays.asList(audit("export", "--data-dir", dir, "--format", "csv").split("\n"));
            assertTrue(csv.get(0).startsWith("sequence,events_index,utc_time,event_type,command,order_id,client_order_id,"), csv.get(0));
            // The funding's deposits (a record each), then new, amend, the seller's new, two fill records (one per side), cancel,
            // reject: 7 records, then the RESULT line.
            final int funding = Exchange.FUNDING_COMMANDS;
            assertEquals(1 + funding + 7 + 1, csv.size(), String.join("\n", csv));
            for (int i = 1; i <= funding; i++) {
                final String[] row = csv.get(i).split(",");
                assertEquals("cash DEPOSIT", row[3] + " " + row[4], csv.get(i));
            }
            assertEquals("new NEW_ORDER", csv.get(funding + 1).split(",")[3] + " " + csv.get(funding + 1).split(",")[4]);
            assertTrue(csv.get(csv.size() - 1).equals("RESULT records=" + (funding + 7)), csv.get(csv.size() - 1));
            final Path out = tmp.resolve("orders.jsonl");
            audit("export", "--data-dir", dir, "--format", "jsonl", "--out", out.toString());
            final List<String> json = Files.readAllLines(out);
            assertEquals(funding + 7, json.size());
            assertTrue(json.get(funding).contains("\"event_type\":\"new\""), json.get(funding));
            assertTrue(json.get(funding).contains("\"client_order_id_text\":\"A-1\""), json.get(funding));

            // From the first excerpt after the funding's and the engine's configuration record (journalled when it started).
            final DataDirectory read = DataDirectory.openReadOnly(data);
            final String dump = audit("dump", "--data-dir", dir, "--events", "--count", "3", "--from",
                Long.toString(indexAfter(read.events(), funding + 1)));
            final List<Object> docs = new ArrayList<>();
            new Yaml().loadAll(dump.substring(0, dump.lastIndexOf("RESULT"))).forEach(docs::add);
            assertEquals(3, docs.size());
            assertEquals("NEW_ORDER", ((Map<?, ?>) ((Map<?, ?>) docs.get(0)).get("result")).get("commandType"));
            assertTrue(dump.endsWith("RESULT excerpts=3\n"), dump);
            final String commands = audit("dump", "--data-dir", dir, "--commands", "--count", "1", "--format", "json", "--from",
                Long.toString(indexAfter(read.commands(), funding + 1)));
            assertTrue(commands.contains("\"clientOrderIdText\"") && commands.contains("A-1"), commands);
        }
    }
}
