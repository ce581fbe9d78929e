package io.chronex.gateway;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import io.chronex.replay.JournalSummary;
import io.chronex.testing.Await;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 20, case 2, as the operator saw it: engine and gateway (real child JVMs, as bin/engine and bin/gateway start them)
 * on a small filesystem, a tmpfs of 40 MiB mounted for the test, both with an 8 MiB storage reserve, and a FIX client
 * sending orders that trade until the disk fills. The gateway refuses orders with a Text naming storage, then everything,
 * then stops reading its clients; no process dies. The filesystem is then enlarged and trading resumes by itself: every
 * order the client was told was accepted is in the journal once, every command is answered once, and every order got
 * exactly one answer. Needs root (mount); fails, never skips, where it cannot mount.
 */
class GatewayDiskFullTest {
    private static final String SESSIONS = "  - {senderCompId: FILL, account: 4}\n";
    private static final long MIB = 1L << 20;
    /** Bounds of the fill, far above what a 40 MiB disk takes (about 30,000 orders here): the test never loops for ever. */
    private static final int MAX_ORDERS = 400_000;
    private static final long MAX_FILL_NANOS = TimeUnit.SECONDS.toNanos(120);
    private static final int OUTSTANDING = 400;
    private static final int ORDERS_AFTER = 2_000;

    @TempDir
    Path tmp;

    @Test
    void aFillingDiskStopsNoProcessRefusesOrdersNamingStorageAndTradingResumesWhenTheDiskGrows() throws Exception {
        final Path disk = tmp.resolve("disk");
        Files.createDirectories(disk);
        run("mount", "-t", "tmpfs", "-o", "size=40m", "tmpfs", disk.toString());
        try {
            fillAndGrow(disk);
        } finally {
            unmount(disk);
        }
    }

    private void fillAndGrow(final Path disk) throws Exception {
        final Answers answers = new Answers();
        final Exchange exchange = new Exchange(tmp, disk.resolve("data"), SESSIONS, "logonTimeoutSeconds: 2\n");
        try (exchange) {
            exchange.engineArgs.addAll(List.of("--storage-reserve", "8MiB"));
            exchange.gatewayArgs.addAll(List.of("--storage-reserve", "8MiB"));
            exchange.startEngine();
            exchange.startGateway();
            try (RawFixClient client = new RawFixClient("FILL")) {
                client.connect(exchange.port, 0);
                client.logOn(true);
                final Thread reader = new Thread(() -> answers.readAll(client), "fill-reader");
                reader.setDaemon(true);
                reader.start();
                // Resting far from where the pairs trade: cancelled once new orders are refused, to show cancels still go in.
                client.send("D", order("REST", '1', "95.00"));
                client.flush();
                answers.await("REST");

                final int sent = fill(exchange, client, answers);
                final long free = Files.getFileStore(disk).getUsableSpace();
                System.out.printf("disk full: %d orders sent, %d accepted, %d refused naming storage (%s), free %.2f MiB; cancel: %s%n",
                    sent, answers.accepted.get(), answers.storageRejects.get(), answers.sampleText(), free / (double) MIB,
                    answers.first.get("C-REST"));
                assertTrue(exchange.processAlive() && exchange.engineAlive(), "both processes run on the full disk");
                assertTrue(free < 3 * MIB, "the filesystem really filled: " + free + " bytes free");
                assertTrue(answers.storageRejects.get() > 0, "orders refused naming storage");
                final String cancel = answers.first.get("C-REST");
                assertTrue("4".equals(cancel) || "9-critical".equals(cancel),
                    "the cancel sent once orders were refused went in (or, were the disk already past half the reserve, was"
                        + " refused naming storage): " + cancel);

                run("mount", "-o", "remount,size=200m", disk.toString());
                exchange.awaitGatewayLine("resumed: ");
                final int firstAfter = sent;
                for (int i = 0; i < ORDERS_AFTER; i += 2) {
                    final int inFlight = firstAfter + i;
                    Await.until("answers after the remount", 60, () -> {
                        assertTrue(exchange.processAlive() && exchange.engineAlive(), "both processes run after the remount");
                        return inFlight - answers.orders.get() < OUTSTANDING;
                    });
                    sendPair(client, firstAfter + i);
                    if (i % 20 == 0) {
                        client.flush();
                    }
                }
                client.flush();
                for (int i = 0; i < ORDERS_AFTER; i++) {
                    answers.await("F" + (firstAfter + i));
                    assertEquals("0", answers.first.get("F" + (firstAfter + i)), "accepted once the disk grew: F" + (firstAfter + i));
                }
                for (int i = 0; i < sent; i++) {
                    answers.await("F" + i);
                }
                System.out.printf("after the remount: %d more orders, all accepted; %d accepted in all%n", ORDERS_AFTER,
                    answers.accepted.get());
                assertTrue(exchange.processAlive() && exchange.engineAlive(), "both processes still run");
                answers.stop();
                assertEquals(0, exchange.stopGateway(), "the gateway stops cleanly");
            }
            checkJournal(exchange.data, answers);
            assertEquals(List.of(), answers.doubled(), "orders answered more than once");
            final String log = exchange.gatewayLog();
            printLines("gateway", log);
            printLines("engine", exchange.engineLog());
            assertTrue(log.contains("paused: ") && log.contains("resumed: "), log);
            assertTrue(!log.contains("InternalError") && !log.contains("Exception"), log);
        }
    }

