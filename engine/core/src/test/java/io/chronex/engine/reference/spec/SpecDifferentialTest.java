package io.chronex.engine.reference.spec;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * MatchingEngine against the independent spec model on seeded random streams: after every command
 * both results must be equal (their canonical text), and every {@value #DEPTH_EVERY} commands and
 * at the end every book must be equal level by level, and equal to a book rebuilt from the engine's
 * level changes alone. After every command the available and held amounts of every asset of every
 * account the result names (only those can have moved) and every asset's fees must be equal too; every
 * {@value #DEPTH_EVERY} commands and at the end, those of every account and every asset's totals, and
 * both sides must conserve money (per asset: the accounts' available and held plus the fees make
 * deposited - withdrawn + adjusted) with nothing held below zero. Each stream must also have exercised what its configuration makes
 * possible, so the test cannot quietly go weak.
 */
final class SpecDifferentialTest {
    private static final int DEPTH_EVERY = 1_000;
    /** Commands kept for a failure message. */
    private static final int HISTORY = Integer.getInteger("specdiff.history", 12);

    static Stream<Arguments> streams() {
        final int all = RiskCheck.all();
        // -Dspecdiff.commands=N shortens every stream, for a quick look while working; the default is the real test.
        final int n = Integer.getInteger("specdiff.commands", 180_000);
        final int usual = SpecCommandStream.USUAL_LIVE_PER_SYMBOL;
        // Engines sized for fewer orders than the books hold, so every growth path runs (1024 is the default).
        return Stream.of(
            Arguments.of(0x5EED_0001L, all, true, 1024, usual, n),
            Arguments.of(0x5EED_0002L, all, true, 0, usual, n),
            Arguments.of(0x5EED_0003L, all, false, 16, usual, n),
            // Money moves by deposits, withdrawals and adjustments only: orders hold nothing and trades settle nothing.
            Arguments.of(0x5EED_0004L, all & ~RiskCheck.FUNDS.bit(), true, 64, usual, n),
            // Every check but self-trade prevention and halts: the other switches' off paths.
            Arguments.of(0x5EED_0005L, all & ~RiskCheck.SELF_TRADE_PREVENTION.bit() & ~RiskCheck.HALT.bit(), true, 1024, usual, n),
            // No checks, so no open-order limits either: a higher book target and fewer crossing prices, so deeper books.
            Arguments.of(0x5EED_0006L, 0, true, 0, usual * 5, n));
    }

    @ParameterizedTest(name = "seed {0}, risk checks {1}, accounts on first use {2}, engine sized for {3} orders, "
        + "book target {4}: {5} commands")
    @MethodSource("streams")
    void engineGivesTheSpecModelsResultForEveryCommandAndTheSameBooks(final long seed, final int riskChecks,
                                                                      final boolean createAccountsOnFirstUse,
                                                                      final int expectedOrders, final int livePerSymbol,
                                                                      final int commands) {
        final SpecCommandStream stream = new SpecCommandStream(seed, riskChecks, createAccountsOnFirstUse, livePerSymbol);
        final MatchingEngine engine = new MatchingEngine(stream.config(), expectedOrders);
        final SpecReference ref = new SpecReference(stream.config());
        final LevelBook rebuilt = new LevelBook();
        final Coverage coverage = new Coverage();
        final ArrayDeque<String> history = new ArrayDeque<>();
        final Command c = new Command();
        final Command original = new Command();
        final Result engineResult = new Result();
        final Result refResult = new Result();

        for (int i = 0; i < commands; i++) {
            stream.next(c);
            original.copyFrom(c);
            engine.apply(c, engineResult);
            ref.apply(c, refResult);
            final String expected = refResult.toString();
            final String actual = engineResult.toString();
            if (!expected.equals(actual)) {
                fail("seed 0x" + Long.toHexString(seed) + " command #" + i + ": " + original
                    + "\n--- spec model:\n" + expected + "\n--- engine:\n" + actual
                    + "\n--- the commands before it (newest last):\n" + String.join("\n", history));
            }
            history.addLast("#" + i + " " + original + "\n    -> " + expected.replace("\n", "\n    "));
            if (history.size() > HISTORY) {
                history.removeFirst();
            }
            final String moneyDiff = (i + 1) % DEPTH_EVERY == 0 || i + 1 == commands
                ? compareMoney(engine, ref) : compareTouchedMoney(engineResult, engine, ref);
            if (moneyDiff != null) {
                fail("seed 0x" + Long.toHexString(seed) + " after command #" + i + ": " + moneyDiff
                    + "\n--- the commands up to it (newest last):\n" + String.join("\n", history));
            }
            rebuilt.apply(engineResult);
            coverage.count(original, engineResult, ref, riskChecks);
            stream.observe(original, engineResult);
            if ((i + 1) % DEPTH_EVERY == 0 || i + 1 == commands) {
                compareBooks(seed, i, engine, ref, rebuilt, coverage);
            }
        }
        coverage.assertComplete(seed, riskChecks, createAccountsOnFirstUse, stream.exactFundsOutcomes());
        System.out.printf("seed 0x%x: %s%n", seed, coverage);
    }

    private static void compareBooks(final long seed, final int index, final MatchingEngine engine, final SpecReference ref,
                                     final LevelBook rebuilt, final Coverage coverage) {
        int resting = 0;
        for (final int symbol : SpecCommandStream.SYMBOLS) {
            resting += ref.restingOrders(symbol);
            for (final Side side : Side.values()) {
                final String where = "seed 0x" + Long.toHexString(seed) + " after command #" + index + ", symbol "
                    + symbol + " " + side;
                final String engineDepth = depth(engine, symbol, side);
                assertEquals(depth(ref, symbol, side), engineDepth, where + ": engine book differs from the spec model's");
                assertEquals(rebuilt.depth(symbol, side), engineDepth,
                    where + ": the engine's level changes do not rebuild its book");
                coverage.depth(engine.levelCount(symbol, side));
            }
            assertEquals(ref.bestBid(symbol), engine.bestBid(symbol), "best bid, symbol " + symbol);
            assertEquals(ref.bestAsk(symbol), engine.bestAsk(symbol), "best ask, symbol " + symbol);
        }
        coverage.restingMax = Math.max(coverage.restingMax, resting);
    }

    /** The first difference in the money of the accounts a result names (subject, fills, cancels) or in fees; null when none. */
    private static String compareTouchedMoney(final Result r, final MatchingEngine engine, final SpecReference ref) {
        String diff = compareAccount(r.account, engine, ref);
        for (int i = 0; diff == null && i < r.fillCount(); i++) {
            diff = compareAccount(r.fill(i).makerAccount, engine, ref);
        }
        for (int i = 0; diff == null && i < r.cancelCount(); i++) {
            diff = compareAccount(r.cancel(i).account, engine, ref);
        }
        for (final int asset : SpecCommandStream.ASSETS) {
            if (diff == null && !ref.feesCollected(asset).equals(BigInteger.valueOf(engine.feesCollected(asset)))) {
                diff = "asset " + asset + " fees: spec model " + ref.feesCollected(asset) + ", engine " + engine.feesCollected(asset);
            }
        }
        return diff;
    }

    private static String compareAccount(final long account, final MatchingEngine engine, final SpecReference ref) {
        for (final int asset : SpecCommandStream.ASSETS) {
            final long available = engine.available(account, asset);
            final long held = engine.held(account, asset);
            if (available != ref.available(account, asset) || held != ref.held(account, asset)) {
                return "account " + account + " asset " + asset + ": spec model available " + ref.available(account, asset)
                    + " held " + ref.held(account, asset) + ", engine available " + available + " held " + held;
            }
            // Available may go below zero (docs/engine.md, clarification 14); what is held never may.
            if (held < 0) {
                return "account " + account + " asset " + asset + " holds below zero: " + held;
            }
        }
        return null;
    }

    /** The first difference in money between engine and model, or a broken conservation or negative hold in either; null when none. */
    private static String compareMoney(final MatchingEngine engine, final SpecReference ref) {
        final long[] refAccounts = ref.accountIds().stream().mapToLong(Long::longValue).toArray();
        if (!Arrays.equals(refAccounts, engine.accountIds())) {
            return "accounts: spec model " + Arrays.toString(refAccounts) + ", engine " + Arrays.toString(engine.accountIds());
        }
        for (final int asset : ref.assetIds()) {
            BigInteger engineSum = BigInteger.valueOf(engine.feesCollected(asset));
            BigInteger refSum = ref.feesCollected(asset);
            if (!refSum.equals(engineSum)) {
                return "asset " + asset + " fees: spec model " + refSum + ", engine " + engineSum;
            }
            for (final long account : refAccounts) {
                final long available = engine.available(account, asset);
                final long held = engine.held(account, asset);
                if (available != ref.available(account, asset) || held != ref.held(account, asset)) {
                    return "account " + account + " asset " + asset + ": spec model available " + ref.available(account, asset)
                        + " held " + ref.held(account, asset) + ", engine available " + available + " held " + held;
                }
                if (held < 0 || ref.held(account, asset) < 0) {
                    return "account " + account + " asset " + asset + " holds below zero: engine " + held + ", model "
                        + ref.held(account, asset);
                }
                engineSum = engineSum.add(BigInteger.valueOf(available)).add(BigInteger.valueOf(held));
                refSum = refSum.add(BigInteger.valueOf(ref.available(account, asset))).add(BigInteger.valueOf(ref.held(account, asset)));
            }
            // Running totals of deposits and of withdrawals wrap around (clarification 12); their net is exact.
            if (ref.deposited(asset).longValue() != engine.deposited(asset) || ref.withdrawn(asset).longValue() != engine.withdrawn(asset)
                || !ref.netDeposits(asset).equals(BigInteger.valueOf(engine.netDeposits(asset)))) {
                return "asset " + asset + " deposited/withdrawn/net: spec model " + ref.deposited(asset) + "/" + ref.withdrawn(asset)
                    + "/" + ref.netDeposits(asset) + ", engine " + engine.deposited(asset) + "/" + engine.withdrawn(asset) + "/"
                    + engine.netDeposits(asset);
            }
            if (!refSum.equals(ref.netDeposits(asset))) {
                return "asset " + asset + ": the spec model does not conserve money: balances and fees " + refSum + ", net deposits "
                    + ref.netDeposits(asset);
            }
            if (!engineSum.equals(BigInteger.valueOf(engine.netDeposits(asset)))) {
                return "asset " + asset + ": the engine does not conserve money: balances and fees " + engineSum + ", net deposits "
                    + engine.netDeposits(asset);
            }
        }
        return null;
    }

    private static String depth(final MatchingEngine e, final int symbol, final Side side) {
        final StringBuilder sb = new StringBuilder();
        for (int d = 0; d < e.levelCount(symbol, side); d++) {
            sb.append(e.levelPrice(symbol, side, d)).append(' ').append(e.levelQuantity(symbol, side, d))
                .append('/').append(e.levelOrderCount(symbol, side, d)).append('\n');
        }
        return sb.toString();
    }

    private static String depth(final SpecReference r, final int symbol, final Side side) {
        final StringBuilder sb = new StringBuilder();
        for (int d = 0; d < r.levelCount(symbol, side); d++) {
            sb.append(r.levelPrice(symbol, side, d)).append(' ').append(r.levelQuantity(symbol, side, d))
                .append('/').append(r.levelOrderCount(symbol, side, d)).append('\n');
        }
        return sb.toString();
    }

    /** A book kept only from level changes, as a market-data consumer would keep it. */
    private static final class LevelBook {
        private final Map<String, TreeMap<Long, String>> sides = new TreeMap<>();

        void apply(final Result r) {
            for (int i = 0; i < r.levelChangeCount(); i++) {
                final LevelChange lc = r.levelChange(i);
                final TreeMap<Long, String> levels = side(lc.symbol, lc.side);
                if (lc.quantity == 0 && lc.orderCount == 0) {
                    levels.remove(lc.price);
                } else {
                    levels.put(lc.price, lc.quantity + "/" + lc.orderCount);
                }
            }
        }

        String depth(final int symbol, final Side side) {
            final StringBuilder sb = new StringBuilder();
            for (final Map.Entry<Long, String> e : side(symbol, side).entrySet()) {
                sb.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
            }
            return sb.toString();
        }

        private TreeMap<Long, String> side(final int symbol, final Side side) {
            return sides.computeIfAbsent(symbol + " " + side,
                k -> side == Side.BUY ? new TreeMap<>(java.util.Comparator.reverseOrder()) : new TreeMap<>());
        }
    }

    /** What a stream exercised; {@link #assertComplete} fails when it missed something its configuration allows. */
    private static final class Coverage {
        final EnumMap<CommandType, Integer> accepted = new EnumMap<>(CommandType.class);
        final EnumMap<RejectReason, Integer> rejects = new EnumMap<>(RejectReason.class);
        final EnumMap<CancelReason, Integer> cancels = new EnumMap<>(CancelReason.class);
        final EnumMap<SelfTradePrevention, Integer> selfTrade = new EnumMap<>(SelfTradePrevention.class);
        final Set<String> flavours = new TreeSet<>();
        long commands;
        long fills;
        long depthSamples;
        long depthTotal;
        int depthMax;
        int restingMax;

        void count(final Command c, final Result r, final SpecReference ref, final int riskChecks) {
            commands++;
            fills += r.fillCount();
            if (r.isRejected()) {
                rejects.merge(r.rejectReason, 1, Integer::sum);
                if (r.rejectReason == RejectReason.INVALID_PRICE && c.type == CommandType.NEW_ORDER && c.side == Side.SELL
                    && c.price >= 1 && c.price <= Command.MAX_PRICE) {
                    flavours.add("ask below the fee");
                }
                if (r.rejectReason == RejectReason.INSUFFICIENT_FUNDS) {
                    flavours.add(c.type + " INSUFFICIENT_FUNDS");
                }
                return;
            }
            accepted.merge(r.commandType, 1, Integer::sum);
            boolean makerRemovedForSelfTrade = false;
            boolean takerStoppedForSelfTrade = false;
            for (int i = 0; i < r.cancelCount(); i++) {
                final Cancel x = r.cancel(i);
                cancels.merge(x.reason, 1, Integer::sum);
                if (x.reason == CancelReason.SELF_TRADE_PREVENTION) {
                    if (x.orderId == r.orderId) {
                        takerStoppedForSelfTrade = true;
                    } else {
                        makerRemovedForSelfTrade = true;
                    }
                }
            }
            // Which mode acted is told by the shape of the result, then checked against the taker's account.
            final boolean stpOn = (riskChecks & RiskCheck.SELF_TRADE_PREVENTION.bit()) != 0;
            final SelfTradePrevention mode = stpOn ? ref.selfTradePrevention(r.account) : SelfTradePrevention.OFF;
            if (makerRemovedForSelfTrade || takerStoppedForSelfTrade) {
                final SelfTradePrevention shape = makerRemovedForSelfTrade && takerStoppedForSelfTrade
                    ? SelfTradePrevention.CANCEL_BOTH
                    : makerRemovedForSelfTrade ? SelfTradePrevention.CANCEL_RESTING : SelfTradePrevention.CANCEL_INCOMING;
                if (shape == mode) {
                    selfTrade.merge(mode, 1, Integer::sum);
                } else {
                    flavours.add("self-trade shape " + shape + " under mode " + mode);
                }
            }
            for (int i = 0; i < r.fillCount(); i++) {
                final Fill f = r.fill(i);
                if (f.takerAccount == f.makerAccount && mode == SelfTradePrevention.OFF) {
                    selfTrade.merge(SelfTradePrevention.OFF, 1, Integer::sum);
                }
            }
            if (r.commandType == CommandType.NEW_ORDER) {
                final String kind = (r.orderType == OrderType.MARKET ? "MARKET " : "") + r.timeInForce
                    + (c.postOnly ? " post-only" : "");
                flavours.add(kind + " " + r.orderStatus);
            } else if ((r.commandType == CommandType.MOVE || r.commandType == CommandType.REPLACE) && r.fillCount() > 0) {
                flavours.add(r.commandType + " traded");
            }
            if (c.orderId != 0 && r.orderId == c.orderId && r.commandType != CommandType.NEW_ORDER) {
                flavours.add(r.commandType + " by engine id");
            }
        }

        void depth(final int levels) {
            depthSamples++;
            depthTotal += levels;
            depthMax = Math.max(depthMax, levels);
        }

        double meanDepth() {
            return depthSamples == 0 ? 0 : (double) depthTotal / depthSamples;
        }

        void assertComplete(final long seed, final int riskChecks, final boolean createAccountsOnFirstUse,
                            final int[] exactFunds) {
            final String who = "seed 0x" + Long.toHexString(seed) + ": ";
            for (final CommandType type : CommandType.values()) {
                // CONFIGURATION is a journal record the engine process answers, never a command the core sees.
                assertTrue(type == CommandType.CONFIGURATION || accepted.getOrDefault(type, 0) > 0, who + "no accepted " + type);
            }
            final Set<RejectReason> expectedRejects = EnumSet.allOf(RejectReason.class);
            // NONE is not a reject; MALFORMED_COMMAND and INVALID_CONFIGURATION are written only by the engine process.
            expectedRejects.remove(RejectReason.NONE);
            expectedRejects.remove(RejectReason.MALFORMED_COMMAND);
            expectedRejects.remove(RejectReason.INVALID_CONFIGURATION);
            final Map<RiskCheck, Set<RejectReason>> byCheck = Map.of(
                RiskCheck.HALT, EnumSet.of(RejectReason.SYMBOL_HALTED),
                RiskCheck.KILL_SWITCH, EnumSet.of(RejectReason.KILL_SWITCH_ACTIVE),
                RiskCheck.TICK_AND_LOT, EnumSet.of(RejectReason.PRICE_NOT_ON_TICK, RejectReason.QUANTITY_NOT_ON_LOT),
                RiskCheck.PRICE_BAND, EnumSet.of(RejectReason.PRICE_OUTSIDE_BAND),
                RiskCheck.MAX_ORDER_QUANTITY, EnumSet.of(RejectReason.MAX_ORDER_QUANTITY_EXCEEDED),
                RiskCheck.MAX_ORDER_NOTIONAL, EnumSet.of(RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED),
                RiskCheck.MAX_OPEN_ORDERS, EnumSet.of(RejectReason.MAX_OPEN_ORDERS_EXCEEDED),
                // Withdrawals and adjustments can be refused INSUFFICIENT_FUNDS with FUNDS off; only a reserve price needs it on.
                RiskCheck.FUNDS, EnumSet.of(RejectReason.INVALID_RESERVE_PRICE));
            for (final Map.Entry<RiskCheck, Set<RejectReason>> e : byCheck.entrySet()) {
                if ((riskChecks & e.getKey().bit()) == 0) {
                    expectedRejects.removeAll(e.getValue());
                }
            }
            final Set<RejectReason> missing = EnumSet.copyOf(expectedRejects);
            missing.removeAll(rejects.keySet());
            assertTrue(missing.isEmpty(), who + "reject reasons never produced: " + missing);
            final Set<RejectReason> impossible = EnumSet.copyOf(rejects.keySet());
            impossible.removeAll(expectedRejects);
            assertTrue(impossible.isEmpty(), who + "reject reasons this configuration should never give: " + impossible);

            final boolean stpOn = (riskChecks & RiskCheck.SELF_TRADE_PREVENTION.bit()) != 0;
            final Set<CancelReason> expectedCancels = EnumSet.allOf(CancelReason.class);
            if (!stpOn) {
                expectedCancels.remove(CancelReason.SELF_TRADE_PREVENTION);
            }
            assertEquals(expectedCancels, EnumSet.copyOf(cancels.keySet()), who + "cancel reasons seen");

            final Set<SelfTradePrevention> expectedModes = stpOn
                ? EnumSet.allOf(SelfTradePrevention.class) : EnumSet.of(SelfTradePrevention.OFF);
            assertEquals(expectedModes, selfTrade.isEmpty() ? EnumSet.noneOf(SelfTradePrevention.class)
                : EnumSet.copyOf(selfTrade.keySet()), who + "self-trade modes that fired");
            assertTrue(flavours.stream().noneMatch(f -> f.startsWith("self-trade shape")),
                who + "a self-trade result did not match its account's mode: " + flavours);

            assertTrue(fills > commands / 8, who + "too few fills: " + fills + " in " + commands + " commands");
            for (final String flavour : new String[] {"FOK FILLED", "FOK CANCELLED", "FOK_BUDGET FILLED",
                "FOK_BUDGET CANCELLED", "IOC FILLED", "IOC CANCELLED", "GTC NEW", "GTC PARTIALLY_FILLED", "GTC FILLED",
                "DAY NEW", "DAY PARTIALLY_FILLED", "GTC post-only NEW", "DAY post-only NEW",
                "MARKET GTC FILLED", "MARKET IOC CANCELLED", "MARKET FOK FILLED", "MARKET FOK CANCELLED",
                "MOVE traded", "REPLACE traded", "CANCEL by engine id", "REPLACE by engine id", "MOVE by engine id",
                "REDUCE by engine id"}) {
                assertTrue(flavours.contains(flavour), who + "never saw " + flavour + "; saw " + flavours);
            }
            final boolean funds = (riskChecks & RiskCheck.FUNDS.bit()) != 0;
            for (final String flavour : new String[] {"WITHDRAW INSUFFICIENT_FUNDS", "ADJUST INSUFFICIENT_FUNDS"}) {
                assertTrue(flavours.contains(flavour), who + "never saw " + flavour + "; saw " + flavours);
            }
            if (funds) {
                for (final String flavour : new String[] {"NEW_ORDER INSUFFICIENT_FUNDS", "MOVE INSUFFICIENT_FUNDS",
                    "REPLACE INSUFFICIENT_FUNDS", "ask below the fee"}) {
                    assertTrue(flavours.contains(flavour), who + "never saw " + flavour + "; saw " + flavours);
                }
                assertTrue(exactFunds[0] > 0 && exactFunds[1] > 0 && exactFunds[2] > 0,
                    who + "orders using exactly the funds available: accepted " + exactFunds[0] + ", refused one unit short "
                        + exactFunds[1] + ", amendments then refused " + exactFunds[2]);
            }
            // The books must have been books: several levels deep on average, not empty or one level.
            assertTrue(meanDepth() >= 4 && meanDepth() <= 60, who + "mean depth " + meanDepth());
        }

        @Override
        public String toString() {
            return String.format("%,d commands, %,d fills, mean depth %.1f levels (max %d), up to %,d resting orders"
                    + "%n  accepted %s%n  rejects %s%n  cancels %s%n  self-trade %s", commands, fills, meanDepth(), depthMax,
                restingMax, accepted, rejects,
                cancels, selfTrade);
        }
    }
}
