package io.chronex.monitor;

import io.chronex.api.Command;
import io.chronex.api.Side;
import io.chronex.engine.process.EngineMain;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.Hops;
import io.chronex.replay.Admin;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.Tool;
import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real engine process answers a journal of known commands; {@code monitor --once} on the data
 * directory shows the known counts, non-zero hop percentiles, ACME's best bid and ask and the
 * rejects, then, after a kill -9, the engine as gone; and reading changes no file of the directory.
 */
class MonitorEndToEndTest {
    /** The commands of the story below. */
    private static final int COMMANDS = 6;
    /** Before them, config/demo-funding.admin's deposits (accounts 1-4 and 101-108, 3 assets each): FUNDS is on. */
    private static final int FUNDING = 36;

    @TempDir
    Path tmp;
    private final ChildJvm jvms = new ChildJvm();

    @AfterEach
    void stop() {
        jvms.close();
    }

    /**
     * The funding's deposits, then ACME (id 1, priceScale 100) of config/engine.yaml: a trade of 3 at 100.00 leaves bid 7@100.00
     * and ask 4@100.50; two rejects.
     */
    private static void journal(final DataDirectory data) {
        try {
            Admin.journal(data, ProjectRoot.resolve("config/demo-funding.admin"), ProjectRoot.resolve("config/engine.yaml"));
        } catch (final ConfigYaml.ConfigException e) {
            throw new IllegalStateException(e);
        }
        final Command c = new Command();
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            append(appender, c.limit(1, 1, 1, Side.BUY, 10_000, 10), hops);
            append(appender, c.limit(1, 1, 2, Side.BUY, 9_990, 5), hops);
            append(appender, c.limit(2, 1, 3, Side.SELL, 10_050, 4), hops);
            append(appender, c.limit(2, 1, 4, Side.SELL, 10_000, 3), hops);
            append(appender, c.limit(2, 99, 5, Side.SELL, 10_000, 3), hops);
            append(appender, c.cancel(2, 12_345), hops);
        }
    }

    private static void append(final ExcerptAppender appender, final Command c, final Hops hops) {
        hops.clear();
        hops.gatewayId = 0;
        hops.gatewayReadNanos = System.nanoTime();
        hops.receiptEpochNanos = System.currentTimeMillis() * 1_000_000L;
        CommandCodec.append(appender, c, hops);
    }

    private static String once(final Path data, final String... more) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<String> argv = new ArrayList<>(List.of("--data-dir", data.toString(), "--once", "--config",
            ProjectRoot.resolve("config/engine.yaml").toString()));
        argv.addAll(List.of(more));
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Tool.exitCode("monitor", Monitor.USAGE, () -> Monitor.run(argv.toArray(String[]::new), out));
        }
        final String block = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, block);
        return block;
    }

    @Test
    void showsWhatTheEngineAnsweredAndThatItIsGone() throws Exception {
        final Path dataDir = tmp.resolve("data");
        final DataDirectory data = DataDirectory.open(dataDir);
        journal(data);
        final Path log = tmp.resolve("engine.out");
        final Process engine = jvms.start(EngineMain.class.getName(), List.of("--data-dir", dataDir.toString(), "--config",
            ProjectRoot.resolve("config/engine.yaml").toString(), "--idle", "backoff", "--snapshot-every", "0"), log);
        awaitEvents(data, FUNDING + COMMANDS, engine, log);

        final String running = once(dataDir);
        // The engine recorded its configuration in the journal: without --config, the same names and prices in decimals.
        final ByteArrayOutputStream plain = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(plain, true, StandardCharsets.UTF_8)) {
            assertEquals(0, Tool.exitCode("monitor", Monitor.USAGE, () -> Monitor.run(new String[] {"--data-dir", dataDir.toString(),
                "--once"}, out)));
        }
        assertTrue(Pattern.compile("ACME +7@100\\.00 \\(1\\) +4@100\\.50 \\(1\\) +2 +1").matcher(plain.toString(StandardCharsets.UTF_8))
            .find(), plain::toString);
        assertTrue(running.contains("engine   alive (pid " + engine.pid() + ")"), running);
        assertTrue(running.contains("commands in " + (FUNDING + 6) + ", events out " + (FUNDING + 6)), running);
        assertTrue(running.contains("backlog  0 commands"), running);
        assertTrue(running.contains("accepted " + (FUNDING + 4) + ", rejected 2: UNKNOWN_SYMBOL 1, UNKNOWN_ORDER 1"), running);
        assertTrue(running.contains("ACME     1 trades, volume 3"), running);
        assertTrue(Pattern.compile("ACME +7@100\\.00 \\(1\\) +4@100\\.50 \\(1\\) +2 +1").matcher(running).find(), running);
        for (final String hop : List.of("gateway", "journal", "match", "events", "total")) {
            final Matcher m = Pattern.compile("\\n  " + hop + " +(\\d+) +([0-9.]+) +([0-9.]+) +([0-9.]+) +([0-9.]+) +([0-9.]+)\\n")
                .matcher(running);
            assertTrue(m.find(), hop + " line in\n" + running);
            assertEquals(FUNDING + COMMANDS, Integer.parseInt(m.group(1)), hop + " count in\n" + running);
            assertTrue(Double.parseDouble(m.group(6)) > 0, hop + " max is 0 in\n" + running);
        }

        engine.destroyForcibly();
        assertTrue(engine.waitFor(30, TimeUnit.SECONDS));
        final Map<String, String> before = files(dataDir);
        final String gone = once(dataDir);
        assertTrue(gone.contains("engine   GONE (pid " + engine.pid()), gone);
        assertTrue(gone.contains("ENGINE GONE"), gone);
        assertTrue(gone.contains("commands in " + (FUNDING + 6) + ", events out " + (FUNDING + 6)), gone);
        assertEquals(before, files(dataDir), "the monitor changed a file of the data directory");
    }

    @Test
    void opensNothingForWritingAndCreatesNoDirectory() {
        final Path missing = tmp.resolve("no-such-data");
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final String[] argv = {"--data-dir", missing.toString(), "--once"};
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        final int exit = Tool.exitCode("monitor", Monitor.USAGE, () -> Monitor.run(argv, out));
        assertEquals(2, exit);
        assertFalse(Files.exists(missing), "a reader must not create the data directory");

        final DataDirectory writer = DataDirectory.open(tmp.resolve("data"));
        journal(writer);
        final DataDirectory reader = DataDirectory.openReadOnly(writer.root());
        try (SingleChronicleQueue commands = reader.commands()) {
            assertThrows(RuntimeException.class, commands::createAppender, "a read-only queue must refuse to append");
        }
    }

    @Test
    void aDirectoryWithoutQueuesYetIsReadAsEmptyAndMistakesAreUsageErrors() throws IOException {
        final Path dataDir = DataDirectory.open(tmp.resolve("fresh")).root();
        final Map<String, String> before = files(dataDir);
        final String block = once(dataDir);
        assertTrue(block.contains("commands in 0, events out 0"), block);
        assertTrue(block.contains("engine   not running (no pid file)"), block);
        assertEquals(before, files(dataDir), "the monitor created or changed a file");

        assertEquals(2, exitCode("--data-dir", dataDir.toString(), "--interval", "5x"));
        assertEquals(2, exitCode("--data-dir", dataDir.toString(), "--alert-backlog-ms", "-1"));
        assertEquals(2, exitCode("--data-dir", dataDir.toString(), "--bogus"));
        assertEquals(2, exitCode("--data-dir", dataDir.toString(), "--http", "nonsense"));
        assertEquals(2, exitCode("--data-dir", dataDir.toString(), "--http", "127.0.0.1:70000"));
        assertEquals(2, exitCode("--data-dir", dataDir.toString(), "--http", "127.0.0.1:0", "--once"));
        // A port another process holds: a clear refusal at start, not a monitor without its page.
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(2, exitCode("--data-dir", dataDir.toString(), "--http", "127.0.0.1:" + taken.getLocalPort()));
        }
        assertEquals(0, exitCode("--help"));
        assertEquals(1_500_000_000L, Monitor.interval("1.5s"));
        assertEquals(250_000_000L, Monitor.interval("250ms"));
    }

    @Test
    void onceReadsPastItsBatchesAndCountsAnUnansweredJournalAsBacklog() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("unanswered"));
        final int count = 25_001; // more than two of the monitor's 10,000-excerpt batches
        final Command c = new Command();
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 1; i <= count; i++) {
                append(appender, c.limit(1, 1, i, Side.BUY, 9_000, 1), hops);
            }
        }
        final String block = once(data.root());
        assertTrue(block.contains("commands in 25001, events out 0"), block);
        assertTrue(block.contains("backlog  25001 commands"), block);
        assertTrue(block.contains("ENGINE NOT RUNNING with 25001 commands waiting"), block);
    }

    /** 4 KiB zeroed in the middle of the journal: --once names the queue and the unreadable indices, and exits 1. */
    @Test
    void onceReportsAStretchOfTheJournalThatCannotBeRead() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("damaged"));
        final Command c = new Command();
        final Hops hops = new Hops();
        final long middle;
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 1; i <= 20_000; i++) {
                append(appender, c.limit(1, 1, i, Side.BUY, 9_000, 1), hops);
            }
            final net.openhft.chronicle.queue.ExcerptTailer tailer = commands.createTailer();
            assertTrue(tailer.moveToIndex(commands.lastIndex()));
            try (net.openhft.chronicle.wire.DocumentContext dc = tailer.readingDocument()) {
                middle = dc.wire().bytes().readPosition() / 2;
            }
        }
        final Path file;
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(data.root().resolve("commands"))) {
            file = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(middle);
            raf.write(new byte[4096]);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Tool.exitCode("monitor", Monitor.USAGE, () -> Monitor.run(new String[] {"--data-dir", data.root().toString(), "--once"},
                out));
        }
        final String block = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, block);
        assertTrue(block.contains("QUEUE DAMAGED: " + data.root().resolve("commands") + ": excerpts from index 0x"), block);
        assertTrue(block.contains("storage  "), block);
        assertEquals(0, exitCode("--data-dir", data.root().toString(), "--once", "--storage-reserve", "12 parsecs") - 2,
            "a size that is not one is a usage error");
    }

    private static int exitCode(final String... argv) {
        final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return Tool.exitCode("monitor", Monitor.USAGE, () -> Monitor.run(argv, out));
    }

    /** Waits until the events queue holds {@code count} excerpts; fails if the engine ends first or 60 s pass. */
    private static void awaitEvents(final DataDirectory data, final int count, final Process engine, final Path log) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int seen = 0;
        // Opened read-only once the engine has created it, as the monitor does.
        while (!data.hasQueue("events")) {
            check(engine, log, deadline, seen, count);
            TimeUnit.MILLISECONDS.sleep(10); // poll interval; the deadline bounds the wait
        }
        try (SingleChronicleQueue events = DataDirectory.openReadOnly(data.root()).events()) {
            final ExcerptTailer tailer = events.createTailer();
            while (seen < count) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (dc.isPresent()) {
                        seen++;
                        continue;
                    }
                }
                check(engine, log, deadline, seen, count);
                TimeUnit.MILLISECONDS.sleep(10); // poll interval; the deadline bounds the wait
            }
        }
    }

    private static void check(final Process engine, final Path log, final long deadline, final int seen, final int count)
        throws IOException {
        if (!engine.isAlive()) {
            fail("the engine ended before answering:\n" + Files.readString(log));
        }
        if (System.nanoTime() > deadline) {
            fail(seen + " of " + count + " events after 60 s:\n" + Files.readString(log));
        }
    }

    /** Every file under {@code dir} with its size, modification time and content hash. */
    private static Map<String, String> files(final Path dir) throws IOException {
        final Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (final Path p : walk.filter(Files::isRegularFile).toList()) {
                final BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                files.put(dir.relativize(p).toString(), a.size() + " " + a.lastModifiedTime().toMillis() + " "
                    + Arrays.hashCode(Files.readAllBytes(p)));
            }
        }
        return files;
    }
}
