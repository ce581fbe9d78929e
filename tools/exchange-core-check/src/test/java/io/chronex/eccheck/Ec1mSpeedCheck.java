package io.chronex.eccheck;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.workload.ExchangeCoreCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.Arrays;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Speed side by side, in one JVM: ec-1M's 1,000,000 benchmark-phase commands with money (users funded as
 * exchange-core's benchmark funds them, balances checked and settled) through exchange-core 0.5.3 in EXCHANGE
 * mode and through our engine core with the FUNDS check. Each pass starts fresh: funding and the 1,000 pre-fill
 * commands are applied first and not timed, as exchange-core's own benchmark times only this phase.
 * exchange-core gets its own base configuration, once with its threads blocking when idle and once yielding,
 * and is given the faster; its commands are pipelined (submitted without waiting), then the clock stops when it
 * has processed the last. Passes alternate ours and theirs, after untimed warm-up passes of both. A benchmark, not a
 * test: it asserts only that every command was accepted; run by bin/check-exchange-core --speed.
 */
@EnabledIfSystemProperty(named = "chronex.exchangeCore.bench", matches = "true")
class Ec1mSpeedCheck {
    @Test
    void ourEngineAndExchangeCoreOnTheBenchmarkPhase() {
        final int passes = Integer.getInteger("chronex.exchangeCore.passes", 3);
        final ExchangeCoreCsv stream = Ec1m.commands();
        int first = 0;
        while (stream.isFillPhase(first)) {
            first++;
        }
        final int timed = stream.size() - first;
        // Untimed first, so that both are compiled by the JIT before the clock runs: ours replays in a fraction of a
        // second, so it gets more; each exchange-core pass starts its threads anew anyway.
        for (int pass = 0; pass < 5; pass++) {
            oursNanos(stream, first);
        }
        theirsNanos(stream, first, false);
        theirsNanos(stream, first, true);
        final double[] ours = new double[passes];
        final double[] blocking = new double[passes];
        final double[] yielding = new double[passes];
        for (int pass = 0; pass < passes; pass++) {
            ours[pass] = timed / (oursNanos(stream, first) / 1e9);
            blocking[pass] = timed / (theirsNanos(stream, first, false) / 1e9);
            yielding[pass] = timed / (theirsNanos(stream, first, true) / 1e9);
            System.out.printf(Locale.ROOT, "pass %d: ours %.2f M/s, exchange-core blocking %.2f M/s, yielding %.2f M/s%n", pass + 1,
                ours[pass] / 1e6, blocking[pass] / 1e6, yielding[pass] / 1e6);
        }
        final double us = median(ours);
        final double them = Math.max(median(blocking), median(yielding));
        System.out.printf(Locale.ROOT, "ec-1M benchmark phase with money, median of %d passes: ours %.2f M commands/s, exchange-core %.2f M"
            + " commands/s (the faster of its two wait strategies): ours/exchange-core %.1fx%n", passes, us / 1e6, them / 1e6, us / them);
        System.out.printf(Locale.ROOT, "RESULT ours_mcmds_per_s=%.2f exchange_core_mcmds_per_s=%.2f ratio=%.1f%n", us / 1e6, them / 1e6,
            us / them);
    }

    private static long oursNanos(final ExchangeCoreCsv stream, final int first) {
        final MatchingEngine engine = Ec1m.fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        for (int row = 0; row < first; row++) {
            engine.apply(stream.commandAt(row, c), r);
        }
        long rejected = 0;
        final long start = System.nanoTime();
        for (int row = first; row < stream.size(); row++) {
            engine.apply(stream.commandAt(row, c), r);
            if (r.isRejected()) {
                rejected++;
            }
        }
        final long elapsed = System.nanoTime() - start;
        assertEquals(0, rejected, "our engine refused commands exchange-core accepted");
        return elapsed;
    }

    private static long theirsNanos(final ExchangeCoreCsv stream, final int first, final boolean yielding) {
        try (ExchangeCoreRunner ec = Ec1m.funded(ExchangeCoreRunner.startForSpeed(yielding))) {
            final Command c = new Command();
            for (int row = 0; row < first; row++) {
                stream.commandAt(row, c).symbol = Ec1m.SYMBOL;
                ec.submit(c);
            }
            ec.sync();
            final long start = System.nanoTime();
            for (int row = first; row < stream.size(); row++) {
                stream.commandAt(row, c).symbol = Ec1m.SYMBOL;
                ec.submit(c);
            }
            ec.sync();
            final long elapsed = System.nanoTime() - start;
            assertEquals(stream.size(), ec.orderAnswers().values().stream().mapToLong(Long::longValue).sum(),
                "exchange-core answered every order command");
            assertEquals(java.util.Set.of(exchange.core2.core.common.cmd.CommandResultCode.SUCCESS), ec.orderAnswers().keySet(),
                "exchange-core accepted every command");
            return elapsed;
        }
    }

    private static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
