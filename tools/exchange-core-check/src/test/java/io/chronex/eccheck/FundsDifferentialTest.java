package io.chronex.eccheck;

import exchange.core2.core.common.cmd.OrderCommand;
import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;
import io.chronex.engine.MatchingEngine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Our engine's money against exchange-core 0.5.3 itself (EXCHANGE mode), command by command, on seeded random
 * streams ({@link FundsStream}): two pairs sharing a quote asset, random scales and fees, 50-150 users
 * funded at random (some barely), deposits and withdrawals along the way. After every command the answers
 * must agree: accepted or the mapped reject reason ({@link Answers#expectedReason}), and every trade (maker
 * and taker ids, price, size, who completed), every reduce and every unfilled remainder. Every
 * {@value #CHECK_EVERY} commands and at the end: every user's balance per asset (exchange-core's balance is
 * our available), what its open orders hold (our held), and the totals: balances, fees, orders balances.
 *
 * <p>exchange-core runs with {@code msgsInGroupLimit(1)} ({@link ExchangeCoreRunner}): with its default of
 * 256 its risk pre-check runs ahead of settlement and which orders are refused for funds is not determined
 * by the commands alone.
 */
class FundsDifferentialTest {
    private static final long[] SEEDS = {1, 2, 3};
    private static final int COMMANDS = 4_000;
    private static final int CHECK_EVERY = 1_000;
    private static final int QUOTE = 10;
    private static final int[] ASSETS = {QUOTE, 20, 30};

    private final Map<RejectReason, Integer> reasons = new EnumMap<>(RejectReason.class);
    private long trades;
    private long budgetFilled;
    private long budgetKilled;
    private long selfTrades;

    @Test
    void randomStreamsAgreeWithExchangeCore() {
        for (final long seed : SEEDS) {
            run(seed);
        }
        // The streams must keep reaching every rule the mapping covers, or the comparison weakens unnoticed.
        for (final RejectReason reason : new RejectReason[]{RejectReason.NONE, RejectReason.INSUFFICIENT_FUNDS,
            RejectReason.INVALID_RESERVE_PRICE, RejectReason.INVALID_PRICE, RejectReason.UNKNOWN_ORDER, RejectReason.INVALID_QUANTITY,
            RejectReason.DUPLICATE_REFERENCE}) {
            assertTrue(reasons.getOrDefault(reason, 0) > 0, "no command answered " + reason + ": " + reasons);
        }
        assertTrue(trades > 1_000, "trades: " + trades);
        assertTrue(budgetFilled > 0 && budgetKilled > 0, "FOK_BUDGET filled " + budgetFilled + ", killed " + budgetKilled);
        assertTrue(selfTrades > 0, "self-trades: " + selfTrades);
    }

    private void run(final long seed) {
        final SplittableRandom random = new SplittableRandom(seed * 7919);
        final List<SymbolSpec> symbols = List.of(pair(1, 20, random), pair(2, 30, random));
        final long[] users = new long[50 + random.nextInt(101)];
        for (int i = 0; i < users.length; i++) {
            users[i] = 1 + i * 3L;
        }
        final List<AssetSpec> assets = new ArrayList<>();
        for (final int asset : ASSETS) {
            assets.add(new AssetSpec(asset, "A" + asset, 0));
        }
        final MatchingEngine ours = new MatchingEngine(new EngineConfig(symbols, List.of(), RiskCheck.FUNDS.bit(), true,
            AccountSpec.unlimited(0), assets));
        final FundsStream stream = new FundsStream(seed, users, symbols, ASSETS);
        final Command c = new Command();
        final Result r = new Result();
        try (ExchangeCoreRunner ec = ExchangeCoreRunner.start()) {
            for (final SymbolSpec spec : symbols) {
                ec.addSymbol(spec);
            }
            for (final long uid : users) {
                ec.addUser(uid);
            }
            int index = 0;
            for (final long uid : users) {
                for (final int asset : ASSETS) {
                    step(seed, index++, stream.initialDeposit(c, uid, asset, asset == QUOTE), r, ec, ours, symbols, stream);
                }
            }
            for (int i = 1; i <= COMMANDS; i++) {
                step(seed, index++, stream.next(c), r, ec, ours, symbols, stream);
                if (i % CHECK_EVERY == 0 || i == COMMANDS) {
                    AccountCheck.all(ec, ours, users, symbols, ASSETS, "seed " + seed + " after command " + index);
                }
            }
        }
    }

    /**
     * A pair of base/QUOTE with random scales and fees (makerFee <= takerFee, as ours requires): no fees, fees of
     * a third to most of the price (so asks near the fee threshold trade), or small ones; a maker fee of 0, the
     * taker's, or between.
     */
    private static SymbolSpec pair(final int id, final int base, final SplittableRandom random) {
        final long baseScale = new long[]{1, 10, 100}[random.nextInt(3)];
        final long quoteScale = new long[]{1, 5, 10}[random.nextInt(3)];
        final long takerFee = switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> quoteScale * (30 + random.nextInt(40));
            default -> quoteScale * random.nextInt(40) + random.nextInt((int) quoteScale + 1);
        };
        final long makerFee = switch (random.nextInt(3)) {
            case 0 -> 0;
            case 1 -> takerFee;
            default -> random.nextLong(takerFee + 1);
        };
        return SymbolSpec.plain(id).withAssets(base, QUOTE, baseScale, quoteScale, takerFee, makerFee);
    }

    private void step(final long seed, final int index, final Command c, final Result r, final ExchangeCoreRunner ec,
                      final MatchingEngine ours, final List<SymbolSpec> symbols, final FundsStream stream) {
        final OrderCommand answer = ec.apply(c);
        final List<String> theirs = Answers.theirs(answer);
        final SymbolSpec spec = c.type == CommandType.NEW_ORDER ? spec(symbols, c.symbol) : null;
        final RejectReason expected = Answers.expectedReason(answer.resultCode, c, spec);
        ours.apply(c, r);
        final List<String> mine = Answers.ours(r);
        if (expected != r.rejectReason || !theirs.equals(mine)) {
            fail("seed " + seed + ", command " + index + ": " + c + "\n  exchange-core: " + answer.resultCode + " -> " + expected
                + " " + theirs + "\n  ours:          " + r.rejectReason + " " + mine + "\n  our result: " + r);
        }
        reasons.merge(r.rejectReason, 1, Integer::sum);
        trades += r.fillCount();
        for (int i = 0; i < r.fillCount(); i++) {
            if (r.fill(i).makerAccount == r.fill(i).takerAccount) {
                selfTrades++;
            }
        }
        if (c.type == CommandType.NEW_ORDER && c.timeInForce == TimeInForce.FOK_BUDGET && !r.isRejected()) {
            if (r.fillCount() > 0) {
                budgetFilled++;
            } else {
                budgetKilled++;
            }
        }
        stream.observe(c, r);
    }

    private static SymbolSpec spec(final List<SymbolSpec> symbols, final int id) {
        for (final SymbolSpec spec : symbols) {
            if (spec.id() == id) {
                return spec;
            }
        }
        throw new IllegalArgumentException("symbol " + id);
    }
}
