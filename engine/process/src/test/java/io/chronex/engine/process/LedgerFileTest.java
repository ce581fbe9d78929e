package io.chronex.engine.process;

import io.chronex.api.AssetSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.LedgerStatusFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DATA/ledger as the engine service leaves it after each of three runs (the first two ending in a snapshot, so the later
 * ones start from one and replay): per asset the deposits, withdrawals, adjustments, fees and held total equal what an engine
 * core that applied the same commands itself has, and it names the last command answered.
 */
class LedgerFileTest {
    @TempDir
    Path tmp;

    @Test
    void theFileHoldsTheLedgersTotalsAfterTheLastCommandAnswered() throws Exception {
        final DataDirectory data = AuditJournals.write(DataDirectory.open(tmp.resolve("data")), 3_000, 23);
        final long[] runs = {1_000, 1_000, Long.MAX_VALUE};
        final long[] answeredAfter = {1_000, 2_000, 3_001}; // the journal has 3,001 excerpts: one is malformed
        boolean heldSeen = false;
        for (int run = 0; run < runs.length; run++) {
            AuditJournals.answer(data, runs[run], run < 2);
            final long answered = answeredAfter[run];
            final LedgerStatusFile.Snapshot file = LedgerStatusFile.read(LedgerStatusFile.of(data.root()));
            assertNull(file.problem(), "run " + run);
            final MatchingEngine reference = AuditJournals.engineAfter(data, answered);
            assertEquals(AuditJournals.journalIndex(data, answered), file.lastJournalIndex(), "run " + run);
            assertEquals(reference.commandCount(), file.commands(), "run " + run);
            final List<LedgerStatusFile.Asset> expected = new ArrayList<>();
            for (final AssetSpec a : EngineConfigFile.load(AuditJournals.CONFIG).assets()) {
                expected.add(new LedgerStatusFile.Asset(a.id(), a.code(), a.decimals(), reference.deposited(a.id()),
                    reference.withdrawn(a.id()), reference.adjusted(a.id()), reference.feesCollected(a.id()), reference.heldTotal(a.id())));
                heldSeen |= reference.heldTotal(a.id()) > 0;
            }
            assertEquals(expected, file.assets(), "run " + run);
        }
        assertTrue(heldSeen, "open orders held something at some point: the held totals were tested");
    }
}
