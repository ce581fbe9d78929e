package io.chronex.queues;

import io.chronex.api.AccountSpec;
import io.chronex.api.ConfigChange;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.RejectReason;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.SymbolSpec;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal's configuration records: the canonical text reads back equal, the engine's rule for which records are
 * taken (the first must be initial, every later one a change the engine can make), and which one is in force where.
 */
class JournalConfigTest {
    @TempDir
    Path tmp;

    private static EngineConfig demo() throws Exception {
        return EngineConfigFile.load(ProjectRoot.resolve("config/engine.yaml"));
    }

    /** The demo with a symbol added, ACME's band widened and account 4's largest order cut. */
    private static EngineConfig changed(final EngineConfig c) {
        final List<SymbolSpec> symbols = new ArrayList<>(c.symbols());
        final SymbolSpec acme = symbols.get(0);
        symbols.set(0, new SymbolSpec(acme.id(), acme.name(), acme.priceScale(), acme.tickSize(), acme.lotSize(), 2000,
            acme.referencePrice(), acme.baseAsset(), acme.quoteAsset(), acme.baseScale(), acme.quoteScale(), acme.takerFee(),
            acme.makerFee()));
        symbols.add(new SymbolSpec(3, "INITECH", 100, 5, 10, 500, 5000));
        final List<AccountSpec> accounts = new ArrayList<>(c.accounts());
        accounts.set(3, new AccountSpec(4, 500, 1_000_000_000, 1000, SelfTradePrevention.OFF));
        return new EngineConfig(symbols, accounts, c.riskChecks(), c.createAccountsOnFirstUse(), c.defaultAccount(), c.assets());
    }

