package io.chronex.gateway;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.Command;
import io.chronex.engine.process.EngineService;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.Hops;
import io.chronex.runtime.StorageGuard;
import io.chronex.testing.Await;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The gateway's storage levels with the free space set by the test (a fake {@link StorageGuard.FreeSpace}), gateway and
 * engine in this JVM on one thread of their own, a raw FIX client: below the reserve a new order and a replace are refused
 * with a Text naming storage and a cancel goes in; below half of it a cancel, a mass cancel and a new order are refused;
 * below a quarter nothing is written (not the client's new order, not the answer to a command another process journalled)
 * until space returns, then both are answered by themselves; a stop on a full disk closes the connection without a Logout.
 */
class GatewayStorageTest {
    private static final long MIB = 1L << 20;
    private static final long RESERVE = 100 * MIB;
    private static final String NOW = "20261123-10:00:00";

    @TempDir
    Path tmp;

    /** Free space as the test sets it; reads are counted so the test knows when the gateway has seen a new figure. */
    private final AtomicLong free = new AtomicLong(1L << 30);
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong passes = new AtomicLong();
    private final Queue<String> log = new ConcurrentLinkedQueue<>();
    private volatile boolean stop;

    @Test
    void refusesByLevelWritesNothingWhenExhaustedAndGoesOnWhenSpaceReturns() throws Exception {
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), tmp.resolve("engine.yaml"));
        Files.writeString(tmp.resolve("gateway.yaml"), "port: 0\nengineConfig: engine.yaml\nsessions:\n"
            + "  - {senderCompId: STORE, account: 4}\n");
        final Path dataDir = tmp.resolve("data");
        final AtomicReference<Integer> port = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread loop = new Thread(() -> run(dataDir, port, failure), "gateway-and-engine");
        // A gateway stuck writing (the bug this test looks for) must fail the test, not hold the test JVM open.
        loop.setDaemon(true);
        loop.start();
        try (RawFixClient client = new RawFixClient("STORE")) {
            Await.until("the gateway's port", 60, () -> {
                assertTrue(loop.isAlive(), () -> "the gateway did not start: " + failure.get());
                return port.get() != null;
            });
            client.connect(port.get(), 0);
            client.logOn(true);
            send(client, "D", order("A1", "99.00"));
            assertEquals("0", client.expect("8").get(150));
            send(client, "D", order("A2", "98.00"));
            assertEquals("0", client.expect("8").get(150));

            setFree(75 * MIB);
            send(client, "D", order("B1", "97.00"));
            final RawFixClient.Msg refused = client.expect("8");
            assertEquals("8", refused.get(150), refused.toString());
            assertEquals("99", refused.get(103), refused.toString());
            assertTrue(refused.get(58).startsWith("exchange storage low: new orders and replaces refused, cancels accepted (free 75.0"
                + " MiB, reserve 100.0 MiB)"), refused.toString());
            send(client, "G", "11=A2R\u000141=A2\u000155=ACME\u000154=1\u000138=2\u000140=2\u000144=98.00\u000160=" + NOW + "\u0001");
            final RawFixClient.Msg replace = client.expect("9");
            assertEquals("2", replace.get(434), replace.toString());
            assertTrue(replace.get(58).startsWith("exchange storage low"), replace.toString());
            send(client, "F", cancel("C1", "A1"));
            final RawFixClient.Msg cancelled = client.expect("8");
            assertEquals("4", cancelled.get(150), "a cancel goes in below the reserve: " + cancelled);

            setFree(40 * MIB);
            send(client, "F", cancel("C2", "A2"));
            final RawFixClient.Msg cancelRefused = client.expect("9");
            assertEquals("1", cancelRefused.get(434), cancelRefused.toString());
            assertTrue(cancelRefused.get(58).startsWith("exchange storage critical"), cancelRefused.toString());
            send(client, "q", "11=M1\u0001530=7\u000160=" + NOW + "\u0001");
            final RawFixClient.Msg massRefused = client.expect("r");
            assertEquals("0", massRefused.get(531), massRefused.toString());
            assertTrue(massRefused.get(58).startsWith("exchange storage critical"), massRefused.toString());
            send(client, "D", order("B2", "97.00"));
            assertTrue(client.expect("8").get(58).startsWith("exchange storage critical"));
            assertEquals(Exchange.FUNDING_COMMANDS + 3, journalLength(dataDir), "journalled: the funding, A1, A2 and the cancel C1 only");

            setFree(20 * MIB);
            awaitLog("paused: ", 1);
            final long storeBefore = outboundLastIndex(dataDir);
            // While paused: the client's new order, and a command journalled by another writer whose answer is for this client.
            send(client, "D", order("D1", "96.00"));
            final long events = eventsLastIndex(dataDir);
            appendMassCancelOfAccount4(dataDir);
            Await.until("the engine answers the mass cancel", 30, () -> eventsLastIndex(dataDir) != events);
            final long seen = passes.get();
            // A thousand passes of the gateway with the answer and the order waiting: it pauses, it does not stall.
            try {
                Await.until("a thousand passes of the paused gateway's loop", 30, () -> passes.get() >= seen + 1_000);
            } catch (final AssertionError e) {
                fail(e.getMessage() + ": it stalled instead of pausing:\n" + String.join("\n", log));
            }
            assertEquals(storeBefore, outboundLastIndex(dataDir), "nothing stored below a quarter of the reserve");
            assertEquals(Exchange.FUNDING_COMMANDS + 4, journalLength(dataDir), "the client's order not journalled while paused");

            setFree(1L << 30);
            awaitLog("resumed: ", 1);
            boolean a2Cancelled = false;
            boolean d1New = false;
            while (!a2Cancelled || !d1New) {
                final RawFixClient.Msg m = client.expect("8");
                a2Cancelled |= "4".equals(m.get(150)) && "A2".equals(m.get(11));
                d1New |= "0".equals(m.get(150)) && "D1".equals(m.get(11));
            }
            assertEquals(Exchange.FUNDING_COMMANDS + 5, journalLength(dataDir),
                "the order that waited in the socket journalled once space returned");

            setFree(20 * MIB);
            awaitLog("paused: ", 2);
            final long storeAtStop = outboundLastIndex(dataDir);
            stop = true;
            loop.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!loop.isAlive(), "the gateway stopped");
            assertEquals(null, failure.get());
            final List<String> types = new ArrayList<>();
            try {
                while (true) {
                    types.add(client.next().type());
                }
            } catch (final IOException closed) {
                // the gateway closed the connection
            }
            assertTrue(!types.contains("5"), "no Logout stored or sent on a full disk: " + types);
            assertEquals(storeAtStop, outboundLastIndex(dataDir), "nothing stored at the stop");
            awaitLog("connections closed without a Logout", 1);
        } finally {
            stop = true;
            loop.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    @Test
    void theReserveIsReadFromTheGatewayFileWithTheDefaultWhenAbsentAndABadSizeRefused() throws Exception {
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), tmp.resolve("engine.yaml"));
        final String base = "engineConfig: engine.yaml\nsessions:\n  - {senderCompId: STORE, account: 4}\n";
        Files.writeString(tmp.resolve("a.yaml"), base);
        assertEquals(StorageGuard.DEFAULT_RESERVE, GatewayConfig.load(tmp.resolve("a.yaml")).storageReserve());
        Files.writeString(tmp.resolve("b.yaml"), "storageReserve: 64MiB\n" + base);
        assertEquals(64 * MIB, GatewayConfig.load(tmp.resolve("b.yaml")).storageReserve());
        Files.writeString(tmp.resolve("c.yaml"), "storageReserve: lots\n" + base);
        final Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> GatewayConfig.load(tmp.resolve("c.yaml")));
        assertTrue(e.getMessage().contains("storageReserve"), e.getMessage());
    }

    /** Gateway and engine on this thread, as the allocation test runs them; the gateway's free space is the test's. */
    private void run(final Path dataDir, final AtomicReference<Integer> port, final AtomicReference<Throwable> failure) {
        try {
            // Account 4 pays for its orders (the FUNDS check): deposits journalled first, answered first.
            Exchange.fund(dataDir, tmp.resolve("engine.yaml"));
            final DataDirectory data = DataDirectory.open(dataDir);
            final EngineService engine = new EngineService(data, EngineConfigFile.load(tmp.resolve("engine.yaml")), 0, log::add);
            engine.storageReserve(0);
            final StorageGuard guard = new StorageGuard(dataDir, RESERVE, () -> {
                final long value = free.get();
                reads.incrementAndGet();
                return value;
            });
            final Gateway gateway = new Gateway(GatewayConfig.load(tmp.resolve("gateway.yaml")), 1, 0, data, log::add, guard);
            port.set(gateway.port());
            try {
                while (!stop) {
                    gateway.doWork();
                    engine.poll();
                    passes.incrementAndGet();
                }
            } finally {
                gateway.close();
                engine.close();
            }
        } catch (final Throwable e) {
            failure.set(e);
        }
    }

    /** Sets the free space and waits until the gateway has read it (a reading begun after the change). */
    private void setFree(final long bytes) throws Exception {
        free.set(bytes);
        final long after = reads.get() + 2;
        Await.until("the gateway reads the free space", 30, () -> reads.get() >= after);
    }

    private void awaitLog(final String text, final int times) throws Exception {
        try {
            Await.until("'" + text + "' logged " + times + " times", 30, () -> log.stream().filter(l -> l.contains(text)).count() >= times);
        } catch (final AssertionError e) {
            fail(e.getMessage() + ":\n" + String.join("\n", log));
        }
    }

    private static void send(final RawFixClient client, final String type, final String fields) throws IOException {
        client.send(type, fields);
        client.flush();
    }

    private static String order(final String id, final String price) {
        return "11=" + id + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=" + price + "\u000160=" + NOW + "\u0001";
    }

    private static String cancel(final String id, final String orig) {
        return "11=" + id + "\u000141=" + orig + "\u000155=ACME\u000154=1\u000160=" + NOW + "\u0001";
    }

    private static long journalLength(final Path dataDir) {
        try (SingleChronicleQueue q = DataDirectory.openReadOnly(dataDir).commands()) {
            return q.entryCount();
        }
    }

    private static long eventsLastIndex(final Path dataDir) {
        try (SingleChronicleQueue q = DataDirectory.openReadOnly(dataDir).events()) {
            return q.lastIndex();
        }
    }

    private static long outboundLastIndex(final Path dataDir) {
        try (SingleChronicleQueue q = DataDirectory.openReadOnly(dataDir).gatewayOutbound(1)) {
            final long last = q.lastIndex();
            assertNotEquals(-1, last);
            return last;
        }
    }

    /** As bin/admin would: a command of gateway 0 whose results (A2 Canceled) are for this gateway's session. */
    private static void appendMassCancelOfAccount4(final Path dataDir) {
        try (SingleChronicleQueue q = DataDirectory.open(dataDir).commands()) {
            final Hops hops = new Hops();
            hops.gatewayReadNanos = System.nanoTime();
            CommandCodec.append(q.createAppender(), new Command().massCancel(4, Command.ALL_SYMBOLS), hops);
        }
    }
}
