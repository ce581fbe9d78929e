package io.chronex.monitor;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The alert history: alerts known by kind, not text; raised and cleared times; a one-interval alert kept; a bounded past. */
class AlertHistoryTest {
    @Test
    void kindsAreTheLeadingCapitalWords() {
        assertEquals("BACKLOG AGE", AlertHistory.kind("BACKLOG AGE 1.234 s > 1.000 s"));
        assertEquals("GATEWAY 2 GONE", AlertHistory.kind("GATEWAY 2 GONE (pid 4711)"));
        assertEquals("HOP P99", AlertHistory.kind("HOP P99 > 50 ms: journal 63.210 ms (n 997)"));
        assertEquals("ENGINE GONE", AlertHistory.kind("ENGINE GONE (pid 12)"));
        assertEquals("LEDGER DOES NOT ADD UP", AlertHistory.kind("LEDGER DOES NOT ADD UP for USD: held 1.00"));
        assertEquals("N events excerpts could not be decoded", AlertHistory.kind("12 events excerpts could not be decoded"));
    }

    @Test
    void eachAlertIsKeptFromRaisedToClearedEvenIfItLastedOneInterval() {
        final AlertHistory history = new AlertHistory();
        history.update(List.of(), 1_000);
        history.update(List.of("BACKLOG AGE 1.5 s > 1.0 s"), 2_000);
        history.update(List.of("BACKLOG AGE 2.5 s > 1.0 s", "ENGINE GONE (pid 7)"), 3_000);
        history.update(List.of("ENGINE GONE (pid 7)"), 4_000);
        history.update(List.of("ENGINE GONE (pid 7)", "STORAGE LOW: 1 MiB free"), 5_000);
        history.update(List.of("ENGINE GONE (pid 7)"), 6_000);
        assertEquals(List.of(
            new AlertHistory.Entry("ENGINE GONE", "ENGINE GONE (pid 7)", 3_000, 0),
            new AlertHistory.Entry("STORAGE LOW", "STORAGE LOW: 1 MiB free", 5_000, 6_000),
            new AlertHistory.Entry("BACKLOG AGE", "BACKLOG AGE 2.5 s > 1.0 s", 2_000, 4_000)), history.entries(),
            "raised first, then cleared newest first; the latest text of each; one interval's alert kept");
        assertEquals(4_000, history.entries().get(0).lastedMillis(7_000));
        assertEquals(1_000, history.entries().get(1).lastedMillis(7_000));
    }

    @Test
    void thePastIsBounded() {
        final AlertHistory history = new AlertHistory();
        for (int i = 0; i < 200; i++) {
            history.update(List.of("HOP P99 > 50 ms: journal " + i + " ms"), 2L * i);
            history.update(List.of(), 2L * i + 1);
        }
        assertEquals(AlertHistory.KEPT, history.entries().size());
        assertEquals(2 * 199, history.entries().get(0).raisedMillis(), "the newest kept");
    }
}