    private static ConfigRecord.Decoded record(final ConfigRecord.Kind kind, final EngineConfig config) {
        return new ConfigRecord.Decoded(kind, 1, EngineConfigFile.text(config).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theCanonicalTextReadsBackEqualForEveryShippedConfiguration() throws Exception {
        for (final String name : new String[] {"engine.yaml", "exchange-core-bench.yaml"}) {
            final EngineConfig config = EngineConfigFile.load(ProjectRoot.resolve("config").resolve(name));
            final String text = EngineConfigFile.text(config);
            assertEquals(config, EngineConfigFile.parse("record", text.getBytes(StandardCharsets.UTF_8)), name + ":\n" + text);
            assertEquals(text, EngineConfigFile.text(EngineConfigFile.parse("record", text.getBytes(StandardCharsets.UTF_8))), name);
        }
        final EngineConfig next = changed(demo());
        assertEquals(next, EngineConfigFile.parse("record", EngineConfigFile.text(next).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theFirstRecordMustBeInitialAndEveryLaterOneAChangeTheEngineCanMake() throws Exception {
        final EngineConfig demo = demo();
        assertTrue(JournalConfig.judge(null, record(ConfigRecord.Kind.INITIAL, demo), "r").accepted());
        assertEquals("a configuration change before any initial configuration",
            JournalConfig.judge(null, record(ConfigRecord.Kind.CHANGE, demo), "r").refusal());
        assertEquals("an initial configuration after the journal already has one",
            JournalConfig.judge(demo, record(ConfigRecord.Kind.INITIAL, demo), "r").refusal());
        final JournalConfig.Judgement change = JournalConfig.judge(demo, record(ConfigRecord.Kind.CHANGE, changed(demo)), "r");
        assertTrue(change.accepted());
        assertEquals(List.of("symbol ACME (1): priceBandBasisPoints 1000 -> 2000", "symbol INITECH (3) added",
            "account 4: maxOrderQuantity 100000, maxOrderNotional 1000000000, maxOpenOrders 1000, selfTradePrevention OFF"
                + " -> maxOrderQuantity 500, maxOrderNotional 1000000000, maxOpenOrders 1000, selfTradePrevention OFF"),
            change.change().differences());
        // Back again: INITECH removed, which history names.
        final JournalConfig.Judgement back = JournalConfig.judge(changed(demo), record(ConfigRecord.Kind.CHANGE, demo), "r");
        assertFalse(back.accepted());
        assertTrue(back.refusal().contains("symbol INITECH (3) removed"), back.refusal());
        final JournalConfig.Judgement garbled = JournalConfig.judge(demo,
            new ConfigRecord.Decoded(ConfigRecord.Kind.CHANGE, 1, "symbols: [".getBytes(StandardCharsets.UTF_8)), "r");
        assertTrue(garbled.refusal().startsWith("the recorded configuration does not read: r:"), garbled.refusal());
    }

    @Test
    void changesTheEngineCannotMakeUnderLiveBooksAreRefusedWithWhy() throws Exception {
        final EngineConfig demo = demo();
        final SymbolSpec acme = demo.symbols().get(0);
        final List<SymbolSpec> symbols = new ArrayList<>(demo.symbols());
        symbols.set(0, new SymbolSpec(acme.id(), acme.name(), acme.priceScale(), 5, acme.lotSize(), acme.priceBandBasisPoints(),
            acme.referencePrice(), acme.baseAsset(), acme.quoteAsset(), acme.baseScale(), acme.quoteScale(), acme.takerFee(),
            acme.makerFee()));
        final ConfigChange tick = ConfigChange.between(demo, new EngineConfig(symbols, demo.accounts(), demo.riskChecks(),
            demo.createAccountsOnFirstUse(), demo.defaultAccount(), demo.assets()));
        assertEquals(List.of("symbol ACME (1): tickSize 1 -> 5: resting orders and holds were priced with these; list the instrument"
            + " as a new symbol instead"), tick.refusals());
        final ConfigChange noAccount = ConfigChange.between(demo, new EngineConfig(demo.symbols(), demo.accounts().subList(1, 12),
            demo.riskChecks(), demo.createAccountsOnFirstUse(), demo.defaultAccount(), demo.assets()));
        assertTrue(noAccount.refusals().get(0).startsWith("account 1 removed"), noAccount.refusals().toString());
        assertThrows(IllegalStateException.class, () -> noAccount.applyTo(demo));
        assertTrue(ConfigChange.between(demo, demo).isEmpty());
    }

    @Test
    void aChangeReplacesOnlyWhatItTouches() throws Exception {
        final EngineConfig demo = demo();
        // The engine's own: GLOBEX's reference price moved by a command since, and account 9 created on first use.
        final List<SymbolSpec> symbols = new ArrayList<>(demo.symbols());
        final SymbolSpec globex = symbols.get(1);
        symbols.set(1, new SymbolSpec(globex.id(), globex.name(), globex.priceScale(), globex.tickSize(), globex.lotSize(),
            globex.priceBandBasisPoints(), 2600, globex.baseAsset(), globex.quoteAsset(), globex.baseScale(), globex.quoteScale(),
            globex.takerFee(), globex.makerFee()));
        final List<AccountSpec> accounts = new ArrayList<>(demo.accounts());
        accounts.add(AccountSpec.unlimited(9));
        final EngineConfig current = new EngineConfig(symbols, accounts, demo.riskChecks(), demo.createAccountsOnFirstUse(),
            demo.defaultAccount(), demo.assets());
        final EngineConfig after = ConfigChange.between(demo, changed(demo)).applyTo(current);
        assertEquals(2600, after.symbols().get(1).referencePrice(), "a reference price the change does not name stays the engine's");
        assertEquals(2000, after.symbols().get(0).priceBandBasisPoints());
        assertEquals("INITECH", after.symbols().get(2).name());
        assertEquals(500, after.accounts().get(3).maxOrderQuantity());
        assertEquals(AccountSpec.unlimited(9), after.accounts().get(12));
    }

    @Test
    void theJournalSaysWhichRecordIsInForceWhereAndDamagedOnesAreNotTaken() throws Exception {
        final EngineConfig demo = demo();
        final long[] at = new long[5];
        try (SingleChronicleQueue queue = DataDirectory.open(tmp.resolve("d")).commands()) {
            final ExcerptAppender appender = queue.createAppender();
            at[0] = ConfigRecord.append(appender, ConfigRecord.Kind.INITIAL, 10, EngineConfigFile.text(demo));
            at[1] = ConfigRecord.append(appender, ConfigRecord.Kind.INITIAL, 20, EngineConfigFile.text(demo));
            at[2] = ConfigRecord.append(appender, ConfigRecord.Kind.CHANGE, 30, EngineConfigFile.text(changed(demo)));
            try (var dc = appender.writingDocument()) { // a record cut short: says 1,000 bytes of text, holds none
                final Bytes<?> out = dc.wire().bytes();
                out.writeByte(ConfigRecord.MESSAGE_TYPE);
                out.writeByte(ConfigRecord.VERSION);
                out.writeUnsignedByte(2);
                out.writeUnsignedByte(0);
                out.writeInt(1000);
                out.writeLong(40);
            }
            at[3] = appender.lastIndexAppended();
            final JournalConfig journal = JournalConfig.read(queue);
            assertEquals(4, journal.entries().size());
            assertTrue(journal.entries().get(0).accepted());
            assertFalse(journal.entries().get(1).accepted());
            assertTrue(journal.entries().get(2).accepted());
            assertEquals("configuration record says 1000 bytes of text in an excerpt of 16", journal.entries().get(3).refusal());
            assertEquals(at[0], journal.at(at[0] - 1).index(), "before the first record, the first is in force");
            assertNull(journal.takenThrough(at[0] - 1), "but the engine had taken none there");
            assertEquals(at[0], journal.at(at[1]).index());
            assertEquals(at[2], journal.at(at[3]).index());
            assertEquals(changed(demo), journal.latest());
            final JournalConfig.Follower follower = new JournalConfig.Follower(demo);
            final Result result = new Result();
            final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
            bytes.writeByte(ConfigRecord.MESSAGE_TYPE);
            assertNull(follower.answer(bytes, 0, bytes.readRemaining(), 7, result));
            assertEquals(RejectReason.MALFORMED_COMMAND, result.rejectReason, "not a record at all: answered as any excerpt that"
                + " does not decode");
            bytes.clear();
            ConfigRecord.write(bytes, ConfigRecord.Kind.INITIAL, 50, EngineConfigFile.text(demo));
            assertNull(follower.answer(bytes, 0, bytes.readRemaining(), 8, result));
            assertEquals(RejectReason.INVALID_CONFIGURATION, result.rejectReason, "a record, refused: a second initial one");
            assertEquals(demo, follower.inForce());
            bytes.clear();
            ConfigRecord.write(bytes, ConfigRecord.Kind.CHANGE, 60, EngineConfigFile.text(changed(demo)));
            assertEquals(3, follower.answer(bytes, 0, bytes.readRemaining(), 9, result).differences().size());
            assertEquals(RejectReason.NONE, result.rejectReason);
            assertEquals(io.chronex.api.CommandType.CONFIGURATION, result.commandType);
            assertEquals(changed(demo), follower.inForce());
        }
    }

    /** What a reading found: each record's index, kind, configuration and refusal (a change's differences are derived from them). */
    private static List<String> said(final JournalConfig journal) {
        return journal.entries().stream().map(e -> e.index() + " " + e.kind() + " " + e.refusal() + " " + e.config()).toList();
    }

    @Test
    void theEnginesIndexOfRecordsIsUsedWhenTheJournalBearsItOutAndIgnoredWhenNot() throws Exception {
        final EngineConfig demo = demo();
        final DataDirectory data = DataDirectory.open(tmp.resolve("i"));
        final Path file = JournalConfig.indexFile(data);
        java.nio.file.Files.createDirectories(file.getParent());
        final long initial;
        final long through;
        final long change;
        try (SingleChronicleQueue queue = data.commands()) {
            final ExcerptAppender appender = queue.createAppender();
            final io.chronex.api.Command c = new io.chronex.api.Command();
            final Hops hops = new Hops();
            CommandCodec.append(appender, c.limit(1, 1, 1, io.chronex.api.Side.BUY, 10_000, 1), hops);
            initial = ConfigRecord.append(appender, ConfigRecord.Kind.INITIAL, 10, EngineConfigFile.text(demo));
            for (int i = 2; i < 50; i++) {
                CommandCodec.append(appender, c.limit(1, 1, i, io.chronex.api.Side.BUY, 10_000, 1), hops);
            }
            through = appender.lastIndexAppended();
            CommandCodec.append(appender, c.limit(1, 1, 50, io.chronex.api.Side.BUY, 10_000, 1), hops);
            change = ConfigRecord.append(appender, ConfigRecord.Kind.CHANGE, 20, EngineConfigFile.text(changed(demo)));
            final JournalConfig whole = JournalConfig.read(queue);
            assertEquals(List.of(initial, change), whole.entries().stream().map(JournalConfig.Entry::index).toList());

            // As the engine leaves it with a snapshot at `through`: the initial record listed, the change found after it.
            new ConfigRecordIndex(List.of(initial), through).write(file);
            final JournalConfig quick = JournalConfig.read(queue, file);
            assertEquals(said(whole), said(quick));
            assertEquals(whole.through(), quick.through());
            // What the index saves: the journal up to its `through` is not read again, so a record there it does not list (the
            // engine lists every one) would go unseen. Shown here only to prove the index is what was read.
            new ConfigRecordIndex(List.of(initial), change).write(file);
            assertEquals(1, JournalConfig.read(queue, file).entries().size());
            // An index naming a command as a record, or leaving out a record before its last one, is not believed.
            new ConfigRecordIndex(List.of(initial + 1), through).write(file);
            assertEquals(said(whole), said(JournalConfig.read(queue, file)));
            new ConfigRecordIndex(List.of(change), initial - 1).write(file);
            assertEquals(said(whole), said(JournalConfig.read(queue, file)));
            // One damaged on disk (its check line no longer matches) is not read at all.
            new ConfigRecordIndex(List.of(initial), through).write(file);
            java.nio.file.Files.writeString(file, java.nio.file.Files.readString(file).replace("through ", "through 1"));
            assertNull(ConfigRecordIndex.read(file));
            assertEquals(said(whole), said(JournalConfig.read(queue, file)));
        }
    }
}