    /** Sends pairs of orders that trade, at most OUTSTANDING unanswered, until the gateway pauses for storage; returns how many. */
    private static int fill(final Exchange exchange, final RawFixClient client, final Answers answers) throws Exception {
        final long deadline = System.nanoTime() + MAX_FILL_NANOS;
        int sent = 0;
        boolean cancelSent = false;
        while (true) {
            if (sent >= MAX_ORDERS || System.nanoTime() > deadline) {
                fail("the disk did not fill: " + sent + " orders sent, " + answers.storageRejects.get() + " storage rejects\n"
                    + exchange.gatewayLog());
            }
            // Until fewer than OUTSTANDING orders wait for an answer, or the gateway paused (the disk is below a quarter
            // of the reserve), or a process died.
            final int inFlight = sent;
            Await.until("an answer, a pause for storage or a dead process", 120, () -> inFlight - answers.orders.get() < OUTSTANDING
                || !exchange.processAlive() || !exchange.engineAlive() || paused(exchange.gatewayLog()));
            if (!exchange.processAlive() || !exchange.engineAlive()) {
                fail("a process died on the filling disk (gateway " + (exchange.processAlive() ? "running" : "gone") + ", engine "
                    + (exchange.engineAlive() ? "running" : "gone") + ") after " + sent + " orders:\n" + tail(exchange.gatewayLog()));
            }
            if (inFlight - answers.orders.get() >= OUTSTANDING) {
                return sent; // paused, with OUTSTANDING orders waiting
            }
            sendPair(client, sent);
            sent += 2;
            if (!cancelSent && answers.storageRejects.get() > 0) {
                client.send("F", "11=C-REST\u000141=REST\u000155=ACME\u000154=1\u000160=20261123-10:00:00\u0001");
                cancelSent = true;
            }
            if (sent % 20 == 0) {
                client.flush();
            }
        }
    }

    private static boolean paused(final String gatewayLog) {
        return gatewayLog.contains("paused: ") || gatewayLog.contains("outbound store: not written");
    }

    private static void sendPair(final RawFixClient client, final int n) throws IOException {
        client.send("D", order("F" + n, '1', "100.00"));
        client.send("D", order("F" + (n + 1), '2', "100.00"));
    }

    private static String order(final String clOrdId, final char side, final String price) {
        return "11=" + clOrdId + "\u000155=ACME\u000154=" + side + "\u000138=1\u000140=2\u000144=" + price
            + "\u000160=20261123-10:00:00\u0001";
    }

