package io.chronex.engine.process;

import io.chronex.testing.ChildJvm;
import io.chronex.queues.EngineConfigFile;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.api.OrderType;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.Hops;
import io.chronex.replay.JournalSummary;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * kill -9 of the engine process at random points while commands stream in, 20 times, restarting
 * it each time: every command is answered exactly once, and the results and final state equal an
 * uninterrupted run's. The engine is a real child JVM; nothing here asserts on time.
 */
class EngineKillTest {
    private static final int COMMANDS = 200_000;
    private static final int KILLS = 20;
    private static final String CONFIG = """
        riskChecks: all
        createAccountsOnFirstUse: true
        defaultAccount: {maxOpenOrders: 200, selfTradePrevention: CANCEL_RESTING}
        symbols:
          - {id: 1, tickSize: 1, lotSize: 1}
          - {id: 2, tickSize: 5, lotSize: 10, priceBandBasisPoints: 2000, referencePrice: 1000}
        """;

    @TempDir
    Path tmp;
    private final ChildJvm jvms = new ChildJvm();

    @AfterEach
    void stopEverything() throws InterruptedException {
        jvms.killAll();
    }

    /** A mixed stream on two symbols: resting and crossing orders, IOCs, cancels, moves, reduces, some rejects. */
    private static void fill(final Command c, final SplittableRandom random, final int i) {
        final long account = 1 + random.nextInt(30);
        final int symbol = 1 + random.nextInt(2);
        final long tick = symbol == 1 ? 1 : 5;
        final long lot = symbol == 1 ? 1 : 10;
        switch (random.nextInt(10)) {
            case 0 -> c.cancel(account, 1 + random.nextInt(i + 1));
            case 1, 2 -> c.move(account, 1 + random.nextInt(i + 1), tick * (190 + random.nextInt(21)));
            case 3 -> c.reduce(account, 1 + random.nextInt(i + 1), lot);
            default -> c.newOrder(account, symbol, i + 1, random.nextBoolean() ? Side.BUY : Side.SELL, OrderType.LIMIT,
                random.nextInt(8) == 0 ? TimeInForce.IOC : TimeInForce.GTC, tick * (190 + random.nextInt(21)),
                    lot * (1 + random.nextInt(9)));
        }
    }

    private static void append(final ExcerptAppender appender, final Command c, final Hops hops) {
        hops.clear();
        hops.gatewayAppendNanos = System.nanoTime();
        try (DocumentContext dc = appender.writingDocument()) {
            CommandCodec.write(dc.wire().bytes(), c, hops);
        }
    }

    Process startEngine(final Path dataDir, final Path config, final int run) throws IOException {
        return jvms.start(EngineMain.class.getName(),
            List.of("--data-dir", dataDir.toString(), "--config", config.toString(), "--idle", "backoff"),
            tmp.resolve("engine-" + run + ".log"));
    }

