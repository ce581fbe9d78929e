package io.chronex.engine.process;

import io.chronex.api.AccountSpec;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.Hops;
import io.chronex.queues.JournalConfig;
import io.chronex.replay.JournalSummary;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static io.chronex.engine.process.AuditJournals.audit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The configuration is part of the journal: the engine records the one it first starts with, refuses a changed file
 * with the difference spelled out or journals it as a change when told to and takes it where it was journalled; recovery
 * and every tool follow the journal's records, so a data directory copied elsewhere is read without the file.
 */
class JournalConfigurationTest {
    private static final int COMMANDS = 200;

    @TempDir
    Path tmp;

    /** The demo with INITECH (3, no assets) added, ACME's band widened and account 4's largest order cut to 500. */
    static EngineConfig changed(final EngineConfig c) {
        final List<SymbolSpec> symbols = new ArrayList<>(c.symbols());
        final SymbolSpec acme = symbols.get(0);
        symbols.set(0, new SymbolSpec(acme.id(), acme.name(), acme.priceScale(), acme.tickSize(), acme.lotSize(), 2000,
            acme.referencePrice(), acme.baseAsset(), acme.quoteAsset(), acme.baseScale(), acme.quoteScale(), acme.takerFee(),
            acme.makerFee()));
        symbols.add(new SymbolSpec(3, "INITECH", 100, 1, 1, 0, 5000));
        final List<AccountSpec> accounts = new ArrayList<>(c.accounts());
        accounts.set(3, new AccountSpec(4, 500, 1_000_000_000, 1000, SelfTradePrevention.OFF));
        return new EngineConfig(symbols, accounts, c.riskChecks(), c.createAccountsOnFirstUse(), c.defaultAccount(), c.assets());
    }

