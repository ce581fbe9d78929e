package io.chronex.replay;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bin/admin: every command parses to the engine command it names, mistakes journal nothing, answers are waited for. */
class AdminTest {
    private static final SymbolSpec ACME = new SymbolSpec(1, "ACME", 100, 1, 1, 0, 2500);
    private static final SymbolSpec GLOBEX = new SymbolSpec(2, "GLOBEX", 1000, 5, 10, 0, 0);
    private static final EngineConfig CONFIG = new EngineConfig(List.of(ACME, GLOBEX),
        List.of(new AccountSpec(1, 0, 0, 0, SelfTradePrevention.OFF)), RiskCheck.all(), false, null,
        List.of(new AssetSpec(1, "USD", 2), new AssetSpec(2, "ACME", 0)));

    @TempDir
    Path tmp;

    private static Command parse(final String... words) throws Exception {
        return Admin.parse(List.of(words), () -> CONFIG);
    }

    @Test
    void everyCommandParsesToItsEngineCommand() throws Exception {
        assertEquals(new Command().symbolCommand(CommandType.HALT, 1).toString(), parse("halt", "ACME").toString());
        assertEquals(new Command().symbolCommand(CommandType.HALT, 2).toString(), parse("halt", "2").toString());
        assertEquals(new Command().symbolCommand(CommandType.RESUME, 2).toString(), parse("resume", "GLOBEX").toString());
        assertEquals(new Command().accountCommand(CommandType.KILL_SWITCH_ON, 7).toString(), parse("kill-switch", "7", "on").toString());
        assertEquals(new Command().accountCommand(CommandType.KILL_SWITCH_OFF, 7).toString(), parse("kill-switch", "7", "off").toString());
        assertEquals(new Command().symbolCommand(CommandType.END_OF_DAY, 0).toString(), parse("end-of-day").toString());
        assertEquals(new Command().symbolCommand(CommandType.END_OF_DAY, 1).toString(), parse("end-of-day", "ACME").toString());
        assertEquals(CommandType.SNAPSHOT, parse("snapshot").type);
        assertEquals(new Command().setReferencePrice(1, 2550).toString(), parse("reference-price", "ACME", "25.50").toString());
        assertEquals(new Command().setReferencePrice(1, 2500).toString(), parse("reference-price", "ACME", "25").toString());
        assertEquals(new Command().setReferencePrice(2, 12_345).toString(), parse("reference-price", "GLOBEX", "12.345").toString());
        assertEquals(new Command().setAccountLimits(9, 1000, 0, 50, SelfTradePrevention.CANCEL_BOTH).toString(),
            parse("limits", "9", "maxOrderQuantity=1000", "maxOrderNotional=0", "maxOpenOrders=50", "selfTradePrevention=cancel-both")
                .toString());
    }

    @Test
    void moneyCommandsParseWithTheirAssetsDecimalsAndReference() throws Exception {
        assertEquals(new Command().money(CommandType.DEPOSIT, 3, 1, 1_000_050, 77).toString(),
            Admin.parse(List.of("deposit", "3", "USD", "10000.50"), "77", () -> CONFIG).toString());
        assertEquals(new Command().money(CommandType.WITHDRAW, 3, 2, 40, 78).toString(),
            Admin.parse(List.of("withdraw", "3", "ACME", "40"), "78", () -> CONFIG).toString());
        assertEquals(new Command().money(CommandType.ADJUST, 3, 1, -50, 79).toString(),
            Admin.parse(List.of("adjust", "3", "USD", "-0.50"), "79", () -> CONFIG).toString());
        for (final String[] wrong : new String[][] {
            {"deposit", "3", "USD", "10.001"}, {"deposit", "3", "EUR", "1"}, {"deposit", "3", "USD", "0"}, {"withdraw", "3", "USD", "-1"},
            {"adjust", "3", "USD", "0.00"}, {"deposit", "3", "USD"}, {"deposit", "3", "USD", "ten"},
            {"deposit", "3", "USD", "99999999999999999999"}}) {
            assertThrows(Args.UsageException.class, () -> Admin.parse(List.of(wrong), "5", () -> CONFIG), String.join(" ", wrong));
        }
        final Args.UsageException noRef = assertThrows(Args.UsageException.class,
            () -> Admin.parse(List.of("deposit", "3", "USD", "1"), null, () -> CONFIG));
        assertTrue(noRef.getMessage().contains("--ref"), noRef.getMessage());
        assertThrows(Args.UsageException.class, () -> Admin.parse(List.of("deposit", "3", "USD", "1"), "0", () -> CONFIG));
        assertThrows(Args.UsageException.class, () -> Admin.parse(List.of("halt", "ACME"), "5", () -> CONFIG));
    }