    /** Every order told New is journalled exactly once, no refused one is, and every command is answered once. */
    private static void checkJournal(final Path data, final Answers answers) {
        final Map<String, Integer> journalled = new HashMap<>();
        final DataDirectory dir = DataDirectory.openReadOnly(data);
        try (SingleChronicleQueue commands = dir.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            final Command command = new Command();
            final Hops hops = new Hops();
            final CommandText text = new CommandText();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    if (io.chronex.queues.ConfigRecord.is(dc.wire().bytes(), dc.wire().bytes().readPosition(),
                        dc.wire().bytes().readRemaining())) {
                        continue; // the engine's configuration record, not a command
                    }
                    assertEquals(DecodeStatus.OK, CommandCodec.read(dc.wire().bytes(), command, hops, text.clear()));
                    if (command.type == CommandType.NEW_ORDER) {
                        journalled.merge(text.clientOrderIdText(), 1, Integer::sum);
                    }
                }
            }
            final JournalSummary.Summary summary = JournalSummary.summarize(dir);
            System.out.println("journal: " + summary.resultLine());
            assertTrue(summary.clean(), summary.resultLine());
        }
        int accepted = 0;
        for (final Map.Entry<String, String> e : answers.first.entrySet()) {
            final Integer times = journalled.get(e.getKey());
            if ("0".equals(e.getValue())) {
                accepted++;
                assertEquals(1, times == null ? 0 : times, "accepted order " + e.getKey() + " in the journal once");
            } else if (e.getValue().startsWith("8-storage")) {
                assertEquals(null, times, "order " + e.getKey() + " refused for storage is not in the journal");
            }
        }
        assertTrue(accepted > 0);
        for (final Map.Entry<String, Integer> e : journalled.entrySet()) {
            assertTrue(answers.first.containsKey(e.getKey()), "journalled order " + e.getKey() + " was answered");
        }
    }

    private static String tail(final String log) {
        return log.substring(Math.max(0, log.length() - 4000));
    }

    /** The storage lines of a process's log, for whoever reads the test's output. */
    private static void printLines(final String process, final String log) {
        for (final String line : log.split("\n")) {
            if (line.contains("paused") || line.contains("resumed") || line.contains("outbound store") || line.contains("stopping")) {
                System.out.println(process + ": " + line);
            }
        }
    }

    private static void run(final String... command) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", command) + " failed (this test mounts a tmpfs and needs root): " + output);
        }
    }

    private static void unmount(final Path disk) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("umount", disk.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
            return;
        }
        // Busy (a process not yet gone): detach now, freed once the last file is closed.
        run("umount", "-l", disk.toString());
    }

    /** What the client was told, per ClOrdID; filled by the reader thread. */
    private static final class Answers {
        /** The first answer: "0" New, "8-storage" / "8" Rejected, "4" Canceled, "9-critical" / "9" OrderCancelReject. */
        final Map<String, String> first = new ConcurrentHashMap<>();
        /** New or Rejected reports per order: more than one is an order answered twice. */
        final Map<String, AtomicInteger> answerCounts = new ConcurrentHashMap<>();
        final AtomicInteger orders = new AtomicInteger();
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger storageRejects = new AtomicInteger();
        final AtomicReference<String> sample = new AtomicReference<>();
        private volatile boolean stopping;

        void readAll(final RawFixClient client) {
            try {
                while (true) {
                    final RawFixClient.Msg m = client.next();
                    if ("8".equals(m.type())) {
                        report(m);
                    } else if ("9".equals(m.type())) {
                        final String text = m.get(58);
                        first.putIfAbsent(m.get(11), text != null && text.contains("storage critical") ? "9-critical" : "9");
                    }
                }
            } catch (final IOException e) {
                if (!stopping) {
                    first.put("reader", "ended: " + e);
                }
            }
        }

        private void report(final RawFixClient.Msg m) {
            final String execType = m.get(150);
            final String id = m.get(11);
            if ("0".equals(execType) || "8".equals(execType)) {
                answerCounts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                final String text = m.get(58);
                final boolean storage = "8".equals(execType) && text != null && text.contains("storage");
                if (storage) {
                    storageRejects.incrementAndGet();
                    sample.compareAndSet(null, text);
                }
                if (first.putIfAbsent(id, storage ? "8-storage" : execType) == null) {
                    if ("0".equals(execType)) {
                        accepted.incrementAndGet();
                    }
                    if (id.startsWith("F")) {
                        orders.incrementAndGet();
                    }
                }
            } else if ("4".equals(execType)) {
                first.putIfAbsent(id, "4");
            }
        }

        String sampleText() {
            return sample.get();
        }

        /** Waits for the first answer to an order (at most 60 s, then fails naming it). */
        void await(final String id) throws Exception {
            Await.until("an answer to " + id, 60, () -> {
                if (first.containsKey("reader")) {
                    fail("no answer to " + id + "; client " + first.get("reader"));
                }
                return first.containsKey(id);
            });
        }

        List<String> doubled() {
            final List<String> twice = new ArrayList<>();
            answerCounts.forEach((id, n) -> {
                if (n.get() > 1) {
                    twice.add(id + " x" + n.get());
                }
            });
            return twice;
        }

        void stop() {
            stopping = true;
        }
    }
}
