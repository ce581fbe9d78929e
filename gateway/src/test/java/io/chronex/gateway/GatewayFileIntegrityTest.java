package io.chronex.gateway;

import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.queues.DataDirectory;
import io.chronex.testing.ChildJvm;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway never trusts its own files silently (issue 20): one data directory is made once by a real
 * engine and gateway (a session's 200 resting orders, 10 replaced, 20 cancelled, sequence numbers
 * well past 1), then each test damages a copy the way an operator found them damaged and starts
 * bin/gateway's main in a child JVM on it. Each must either start (the undamaged copy, a rebuilt
 * table) or exit 2 with a message naming the damaged file: never serve with numbers or ids made up.
 */
class GatewayFileIntegrityTest {
    private static final String SENDER = "LOAD1";
    private static final long ACCOUNT = 101;
    private static final int ORDERS = 200;

    @TempDir
    static Path template;
    @TempDir
    Path tmp;
    private final ChildJvm jvms = new ChildJvm();
    private Path dir;
    private Path gatewayDir;

    @BeforeAll
    static void trade() throws Exception {
        try (Exchange exchange = new Exchange(template, "  - {senderCompId: " + SENDER + ", account: " + ACCOUNT + "}\n")) {
            exchange.startEngine();
            exchange.startGateway();
            try (FixText client = FixText.logOn(exchange.port, SENDER)) {
                for (int i = 1; i <= ORDERS; i++) {
                    client.send("D", "11=Run7-" + i + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=" + price(i)
                        + "\u000159=1\u000160=20261122-10:00:00\u0001");
                    assertEquals("0", client.expect("8").get(150), "order " + i + " rests");
                }
                for (int i = 1; i <= 10; i++) {
                    client.send("G", "41=Run7-" + i + "\u000111=Run7-" + i + "-r\u000155=ACME\u000154=1\u000138=2\u000140=2\u000144="
                        + price(i) + "\u000160=20261122-10:00:01\u0001");
                    assertEquals("5", client.expect("8").get(150), "order " + i + " replaced");
                }
                for (int i = 11; i <= 30; i++) {
                    client.send("F", "41=Run7-" + i + "\u000111=X" + i + "\u000155=ACME\u000154=1\u000138=1"
                        + "\u000160=20261122-10:00:02\u0001");
                    assertEquals("4", client.expect("8").get(150), "order " + i + " cancelled");
                }
                client.send("5", "");
                client.expect("5");
            }
            assertEquals(0, exchange.stopGateway(), "SIGTERM exits 0");
        }
    }

    private static String price(final int i) {
        return String.format(java.util.Locale.ROOT, "%d.%02d", 90 + i / 100, i % 100);
    }

    /** A copy of the template for this test: data directory and configuration files, sparse files kept sparse. */
    private void copyTemplate() throws Exception {
        dir = tmp.resolve("copy");
        Files.createDirectories(dir);
        final Process cp = new ProcessBuilder("cp", "-a", "--sparse=always", template + "/.", dir.toString()).inheritIO().start();
        assertTrue(cp.waitFor(60, TimeUnit.SECONDS) && cp.exitValue() == 0, "cp of the template");
        gatewayDir = dir.resolve("data/gateways/1");
        Files.deleteIfExists(gatewayDir.resolve("gateway.pid"));
    }

    @AfterEach
    void stop() {
        jvms.close();
    }

    @Test
    void anUndamagedCopyStartsWithTheNumbersItHad() throws Exception {
        copyTemplate();
        final String line = startsServing();
        // Logon 1, 200 New, 10 Replaced, 20 Canceled, Logout 232: next out 233; in the same plus the client's Logout.
        assertTrue(line.contains(SENDER + " in 233 out 233"), line);
    }

    @Test
    void zeroedBytesInTheMiddleOfTheOutboundStoreAreRefused() throws Exception {
        copyTemplate();
        final long offset = excerptOffset(DataDirectory.open(dir.resolve("data")).gatewayOutbound(1), 0.5);
        zero(onlyCycleFile(gatewayDir.resolve("outbound")), offset - 4, 4096);
        assertRefused(gatewayDir.resolve("outbound").toString(), "cannot be read past excerpt");
    }