    @Test
    void mistakesAreUsageErrors() {
        final String[][] bad = {
            {}, {"frobnicate"}, {"halt"}, {"halt", "NOPE"}, {"halt", "3"}, {"halt", "ACME", "GLOBEX"}, {"kill-switch", "1"},
            {"kill-switch", "1", "maybe"}, {"kill-switch", "x", "on"}, {"kill-switch", "0", "on"}, {"end-of-day", "ACME", "GLOBEX"},
            {"snapshot", "now"}, {"reference-price", "ACME"}, {"reference-price", "ACME", "25.501"}, {"reference-price", "ACME", "-1"},
            {"reference-price", "ACME", "0"}, {"reference-price", "ACME", "1e3"}, {"reference-price", "ACME", "abc"},
            {"limits", "1", "maxOrderQuantity=1"}, {"limits", "1", "maxOrderQuantity=1", "maxOrderNotional=0", "maxOpenOrders=0",
                "selfTradePrevention=SOMETIMES"}, {"limits", "1", "maxOrderQuantity=-1", "maxOrderNotional=0", "maxOpenOrders=0",
                "selfTradePrevention=OFF"}, {"limits", "1", "colour=red"}, {"limits"},
        };
        for (final String[] words : bad) {
            assertThrows(Args.UsageException.class, () -> parse(words), () -> String.join(" ", words));
        }
    }

    @Test
    void usageErrorsExitTwoAndJournalNothing() throws Exception {
        final Path dir = tmp.resolve("data");
        DataDirectory.open(dir);
        final Path config = writeConfig();
        for (final String[] words : new String[][] {{"halt", "NOPE"}, {"reference-price", "ACME", "1.001"}, {"frobnicate"}}) {
            final List<String> argv = new ArrayList<>(List.of("--data-dir", dir.toString(), "--config", config.toString()));
            argv.addAll(List.of(words));
            assertEquals(2, exitCode(argv.toArray(String[]::new), new ByteArrayOutputStream()), String.join(" ", words));
        }
        assertEquals(List.of(), journal(DataDirectory.open(dir)));
    }

