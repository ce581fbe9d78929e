package io.chronex.gateway;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.engine.process.EngineService;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.replay.Admin;
import io.chronex.testing.Await;
import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.core.time.SetTimeProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway over three days, engine and gateway in this JVM on queues whose clock the test moves: each day's first event
 * leaves a checkpoint, and with the first day of both queues archived the gateway starts from its checkpoint without
 * reading it. What it rebuilt is what the spec of each answer needs: an order that took liquidity on the first day and
 * rests is filled on the third with AvgPx over both days' fills and its own ClOrdID, an order of the first day is
 * cancelled by its ClOrdID, a PossDup copy of a second-day order is still refused, and the gateway's FIX market data
 * shows the book the first two days left; clordids.table is still checked (against the checkpoint's ClOrdIDs), and a
 * gateway that never served before the archive starts. Without its checkpoint the start is refused rather than rebuilt
 * from a history missing a day.
 */
class GatewayCheckpointTest {
    private static final String NOW = "20261123-10:00:00";
    private static final String DUP = "43=Y\u0001122=20261123-10:00:00.000\u0001";

    @TempDir
    Path tmp;
    private final Queue<String> log = new ConcurrentLinkedQueue<>();
    /** Three days ago: the days the test makes are all before today, which bin/admin archive never moves. */
    private final SetTimeProvider clock = new SetTimeProvider(Instant.now().minus(3, java.time.temporal.ChronoUnit.DAYS));
    private final ChildJvm jvms = new ChildJvm();

    @AfterEach
    void stopEverything() {
        jvms.killAll();
    }
    private volatile boolean stop;

    @Test
    void aGatewayStartsFromItsCheckpointWithTheFirstDayArchived() throws Exception {
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), tmp.resolve("engine.yaml"));
        Files.writeString(tmp.resolve("gateway.yaml"), "port: 0\nengineConfig: engine.yaml\nsessions:\n"
            + "  - {senderCompId: BUYER, account: 4, marketData: true}\n  - {senderCompId: SELLER, account: 1}\n"
            + "  - {senderCompId: LATER, account: 2, gateway: 2}\n");
        final Path dataDir = tmp.resolve("data");
        Admin.journal(DataDirectory.open(dataDir).withClock(clock), ProjectRoot.resolve("config/demo-funding.admin"),
            tmp.resolve("engine.yaml"));

        // Day 1: B1 buys 5 at 100.00, takes the 2 offered at 99.00 and rests 3; B2 rests at 90.00.
        day(dataDir, false, port -> {
            try (RawFixClient buyer = client("BUYER", port); RawFixClient seller = client("SELLER", port)) {
                send(seller, "D", order("S1", "2", "99.00", '2'));
                assertEquals("0", seller.expect("8").get(150));
                send(buyer, "D", order("B1", "5", "100.00", '1'));
                assertEquals("0", buyer.expect("8").get(150), "B1 accepted");
                final RawFixClient.Msg partial = buyer.expect("8");
                assertEquals("F", partial.get(150), partial.toString());
                assertEquals("99", partial.get(6), "AvgPx after the first fill: " + partial);
                send(buyer, "D", order("B2", "1", "90.00", '1'));
                assertEquals("0", buyer.expect("8").get(150), "B2 rests");
            }
        });
        final Path checkpoint = dataDir.resolve("gateways/1/" + ReaderCheckpoint.FILE);
        assertTrue(Files.exists(checkpoint), "a stop leaves a checkpoint");

        // Day 2: one more order; its event is the day's first, so a checkpoint is taken on it while serving.
        nextDay();
        log.clear();
        day(dataDir, true, port -> {
            try (RawFixClient buyer = client("BUYER", port)) {
                send(buyer, "D", order("B3", "1", "91.00", '1'));
                assertEquals("0", buyer.expect("8").get(150), "B3 rests");
                final long today = TimeUnit.MILLISECONDS.toDays(clock.currentTimeMillis());
                Await.until("a checkpoint through an event of the second day, taken while serving:\n" + log, 30,
                    () -> log.stream().anyMatch(l -> l.startsWith("checkpoint through events index ")
                        && ArchivedCycles.cycleOfIndex(Long.parseLong(l.split(" ")[4], 16)) == today));
            }
        });

        // Day 3: bin/admin archive moves the first day of both queues (the gateway's checkpoint is on the second).
        nextDay();
        final String secondDay = LocalDate.ofEpochDay(TimeUnit.MILLISECONDS.toDays(clock.currentTimeMillis()) - 1).toString();
        final Process admin = jvms.start(Admin.class.getName(), List.of("--data-dir", dataDir.toString(), "archive", "--before",
            secondDay), tmp.resolve("archive.log"));
        assertTrue(admin.waitFor(120, TimeUnit.SECONDS), "bin/admin archive ends");
        final String archiveOut = Files.readString(tmp.resolve("archive.log"));
        assertEquals(0, admin.exitValue(), archiveOut);
        assertTrue(archiveOut.contains("RESULT archived=2 "), "the first day of the journal and of the events: " + archiveOut);
        final String firstDay = ArchivedCycles.ofDataDirectory(dataDir).cycles().get(0).file();
        // The ClOrdIDs the checkpoint holds are what clordids.table is checked against: without the table, refused.
        final Path table = dataDir.resolve("gateways/1/clordids.table");
        Files.move(table, tmp.resolve("clordids.table"));
        final IllegalStateException noTable = assertThrows(IllegalStateException.class, () -> new Gateway(
            GatewayConfig.load(tmp.resolve("gateway.yaml")), 1, 0, DataDirectory.open(dataDir).withClock(clock), log::add).close());
        assertTrue(noTable.getMessage().contains("disagrees with the journal: 3 of the 3 live orders"), noTable.getMessage());
        Files.move(tmp.resolve("clordids.table"), table, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // A gateway that never served before the archive needs none of the archived days: it starts at the events' end.
        final Gateway later = new Gateway(GatewayConfig.load(tmp.resolve("gateway.yaml")), 2, 0,
            DataDirectory.open(dataDir).withClock(clock), log::add);
        later.close();
        log.clear();
        day(dataDir, false, port -> {
            try (RawFixClient buyer = client("BUYER", port); RawFixClient seller = client("SELLER", port)) {
                final String recovered = log.stream().filter(l -> l.startsWith("recovered in")).findFirst().orElseThrow();
                assertTrue(recovered.contains("from the checkpoint through events index"), recovered);
                // B1's other 3 at 100.00: AvgPx (2 x 99 + 3 x 100) / 5 = 99.6, with B1's ClOrdID from the first day.
                send(seller, "D", order("S2", "3", "100.00", '2'));
                RawFixClient.Msg fill;
                do {
                    fill = buyer.expect("8");
                } while (!"F".equals(fill.get(150)));
                assertEquals("2", fill.get(39), "B1 filled: " + fill);
                assertEquals("B1", fill.get(11), fill.toString());
                assertEquals("5", fill.get(14), "CumQty: " + fill);
                assertEquals("99.6", fill.get(6), "AvgPx over both days' fills: " + fill);
                // B2, journalled on the archived day, cancelled by its ClOrdID.
                send(buyer, "F", "11=C2\u000141=B2\u000155=ACME\u000154=1\u000160=" + NOW + "\u0001");
                final RawFixClient.Msg cancelled = buyer.expect("8");
                assertEquals("4", cancelled.get(150), cancelled.toString());
                assertEquals("B2", cancelled.get(41), cancelled.toString());
                // A PossDup copy of B3 (second day) is refused as the duplicate it is.
                send(buyer, "D", DUP + order("B3", "1", "91.00", '1'));
                final RawFixClient.Msg dup = buyer.expect("8");
                assertTrue(dup.get(58).startsWith("possible duplicate (PossDupFlag=Y)"), dup.toString());
                // The book as the first two days left it: B3 bids 91.00 (B1 filled, B2 cancelled).
                send(buyer, "V", "262=MD1\u0001263=0\u0001264=0\u0001267=2\u0001269=0\u0001269=1\u0001146=1\u000155=ACME\u0001");
                final RawFixClient.Msg book = buyer.expect("W");
                assertEquals("1", book.get(268), "one level: " + book);
                assertEquals("91", book.get(270), book.toString());
            }
        });
        assertFalse(Files.exists(dataDir.resolve("commands").resolve(firstDay)), "the first day is not back");

        // Its checkpoint gone while days are archived: refused, not rebuilt from a history missing its first day.
        Files.delete(checkpoint);
        final DataDirectory data = DataDirectory.open(dataDir).withClock(clock);
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> new Gateway(GatewayConfig.load(tmp.resolve("gateway.yaml")), 1, 0, data, log::add).close());
        assertTrue(refused.getMessage().contains("cannot be used (there is none), and days of the queues through"), refused.getMessage());
    }

    /** What a day's clients do, given the gateway's port. */
    private interface Clients {
        void trade(int port) throws Exception;
    }

    /**
     * Engine and gateway started on this day's clock, served on a thread of their own while {@code clients} trade, then
     * stopped as SIGTERM stops them (the gateway's close takes its checkpoint); with {@code snapshot}, an engine snapshot.
     */
    private void day(final Path dataDir, final boolean snapshot, final Clients clients) throws Exception {
        stop = false;
        final AtomicReference<Integer> port = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread loop = new Thread(() -> {
            final DataDirectory data = DataDirectory.open(dataDir).withClock(clock);
            try (EngineService engine = new EngineService(data, EngineConfigFile.load(tmp.resolve("engine.yaml")), 0, log::add)) {
                engine.recordConfiguration(EngineConfigFile.load(tmp.resolve("engine.yaml")), false);
                final Gateway gateway = new Gateway(GatewayConfig.load(tmp.resolve("gateway.yaml")), 1, 0, data, log::add);
                port.set(gateway.port());
                try {
                    while (!stop) {
                        if (gateway.doWork() + (engine.poll() ? 1 : 0) == 0) {
                            Thread.onSpinWait();
                        }
                    }
                } finally {
                    gateway.close();
                }
                if (snapshot) {
                    engine.snapshot();
                }
            } catch (final Throwable e) {
                failure.set(e);
            }
        }, "gateway-and-engine");
        loop.setDaemon(true);
        loop.start();
        try {
            Await.until("the gateway's port", 60, () -> {
                assertTrue(loop.isAlive() || port.get() != null, () -> "the gateway did not start: " + failure.get() + "\n" + log);
                return port.get() != null;
            });
            clients.trade(port.get());
        } finally {
            stop = true;
            loop.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertFalse(loop.isAlive(), "the day's loop ended");
        if (failure.get() != null) {
            throw new AssertionError("the day's loop failed:\n" + String.join("\n", log), failure.get());
        }
    }

    private void nextDay() {
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
    }

    private RawFixClient client(final String sender, final int port) throws Exception {
        final RawFixClient c = new RawFixClient(sender);
        c.connect(port, 0);
        c.logOn(true);
        return c;
    }

    private static void send(final RawFixClient client, final String type, final String fields) throws Exception {
        client.send(type, fields);
        client.flush();
    }

    private static String order(final String id, final String quantity, final String price, final char side) {
        return "11=" + id + "\u000155=ACME\u000154=" + side + "\u000138=" + quantity + "\u000140=2\u000144=" + price + "\u000159=1"
            + "\u000160=" + NOW + "\u0001";
    }
}