    /**
     * The outbound store put back as it was halfway (its first half of excerpts, rewritten by Chronicle, so its own walk
     * and index agree): the gateway would number new messages over ones its clients have. sessions.state says how far
     * the store had got.
     */
    @Test
    void anOlderCopyOfTheOutboundStoreIsRefused() throws Exception {
        copyTemplate();
        final Path outbound = gatewayDir.resolve("outbound");
        final Path older = tmp.resolve("older-outbound");
        try (SingleChronicleQueue from = DataDirectory.open(dir.resolve("data")).gatewayOutbound(1);
             SingleChronicleQueue to = net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder.single(older.toFile())
                 .rollCycle(from.rollCycle()).sourceId(from.sourceId()).build()) {
            final ExcerptTailer tailer = from.createTailer();
            final long half = (from.lastIndex() - tailer.toStart().index()) / 2;
            final net.openhft.chronicle.queue.ExcerptAppender appender = to.createAppender();
            for (long i = 0; i < half; i++) {
                try (DocumentContext in = tailer.readingDocument(); DocumentContext out = appender.writingDocument()) {
                    assertTrue(in.isPresent());
                    out.wire().bytes().write(in.wire().bytes());
                }
            }
        }
        deleteTree(outbound);
        Files.move(older, outbound);
        assertRefused(outbound.toString(), "lost its tail");
    }

    /** Below a quarter of the storage reserve (a reserve far larger than the disk) the gateway does not start: recovery writes. */
    @Test
    void aDiskAllButFullRefusesTheStart() throws Exception {
        copyTemplate();
        final Process p = run("--storage-reserve", "1000000GiB");
        final String out = Files.readString(tmp.resolve("run.out"));
        assertEquals(2, p.exitValue(), out);
        assertFalse(out.contains("listening on"), out);
        assertTrue(out.contains("not started: free space on the filesystem of " + dir.resolve("data")), out);
    }

    /**
     * The events the gateway answered, zeroed in the middle, read by a start without a checkpoint (a gateway of an older
     * build): its reading would stop there, so would every report after it. (With its checkpoint, taken when it stopped, a
     * start reads none of the events before it.)
     */
    @Test
    void zeroedBytesInTheMiddleOfTheEventsQueueAreRefused() throws Exception {
        copyTemplate();
        Files.delete(gatewayDir.resolve(io.chronex.queues.ReaderCheckpoint.FILE));
        final long offset = excerptOffset(DataDirectory.open(dir.resolve("data")).events(), 0.5);
        zero(onlyCycleFile(dir.resolve("data/events")), offset - 4, 4096);
        assertRefused("events queue " + dir.resolve("data/events") + ": excerpts from index 0x", "restore the events queue");
    }

    @Test
    void aMissingSessionStateIsRefused() throws Exception {
        copyTemplate();
        Files.delete(gatewayDir.resolve("sessions.state"));
        assertRefused(gatewayDir.resolve("sessions.state") + " is missing", "MsgSeqNums");
        assertFalse(Files.exists(gatewayDir.resolve("sessions.state")), "the refusal leaves no fresh file to be taken for the lost one");
        // And again: the second start is refused the same way.
        assertRefused(gatewayDir.resolve("sessions.state") + " is missing", "MsgSeqNums");
    }

    @Test
    void aTruncatedSessionStateIsRefused() throws Exception {
        copyTemplate();
        try (FileChannel channel = FileChannel.open(gatewayDir.resolve("sessions.state"), StandardOpenOption.WRITE)) {
            channel.truncate(1000);
        }
        assertRefused(gatewayDir.resolve("sessions.state").toString(), "damaged or not ours");
    }

    @Test
    void aMissingOutboundStoreIsRefused() throws Exception {
        copyTemplate();
        deleteTree(gatewayDir.resolve("outbound"));
        assertRefused(gatewayDir.resolve("outbound") + " is empty or missing", "commands from gateway 1");
    }

    @Test
    void aMissingGatewayDirectoryIsRefused() throws Exception {
        copyTemplate();
        deleteTree(gatewayDir);
        assertRefused(gatewayDir.resolve("outbound") + " is empty or missing", "commands from gateway 1");
    }

    @Test
    void aMissingClOrdIdTableIsRefusedAndRebuiltFromTheJournal() throws Exception {
        copyTemplate();
        final Map<String, String> before = tableEntries();
        assertEquals(ORDERS - 20, before.size(), "the template's live orders");
        Files.delete(gatewayDir.resolve("clordids.table"));
        assertRefused(gatewayDir.resolve("clordids.table") + " disagrees with the journal: 180 of the 180", "--rebuild-clordids");
        assertEquals(0, run("--rebuild-clordids").exitValue(), "the rebuild exits 0");
        assertEquals(before, tableEntries(), "the rebuilt table holds exactly the live orders' texts");
        startsServing();
    }

