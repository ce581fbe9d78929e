package io.chronex.engine.process;

import io.chronex.api.AssetSpec;
import io.chronex.api.EngineConfig;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.SnapshotFiles;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static io.chronex.engine.process.AuditJournals.audit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/audit balances on a journal the engine service answered in three runs, the first two ending with a snapshot: after N
 * commands (before the first snapshot, exactly at one, past one, at the end), at a time, and with neither (the end), every
 * account's RESULT line per asset equals what an engine core fed the journal's first N commands itself holds (available and
 * held), printed in the asset's decimals; an account the engine does not know exits 1, a usage error 2.
 */
class AuditBalancesTest {
    private static final int COMMANDS = 3_000;
    /** Command i is received at START + i × 10 ms. */
    private static final long SPACING = 10_000_000L;

    @TempDir
    Path tmp;

    /** The RESULT lines of the tool's output. */
    private static String results(final String output) {
        return Arrays.stream(output.split("\n")).filter(l -> l.startsWith("RESULT ")).collect(Collectors.joining("\n"));
    }

    /** The RESULT lines the tool should print for this account: one per asset of the configuration, in its order. */
    private static String expected(final MatchingEngine engine, final long account) throws Exception {
        final EngineConfig config = EngineConfigFile.load(AuditJournals.CONFIG);
        return config.assets().stream().map(a -> line(account, a, engine.available(account, a.id()), engine.held(account, a.id())))
            .collect(Collectors.joining("\n"));
    }

    private static String line(final long account, final AssetSpec asset, final long available, final long held) {
        return "RESULT account=" + account + " asset=" + asset.code() + " available=" + asset.format(available) + " held="
            + asset.format(held);
    }

    private static String[] balances(final Path dir, final long account, final String... options) {
        final List<String> argv = new java.util.ArrayList<>(List.of("balances", Long.toString(account), "--data-dir", dir.toString(),
            "--config", AuditJournals.CONFIG.toString()));
        argv.addAll(List.of(options));
        return argv.toArray(new String[0]);
    }