    /** Account 4 buys {@code quantity} INITECH at 50.00, as a gateway journals it; returns its journal index. */
    private static long orderInInitech(final DataDirectory data, final long clientOrderId, final long quantity) {
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            final Hops hops = new Hops();
            hops.receiptEpochNanos = AuditJournals.START_EPOCH_NANOS + 1_000_000_000L + clientOrderId;
            CommandCodec.append(appender, new Command().limit(4, 3, clientOrderId, Side.BUY, 5000, quantity), hops);
            return appender.lastIndexAppended();
        }
    }

    private static void answerAll(final EngineService service) {
        while (service.poll()) {
            // until every command there is answered
        }
    }

    /** Every result by the journal index it answers: command type and reject reason. */
    private static Map<Long, String> results(final DataDirectory data) {
        final Map<Long, String> answers = new TreeMap<>();
        try (SingleChronicleQueue events = data.events(); EventTail tail = new EventTail(events.createTailer())) {
            final EventTail.Handler handler = (final long eventsIndex, final EventHeader header, final Result result) ->
                answers.put(header.commandIndex, result.commandType + " " + result.rejectReason);
            while (tail.poll(handler, Integer.MAX_VALUE) > 0) {
                // until caught up
            }
        }
        return answers;
    }

    /**
     * A data directory whose engine started under the demo configuration (after COMMANDS commands a gateway journalled
     * first), then was restarted under {@link #changed} with --apply-config-change, with orders in INITECH on both sides
     * of the change; returns the state hash its engine ended with.
     */
    private long historyWithAChange(final DataDirectory data) throws Exception {
        final EngineConfig demo = EngineConfigFile.load(AuditJournals.CONFIG);
        AuditJournals.write(data, COMMANDS, 5);
        try (EngineService service = new EngineService(data, demo)) {
            assertTrue(service.recordConfiguration(demo, false).startsWith("configuration recorded in the journal at index "));
            answerAll(service);
        }
        final long before = orderInInitech(data, 9001, 100);
        final EngineConfig next = changed(demo);
        final long hash;
        try (EngineService service = new EngineService(data, demo)) {
            assertTrue(service.recordConfiguration(demo, false).startsWith("configuration as recorded in the journal"));
            final EngineService.ConfigMismatch refused = assertThrows(EngineService.ConfigMismatch.class,
                () -> service.recordConfiguration(next, false));
            assertTrue(refused.getMessage().contains("\n  symbol ACME (1): priceBandBasisPoints 1000 -> 2000\n  symbol INITECH (3) added\n"
                + "  account 4: maxOrderQuantity 100000, maxOrderNotional 1000000000, maxOpenOrders 1000, selfTradePrevention OFF ->"
                + " maxOrderQuantity 500,"), refused.getMessage());
            assertTrue(refused.getMessage().contains("--apply-config-change"), refused.getMessage());
            assertEquals(1, JournalConfig.ofDirectory(data).entries().size(), "a refused change journals nothing");
            assertTrue(service.recordConfiguration(next, true).startsWith("configuration change journalled at index "));
            final long over = orderInInitech(data, 9002, 600);
            final long within = orderInInitech(data, 9003, 100);
            answerAll(service);
            final Map<Long, String> answers = results(data);
            assertEquals("NEW_ORDER UNKNOWN_SYMBOL", answers.get(before), "INITECH did not exist before the change");
            assertEquals("NEW_ORDER MAX_ORDER_QUANTITY_EXCEEDED", answers.get(over), "account 4's new limit");
            assertEquals("NEW_ORDER NONE", answers.get(within));
            hash = service.stateHash();
        }
        final List<JournalConfig.Entry> records = JournalConfig.ofDirectory(data).entries();
        assertEquals(List.of(ConfigRecord.Kind.INITIAL, ConfigRecord.Kind.CHANGE),
            records.stream().map(JournalConfig.Entry::kind).toList());
        for (final JournalConfig.Entry record : records) {
            assertEquals("CONFIGURATION NONE", results(data).get(record.index()), "each record is answered, taken");
        }
        assertEquals(data.commands().firstIndex() + COMMANDS + 1, records.get(0).index(),
            "recorded after what the gateway journalled first (and the malformed excerpt among it)");
        return hash;
    }

    @Test
    void aChangedFileIsRefusedWithTheDifferenceOrJournalledTakenAndReplayed() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        final long hash = historyWithAChange(data);
        // Recovery without a snapshot replays the whole journal: from the recorded initial configuration, through the change.
        try (EngineService service = new EngineService(data, EngineConfigFile.load(AuditJournals.CONFIG))) {
            assertEquals(hash, service.stateHash());
            final EngineService.ConfigMismatch back = assertThrows(EngineService.ConfigMismatch.class,
                () -> service.recordConfiguration(EngineConfigFile.load(AuditJournals.CONFIG), true));
            assertTrue(back.getMessage().contains("in ways the engine cannot change:\n  symbol INITECH (3) removed"), back.getMessage());
        }
        final JournalSummary.Summary summary = JournalSummary.summarize(data);
        assertEquals(COMMANDS + 1 + 3, summary.commands(), "the records are not counted as commands");
        assertEquals(0, summary.missing(), summary.resultLine());
    }

    @Test
    void aCopiedDirectoryIsVerifiedAndReadWithoutTheFile() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        historyWithAChange(data);
        final Path copy = tmp.resolve("elsewhere");
        try (Stream<Path> files = Files.walk(data.root())) {
            for (final Path file : files.toList()) {
                Files.copy(file, copy.resolve(data.root().relativize(file).toString()));
            }
        }
        final String verify = audit(0, "verify", "--data-dir", copy.toString(), "--threads", "1");
        assertTrue(verify.contains("RESULT verified=" + (COMMANDS + 1 + 3 + 2) + " mismatches=0 "), verify);
        final String book = audit(0, "book", "INITECH", "--data-dir", copy.toString());
        assertTrue(book.contains("RESULT symbol=INITECH best_bid=50.00 "), book);

        final List<JournalConfig.Entry> records = JournalConfig.ofDirectory(DataDirectory.openReadOnly(copy)).entries();
        final String config = audit(0, "config", "--data-dir", copy.toString());
        assertTrue(config.contains(String.format("0x%x  %s  initial  taken", records.get(0).index(),
            Instant.ofEpochSecond(0, records.get(0).epochNanos()))), config);
        assertTrue(config.contains(String.format("0x%x  %s  change   taken%n    symbol ACME (1): priceBandBasisPoints 1000 -> 2000",
            records.get(1).index(), Instant.ofEpochSecond(0, records.get(1).epochNanos()))), config);
        assertTrue(config.contains("name: \"INITECH\"") && config.contains("RESULT records=2 taken=2 in_force_index=0x"
            + Long.toHexString(records.get(1).index())), config);
        final String then = audit(0, "config", "--data-dir", copy.toString(), "--at",
            Instant.ofEpochSecond(0, records.get(0).epochNanos()).toString());
        assertFalse(then.contains("INITECH\""), then);
        assertTrue(then.contains("in_force_index=0x" + Long.toHexString(records.get(0).index())), then);
    }
}