    @Test
    void noiseOverTheClOrdIdTableIsRefused() throws Exception {
        copyTemplate();
        final byte[] noise = new byte[64 << 10];
        new SplittableRandom(20).nextBytes(noise);
        write(gatewayDir.resolve("clordids.table"), 128 << 10, noise);
        assertRefused(gatewayDir.resolve("clordids.table") + " is damaged", "--rebuild-clordids");
    }

    @Test
    void zeroedSlotsOfTheClOrdIdTableAreRefused() throws Exception {
        copyTemplate();
        zero(gatewayDir.resolve("clordids.table"), 128 << 10, 64 << 10);
        assertRefused(gatewayDir.resolve("clordids.table") + " disagrees with the journal", "--rebuild-clordids");
    }

    @Test
    void aTruncatedCommandsJournalIsRefused() throws Exception {
        copyTemplate();
        final long offset = excerptOffset(DataDirectory.open(dir.resolve("data")).commands(), 0.5);
        try (FileChannel channel = FileChannel.open(onlyCycleFile(dir.resolve("data/commands")), StandardOpenOption.WRITE)) {
            channel.truncate(offset - 50);
        }
        assertRefused("commands journal " + dir.resolve("data/commands"), "takes no orders it cannot journal");
    }

    /** Starts the gateway on the copy and waits until it listens; returns its recovery line, then stops it (exit 0). */
    private String startsServing() throws Exception {
        final Path log = tmp.resolve("serving.out");
        final Process p = jvms.start(command(), log);
        ChildJvm.awaitLine(p, log, "listening on");
        final String recovered = ChildJvm.awaitLine(p, log, "recovered in");
        p.destroy();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stops on SIGTERM");
        assertEquals(0, p.exitValue(), Files.readString(log));
        return recovered;
    }

    /** The gateway exits 2 without serving, and what it says names the file and what is wrong. */
    private void assertRefused(final String what, final String alsoSays) throws Exception {
        final Process p = run();
        final String out = Files.readString(tmp.resolve("run.out"));
        assertEquals(2, p.exitValue(), out);
        assertFalse(out.contains("listening on"), out);
        assertTrue(out.contains(what), "names " + what + ":\n" + out);
        assertTrue(out.contains(alsoSays), "says " + alsoSays + ":\n" + out);
    }

    private Process run(final String... extra) throws Exception {
        final List<String> args = new ArrayList<>(command());
        args.addAll(List.of(extra));
        final Process p = jvms.start(args, tmp.resolve("run.out"));
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ends by itself");
        return p;
    }

    private List<String> command() {
        return ChildJvm.command("256m", "-XX:+UseSerialGC", GatewayMain.class.getName(), List.of("--data-dir",
            dir.resolve("data").toString(), "--config", dir.resolve("gateway.yaml").toString(), "--port", "0"));
    }

    /** (account, id) → text of every live entry, as the table holds them. */
    private Map<String, String> tableEntries() {
        final Map<String, String> entries = new TreeMap<>();
        try (ClOrdIdTable table = new ClOrdIdTable(gatewayDir.resolve("clordids.table"))) {
            table.forEach((account, id, buffer, offset, length) ->
                entries.put(account + "/" + id, buffer.getStringWithoutLengthAscii(offset, length)));
        }
        return entries;
    }

    /** The file offset of the excerpt at this fraction of the queue (its first cycle file's); closes the queue. */
    private static long excerptOffset(final SingleChronicleQueue queue, final double fraction) {
        try (queue) {
            final ExcerptTailer tailer = queue.createTailer();
            final long first = tailer.toStart().index();
            final long count = queue.lastIndex() - first + 1;
            assertTrue(count > 20, "enough excerpts: " + count);
            assertTrue(tailer.moveToIndex(first + (long) (count * fraction)));
            try (DocumentContext dc = tailer.readingDocument()) {
                return dc.wire().bytes().readPosition();
            }
        }
    }

    private static Path onlyCycleFile(final Path queueDir) throws IOException {
        try (Stream<Path> files = Files.list(queueDir)) {
            final List<Path> cycles = files.filter(f -> f.toString().endsWith(".cq4")).toList();
            assertEquals(1, cycles.size(), "one cycle file in " + queueDir);
            return cycles.get(0);
        }
    }

    private static void zero(final Path file, final long at, final int length) throws IOException {
        write(file, at, new byte[length]);
    }

    private static void write(final Path file, final long at, final byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), at);
        }
    }

    private static void deleteTree(final Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