    /** Counts events excerpts as they appear, through one tailer kept across engine restarts. */
    private static long countNew(final ExcerptTailer tailer) {
        long count = 0;
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return count;
                }
                count++;
            }
        }
    }

    private static void waitUntil(final java.util.function.BooleanSupplier condition, final String what, final Process engine,
        final Path log)
        throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            if (!engine.isAlive()) {
                fail("the engine died while waiting for " + what + ":\n" + Files.readString(log));
            }
            if (System.nanoTime() > deadline) {
                fail("gave up waiting for " + what + ":\n" + Files.readString(log));
            }
            Thread.onSpinWait();
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    @Test
    void killNineAtRandomPointsLosesAndRepeatsNothing() throws Exception {
        final Path config = Files.writeString(tmp.resolve("engine.yaml"), CONFIG);
        final EngineConfig engineConfig = EngineConfigFile.load(config);
        final DataDirectory data = DataDirectory.open(tmp.resolve("killed"));

        killAndRestartWhileFed(data, config);

        final JournalSummary.Summary summary = JournalSummary.summarize(data);
        assertEquals(COMMANDS, summary.commands());
        assertEquals(COMMANDS, summary.answered(), summary.resultLine());
        assertEquals(0, summary.duplicates(), summary.resultLine());
        assertEquals(0, summary.missing(), summary.resultLine());
        assertSameAsAnUninterruptedRun(data, engineConfig);
        assertEquals(summary, JournalSummary.summarize(data), "reading twice gives the same summary");
        assertKillsLandedAtDifferentPoints();
        // And bin/audit verify re-executes the journal the kills left and finds every recorded result again.
        final java.io.ByteArrayOutputStream verify = new java.io.ByteArrayOutputStream();
        try (java.io.PrintStream out = new java.io.PrintStream(verify, true, java.nio.charset.StandardCharsets.UTF_8)) {
            assertEquals(0, io.chronex.replay.audit.Audit.exitCode(new String[] {"verify", "--data-dir", tmp.resolve("killed").toString(),
                "--config", config.toString()}, out), verify::toString);
        }
        // Every result compared: the commands' and the configuration record's.
        assertTrue(verify.toString().contains("RESULT verified=" + (COMMANDS + 1) + " mismatches=0 "), verify::toString);
    }

    /**
     * Streams the commands in from a feeder thread while the engine is started, killed at a random
     * point and restarted, KILLS times; then lets a last engine answer everything and stops it.
     */
    private void killAndRestartWhileFed(final DataDirectory data, final Path config) throws Exception {
        final SplittableRandom random = new SplittableRandom(2026);
        final AtomicReference<Throwable> feederFailure = new AtomicReference<>();
        final Thread feeder = startFeeder(data, feederFailure);
        long answered = 0;
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer eventsTailer = events.createTailer();
            for (int run = 0; run < KILLS; run++) {
                final Process engine = startEngine(data.root(), config, run);
                final long before = answered + countNew(eventsTailer);
                final long[] seen = {before};
                final Path log = tmp.resolve("engine-" + run + ".log");
                // Kill only once it is answering again, a random moment into its work; once everything is answered, once
                // it has started (its recovery line is what assertKillsLandedAtDifferentPoints reads).
                waitUntil(() -> logContains(log, "engine started")
                    && ((seen[0] += countNew(eventsTailer)) > before || !feeder.isAlive() && seen[0] >= COMMANDS),
                    "restart " + run + " to answer", engine, log);
                TimeUnit.MILLISECONDS.sleep(random.nextInt(150));
                engine.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                answered = seen[0] + countNew(eventsTailer);
            }
            feeder.join(TimeUnit.MINUTES.toMillis(3));
            if (feederFailure.get() != null) {
                throw new AssertionError("the feeder failed", feederFailure.get());
            }
            final Process last = startEngine(data.root(), config, KILLS);
            final long[] total = {answered};
            final Path lastLog = tmp.resolve("engine-" + KILLS + ".log");
            waitUntil(() -> (total[0] += countNew(eventsTailer)) >= COMMANDS, "the last commands", last, lastLog);
            // The killed runs may have answered everything already: a SIGTERM before the engine has taken over its
            // signals would meet the JVM's default action (exit 143), which is not the stop this case checks.
            waitUntil(() -> logContains(lastLog, "engine started"), "the last engine to start", last, lastLog);
            last.destroy();
            assertEquals(0, last.waitFor(30, TimeUnit.SECONDS) ? last.exitValue() : -1, "SIGTERM ends the engine cleanly");
            assertTrue(Files.readString(tmp.resolve("engine-" + KILLS + ".log")).contains("engine stopping"));
        }
    }

    private static boolean logContains(final Path log, final String text) {
        try {
            return Files.exists(log) && Files.readString(log).contains(text);
        } catch (final IOException e) {
            return false;
        }
    }

    /** Appends the whole stream, at up to 10,000 commands a second, on a thread of its own; a failure is left in failure. */
    private static Thread startFeeder(final DataDirectory data, final AtomicReference<Throwable> failure) {
        final Thread feeder = new Thread(() -> {
            final SplittableRandom commands = new SplittableRandom(7);
            final Command c = new Command();
            final Hops hops = new Hops();
            try (SingleChronicleQueue queue = data.commands()) {
                final ExcerptAppender appender = queue.createAppender();
                for (int i = 0; i < COMMANDS; i++) {
                    fill(c, commands, i);
                    append(appender, c, hops);
                    // ~20 s of arrivals, longer than the 20 restarts take, so most kills land mid-stream.
                    if (i % 1_000 == 999) {
                        TimeUnit.MILLISECONDS.sleep(100);
                    }
                }
            } catch (final Throwable t) {
                failure.set(t);
            }
        }, "feeder");
        feeder.start();
        return feeder;
    }

    /** How the answer to a configuration record reads (Result.toString). */
    private static final String CONFIGURATION_TAKEN;

    static {
        final io.chronex.api.Result taken = new io.chronex.api.Result();
        taken.answerConfiguration(true);
        CONFIGURATION_TAKEN = taken.toString();
    }

    /** The same journal, answered without interruption, in-process, must give the same results and state. */
    private void assertSameAsAnUninterruptedRun(final DataDirectory data, final EngineConfig engineConfig) throws Exception {
        final DataDirectory calm = DataDirectory.open(tmp.resolve("calm"));
        try (SingleChronicleQueue queue = calm.commands()) {
            final ExcerptAppender appender = queue.createAppender();
            final SplittableRandom commands = new SplittableRandom(7);
            final Command c = new Command();
            final Hops hops = new Hops();
            for (int i = 0; i < COMMANDS; i++) {
                fill(c, commands, i);
                append(appender, c, hops);
            }
        }
        final long calmHash;
        try (EngineService service = new EngineService(calm, engineConfig)) {
            while (service.poll()) {
                // drain
            }
            calmHash = service.stateHash();
        }
        final List<String> calmResults = new ArrayList<>();
        final List<String> killedResults = new ArrayList<>();
        EngineServiceTest.answeredIndices(calm, calmResults);
        EngineServiceTest.answeredIndices(data, killedResults);
        // bin/engine recorded its configuration in the journal at its first start (wherever the feeder had got to), and
        // answered the record: taken, once. The in-process run above was given no record.
        assertEquals(1, killedResults.stream().filter(r -> r.equals(CONFIGURATION_TAKEN)).count(), killedResults::toString);
        killedResults.remove(CONFIGURATION_TAKEN);
        assertEquals(calmResults.size(), killedResults.size());
        for (int i = 0; i < calmResults.size(); i++) {
            if (!calmResults.get(i).equals(killedResults.get(i))) {
                fail("result " + i + " differs after kills:\n" + killedResults.get(i) + "\nuninterrupted:\n" + calmResults.get(i));
            }
        }
        try (EngineService recovered = new EngineService(data, engineConfig)) {
            assertEquals(calmHash, recovered.stateHash(), "final state hash after 20 kills equals the uninterrupted run's");
        }
    }

    /** The kills must have landed at different points of the work, not all before or after it. */
    private void assertKillsLandedAtDifferentPoints() throws IOException {
        final java.util.Set<String> recoveryPoints = new java.util.HashSet<>();
        for (int run = 1; run <= KILLS; run++) {
            final java.util.regex.Matcher m = java.util.regex.Pattern.compile("recovered through journal index (\\S+)")
                .matcher(Files.readString(tmp.resolve("engine-" + run + ".log")));
            assertTrue(m.find(), "engine-" + run + ".log has no start line");
            recoveryPoints.add(m.group(1));
        }
        // Each restart answered something before it was killed, so while commands were still arriving
        // every restart recovers from a new point; only restarts after the feeder finished can repeat one.
        assertTrue(recoveryPoints.size() >= KILLS / 2, "restarts recovered from only " + recoveryPoints.size() + " distinct points");
    }
}