    /**
     * Once the journal records the engine's configuration, names come from it: a file with ACME and GLOBEX swapped is
     * refused with the difference (exit 2, nothing journalled), where before it halted GLOBEX for "halt ACME".
     */
    @Test
    void aFileThatDiffersFromTheJournalsConfigurationIsRefused() throws Exception {
        final Path dir = tmp.resolve("data");
        final Path config = writeConfig();
        try (SingleChronicleQueue commands = DataDirectory.open(dir).commands()) {
            ConfigRecord.append(commands.createAppender(), ConfigRecord.Kind.INITIAL, 1,
                EngineConfigFile.text(EngineConfigFile.load(config)));
        }
        final Path swapped = Files.writeString(tmp.resolve("swapped.yaml"), Files.readString(config).replace("name: ACME", "name: X")
            .replace("name: GLOBEX", "name: ACME").replace("name: X", "name: GLOBEX"));
        final PrintStream err = System.err;
        final ByteArrayOutputStream said = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream capture = new PrintStream(said, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            exit = exitCode(new String[] {"--data-dir", dir.toString(), "--config", swapped.toString(), "halt", "ACME"},
                new ByteArrayOutputStream());
        } finally {
            System.setErr(err);
        }
        assertEquals(2, exit, said::toString);
        final String text = said.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("is not the configuration the journal of " + dir + " records"), text);
        assertTrue(text.contains("  symbol ACME (1): name ACME -> GLOBEX"), text);
        try (SingleChronicleQueue commands = DataDirectory.open(dir).commands()) {
            assertEquals(1, commands.entryCount(), "only the configuration record: nothing journalled");
        }
    }

    /** Below a quarter of the storage reserve (here: a reserve far larger than any disk) nothing is journalled: exit 1, saying why. */
    @Test
    void aDiskAllButFullJournalsNothing() throws Exception {
        final Path dir = tmp.resolve("data");
        DataDirectory.open(dir);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream err = System.err;
        final ByteArrayOutputStream said = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream capture = new PrintStream(said, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            exit = exitCode(new String[] {"--data-dir", dir.toString(), "--config", writeConfig().toString(), "--storage-reserve",
                "1000000GiB", "halt", "ACME"}, out);
        } finally {
            System.setErr(err);
        }
        assertEquals(1, exit, out.toString(StandardCharsets.UTF_8) + said.toString(StandardCharsets.UTF_8));
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("not journalled: free space on the filesystem of " + dir),
            said.toString(StandardCharsets.UTF_8));
        assertTrue(journal(DataDirectory.open(dir)).isEmpty(), "nothing journalled");
    }

    @Test
    void aMissingDataDirectoryIsAnErrorAndIsNotCreated() {
        final Path dir = tmp.resolve("nowhere");
        assertEquals(2, exitCode(new String[] {"--data-dir", dir.toString(), "--config", writeConfig().toString(), "snapshot"},
            new ByteArrayOutputStream()));
        assertFalse(Files.exists(dir));
    }

    @Test
    void withNoEngineTheCommandIsJournalledAndTheToolSaysSo() throws Exception {
        final Path dir = tmp.resolve("data");
        DataDirectory.open(dir);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream oldErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        final int code;
        try {
            code = exitCode(new String[] {"--data-dir", dir.toString(), "--config", writeConfig().toString(), "--timeout", "200ms",
                "halt", "ACME"}, new ByteArrayOutputStream());
        } finally {
            System.setErr(oldErr);
        }
        assertEquals(1, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no engine answered within 200ms: is bin/engine running on this data "
            + "directory? The command is journalled"), err.toString(StandardCharsets.UTF_8));
        final List<Journalled> journal = journal(DataDirectory.open(dir));
        assertEquals(1, journal.size());
        assertEquals(CommandType.HALT, journal.get(0).command.type);
        assertEquals(1, journal.get(0).command.symbol);
        assertEquals(0, journal.get(0).gatewayId);
        assertEquals(0, journal.get(0).sessionId);
        assertTrue(journal.get(0).receiptEpochNanos > 0);
        assertEquals(System.getProperty("user.name") + "@" + java.net.InetAddress.getLocalHost().getHostName(), journal.get(0).operator,
            "the operator journalled with the command");
    }

    /** The real engine core, answering the journal in another thread the way bin/engine does (one command, one event). */
    @Test
    void theEnginesAnswerIsPrintedAndDecidesTheExitCode() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = DataDirectory.open(dir);
        final AtomicBoolean stop = new AtomicBoolean();
        final Thread engine = new Thread(() -> runEngine(data, stop), "test-engine");
        engine.start();
        try {
            final String config = writeConfig().toString();
            // A resting order for account 1, so the kill switch has something to cancel.
            appendOrder(data);
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(0, exitCode(new String[] {"--data-dir", dir.toString(), "--config", config, "--timeout", "60s", "halt", "ACME"},
                out));
            assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("accepted: HALT symbol 1"), out.toString(StandardCharsets.UTF_8));
            out.reset();
            assertEquals(0, exitCode(new String[] {"--data-dir", dir.toString(), "--config", config, "--timeout", "60s", "resume", "ACME"},
                out));
            out.reset();
            assertEquals(0, exitCode(new String[] {"--data-dir", dir.toString(), "--config", config, "--timeout", "60s", "kill-switch",
                "1", "on"}, out));
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("1 orders cancelled"), out.toString(StandardCharsets.UTF_8));
            out.reset();
            // Account 77 is not configured and the config does not create accounts on first use: the engine refuses.
            assertEquals(1, exitCode(new String[] {"--data-dir", dir.toString(), "--config", config, "--timeout", "60s", "kill-switch",
                "77", "on"}, out));
            assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("refused: KILL_SWITCH_ON account 77")
                && out.toString(StandardCharsets.UTF_8).contains("UNKNOWN_ACCOUNT"), out.toString(StandardCharsets.UTF_8));
            out.reset();
            assertEquals(0, exitCode(new String[] {"--data-dir", dir.toString(), "--config", config, "--timeout", "60s", "deposit",
                "1", "USD", "100.25", "--ref", "9"}, out));
            final String accepted = out.toString(StandardCharsets.UTF_8);
            assertTrue(accepted.startsWith("accepted: DEPOSIT account 1 100.25 USD (ref 9), available 100.25 USD, held 0.00 USD"),
                accepted);
            out.reset();
            // The same reference again: refused, the balance as it stays.
            assertEquals(1, exitCode(new String[] {"--data-dir", dir.toString(), "--config", config, "--timeout", "60s", "deposit",
                "1", "USD", "100.25", "--ref", "9"}, out));
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("DUPLICATE_REFERENCE, available 100.25 USD"),
                out.toString(StandardCharsets.UTF_8));
            out.reset();
            assertEquals(1, exitCode(new String[] {"--data-dir", dir.toString(), "--config", config, "--timeout", "60s", "withdraw",
                "1", "USD", "100.26", "--ref", "10"}, out));
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("INSUFFICIENT_FUNDS, needed 100.26, available 100.25 USD"),
                out.toString(StandardCharsets.UTF_8));
        } finally {
            stop.set(true);
            engine.join();
        }
        final List<CommandType> types = new ArrayList<>();
        for (final Journalled j : journal(data)) {
            types.add(j.command.type);
        }
        assertEquals(List.of(CommandType.NEW_ORDER, CommandType.HALT, CommandType.RESUME, CommandType.KILL_SWITCH_ON,
            CommandType.KILL_SWITCH_ON, CommandType.DEPOSIT, CommandType.DEPOSIT, CommandType.WITHDRAW), types);
    }

    private static int exitCode(final String[] argv, final ByteArrayOutputStream out) {
        final PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        return Tool.exitCode("admin", Admin.USAGE, () -> Admin.run(argv, print));
    }

    private Path writeConfig() {
        final Path file = tmp.resolve("engine.yaml");
        try {
            Files.writeString(file, """
                assets:
                  - {id: 1, code: USD, decimals: 2}
                  - {id: 2, code: ACME}
                symbols:
                  - {id: 1, name: ACME, priceScale: 100, tickSize: 1, lotSize: 1}
                  - {id: 2, name: GLOBEX, priceScale: 1000, tickSize: 5, lotSize: 10}
                accounts:
                  - {id: 1, maxOrderQuantity: 0, maxOrderNotional: 0, maxOpenOrders: 0, selfTradePrevention: OFF}
                """);
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return file;
    }

    private static void appendOrder(final DataDirectory data) {
        try (SingleChronicleQueue commands = data.commands()) {
            CommandCodec.append(commands.createAppender(), new Command().limit(1, 1, 1, Side.BUY, 2400, 5), new Hops());
        }
    }

    private static void runEngine(final DataDirectory data, final AtomicBoolean stop) {
        final MatchingEngine engine = new MatchingEngine(CONFIG);
        final Command command = new Command();
        final Hops hops = new Hops();
        final Result result = new Result();
        final EventHeader header = new EventHeader();
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = commands.createTailer();
            final ExcerptAppender appender = events.createAppender();
            while (!stop.get()) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        LockSupport.parkNanos(100_000L);
                        continue;
                    }
                    assertEquals(DecodeStatus.OK, CommandCodec.read(dc.wire().bytes(), command, hops));
                    engine.apply(command, result);
                    header.commandIndex = dc.index();
                    try (DocumentContext out = appender.writingDocument()) {
                        EventCodec.write(out.wire().bytes(), header, result);
                    }
                }
            }
        }
    }

    private record Journalled(Command command, int gatewayId, long sessionId, long receiptEpochNanos, String operator) {
    }

    private static List<Journalled> journal(final DataDirectory data) {
        final List<Journalled> all = new ArrayList<>();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return all;
                    }
                    final Command c = new Command();
                    final Hops hops = new Hops();
                    final CommandText text = new CommandText();
                    assertEquals(DecodeStatus.OK, CommandCodec.read(dc.wire().bytes(), c, hops, text));
                    all.add(new Journalled(c, hops.gatewayId, hops.sessionId, hops.receiptEpochNanos, text.newClientOrderIdText()));
                }
            }
        }
    }
}