    @Test
    void theBalancesAfterNCommandsAndAtATimeAreTheEnginesThere() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 19, SPACING);
        // Snapshots after the journal's 1,000th and 2,000th excerpts; the third run answers the rest (3,001: one is malformed).
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, Long.MAX_VALUE, false);
        assertEquals(List.of(AuditJournals.journalIndex(data, 2_000), AuditJournals.journalIndex(data, 1_000)),
            SnapshotFiles.indices(data.snapshots()));
        final long excerpts = COMMANDS + 1;
        long heldSeen = 0;
        boolean traded = false;
        for (final long n : new long[] {AuditJournals.FUNDING_COMMANDS, 500, 999, 1_000, 1_001, 2_500, excerpts}) {
            final MatchingEngine reference = AuditJournals.engineAfter(data, n);
            for (long account = 1; account <= 3; account++) {
                final String output = audit(0, balances(dir, account, "--after", Long.toString(n)));
                assertEquals(expected(reference, account), results(output), "account " + account + " after " + n + ":\n" + output);
                assertTrue(output.startsWith(String.format("after command %,d of the journal (index 0x%x,", n,
                    AuditJournals.journalIndex(data, n))), output);
                final long from = n >= 2_000 ? 2_000 : n >= 1_000 ? 1_000 : 0;
                assertTrue(output.contains(from == 0 ? "rebuilt from the configuration" : "rebuilt from "
                    + SnapshotFiles.name(AuditJournals.journalIndex(data, from))), "after " + n + ":\n" + output);
                heldSeen += reference.held(account, 1) + reference.held(account, 2) + reference.held(account, 3);
                traded |= reference.available(account, 1) != AuditJournals.FUNDS;
            }
        }
        assertTrue(heldSeen > 0 && traded, "open orders held money and trades moved some: the comparison above is not of zeros alone");

        // Right after the deposits, in the assets' own decimals: USD in cents (2 decimals), shares whole.
        assertEquals("""
            RESULT account=2 asset=USD available=10000000000.00 held=0.00
            RESULT account=2 asset=ACME available=1000000000000 held=0
            RESULT account=2 asset=GLOBEX available=1000000000000 held=0""",
            results(audit(0, balances(dir, 2, "--after", Integer.toString(AuditJournals.FUNDING_COMMANDS)))));
        // Account 4 is configured but never funded nor traded: the engine knows it, with nothing.
        assertEquals("RESULT account=4 asset=USD available=0.00 held=0.00\nRESULT account=4 asset=ACME available=0 held=0\n"
            + "RESULT account=4 asset=GLOBEX available=0 held=0", results(audit(0, balances(dir, 4, "--after", Long.toString(excerpts)))));

        // --at TIME: after the last command received by then. Command i is the journal's i-th excerpt, or the (i+1)-th past the
        // malformed one after the 1,500th (it has no receipt time of its own and goes with the command before it).
        for (final int i : new int[] {1, AuditJournals.FUNDING_COMMANDS, 700, 1_500, 1_501, 2_222, COMMANDS}) {
            final long excerpt = i >= COMMANDS / 2 ? i + 1 : i;
            final MatchingEngine reference = AuditJournals.engineAfter(data, excerpt);
            final Instant at = Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS + i * SPACING + SPACING / 2);
            for (long account = 1; account <= 3; account++) {
                final String output = audit(0, balances(dir, account, "--at", at.toString()));
                assertTrue(output.startsWith(String.format("after command %,d of the journal", excerpt)), at + ":\n" + output);
                assertEquals(expected(reference, account), results(output), "account " + account + " at " + at + ":\n" + output);
            }
        }

        // Exit 1: an account the engine never knew (not configured, none created on first use), or no such point in the journal.
        for (final String[] when : new String[][] {{"--after", "1000"}, {"--after", Long.toString(excerpts)},
            {"--at", Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS + 700 * SPACING).toString()}}) {
            final String output = audit(1, balances(dir, 99, when));
            assertTrue(output.contains("account 99 was not known to the engine at that point"), output);
            assertEquals("", results(output));
        }
        audit(1, balances(dir, 1, "--after", Long.toString(excerpts + 1)));
        audit(1, balances(dir, 1, "--at", Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS).toString()));

        // Exit 2: usage errors.
        audit(2, "balances", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString());
        audit(2, "balances", "one", "--data-dir", dir.toString(), "--config", AuditJournals.CONFIG.toString());
        audit(2, balances(dir, 1, "--after", "10", "--at", Instant.ofEpochSecond(0, AuditJournals.START_EPOCH_NANOS).toString()));
        audit(2, balances(dir, 1, "--after", "0"));
        audit(2, balances(dir, 1, "--at", "10:31"));
        audit(2, balances(dir, 1, "--bogus", "1"));
        audit(2, "balances", "1", "--data-dir", tmp.resolve("nothing").toString(), "--config", AuditJournals.CONFIG.toString());
        // A configuration without assets: its accounts hold no money.
        audit(2, "balances", "1", "--data-dir", dir.toString(), "--config", ProjectRoot.resolve("config/exchange-core-bench.yaml")
            .toString());
    }

    /** With neither --after nor --at: after the journal's last command, the engine's balances at the end. */
    @Test
    void withNeitherAfterNorAtTheBalancesAreTheEnginesAtTheEnd() throws Exception {
        final Path dir = tmp.resolve("data");
        final int commands = 200;
        final DataDirectory data = AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), commands, 23));
        final long excerpts = commands + 1; // one is malformed
        final MatchingEngine end = AuditJournals.engineAfter(data, excerpts);
        for (long account = 1; account <= 4; account++) {
            final String output = audit(0, balances(dir, account));
            assertTrue(output.startsWith(String.format("after command %,d of the journal", excerpts)), output);
            assertEquals(expected(end, account), results(output), "account " + account + " at the end:\n" + output);
        }
        final String unknown = audit(1, balances(dir, 99));
        assertTrue(unknown.contains("account 99 was not known to the engine at that point"), unknown);
    }
}
