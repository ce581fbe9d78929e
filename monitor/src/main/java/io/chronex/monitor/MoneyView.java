package io.chronex.monitor;

import io.chronex.queues.LedgerStatusFile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The exchange's money as the monitor shows it: per asset deposited, withdrawn, adjusted, held by open orders and collected
 * in fees, as the engine's ledger had them after a given command (DATA/ledger, read, never written). Null in a view when
 * there is no file: the engine runs without assets, or on another host (a cluster node's engine does not write one).
 */
public record MoneyView(LedgerStatusFile.Snapshot ledger, long ageMillis) {
    /** The file now; null when there is none. */
    static MoneyView read(final Path dataDir, final long nowEpochMillis) {
        final LedgerStatusFile.Snapshot s = LedgerStatusFile.read(LedgerStatusFile.of(dataDir));
        return s == null ? null : new MoneyView(s, nowEpochMillis - s.writtenEpochMillis());
    }

    /** "after journal index 1a2b (12,345 commands), written 0.4 s ago", or "? (why)" when the file cannot be believed. */
    public String describe() {
        if (ledger.problem() != null) {
            return "? (" + ledger.problem() + ")";
        }
        if (ledger.commands() == 0) {
            return String.format(Locale.ROOT, "nothing answered yet, written %.1f s ago", ageMillis / 1e3);
        }
        if (ledger.lastJournalIndex() < 0) { // a cluster member before it answered a command live
            return String.format(Locale.ROOT, "the engine's ledger after %,d commands, written %.1f s ago", ledger.commands(),
                ageMillis / 1e3);
        }
        return String.format(Locale.ROOT, "the engine's ledger after journal index %s (%,d commands), written %.1f s ago",
            StatusBlock.hex(ledger.lastJournalIndex()), ledger.commands(), ageMillis / 1e3);
    }

    /**
     * Assets whose held and fees exceed what came in: available would be negative, which the engine's ledger never allows
     * (every move keeps the asset's total), so it is a damaged file or an engine bug, said loudly.
     */
    List<String> alerts() {
        final List<String> alerts = new ArrayList<>();
        if (ledger.problem() == null) {
            for (final LedgerStatusFile.Asset a : ledger.assets()) {
                if (a.available() < 0 || a.held() < 0 || a.fees() < 0) {
                    alerts.add("LEDGER DOES NOT ADD UP for " + a.code() + ": held " + a.format(a.held()) + " and fees "
                        + a.format(a.fees()) + " against " + a.format(a.deposited() - a.withdrawn() + a.adjusted()) + " net deposits");
                }
            }
        }
        return alerts;
    }
}
