package io.chronex.engine.reference;

import io.chronex.engine.BookText;
import io.chronex.engine.MatchingEngine;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.LevelChange;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real engine and the deliberately simple {@link ReferenceEngine} are fed the same random
 * streams and must give identical results after every command, identical balances and fees
 * (which must also add up to what was deposited) and identical books throughout.
 * Coverage is asserted too, so the streams cannot quietly stop exercising a rule.
 */
class DifferentialTest {
    private static final int[] SYMBOLS = {RandomCommandStream.PLAIN, RandomCommandStream.TICKED, RandomCommandStream.COARSE};

    private static final Set<CommandType> COMMAND_TYPES = EnumSet.noneOf(CommandType.class);
    private static final Set<RejectReason> REJECT_REASONS = EnumSet.noneOf(RejectReason.class);
    private static final Set<CancelReason> CANCEL_REASONS = EnumSet.noneOf(CancelReason.class);
    private static final Set<SelfTradePrevention> SELF_TRADE_MODES_FIRED = EnumSet.noneOf(SelfTradePrevention.class);
    private static long commandsCompared;
    private static long fills;
    /** Fills that moved money, and orders refused for want of it: the FUNDS streams must have plenty of both. */
    private static long paidFills;
    private static long ordersWithoutFunds;

    private static void run(final long seed, final EngineConfig config, final int commands) {
        final MatchingEngine engine = new MatchingEngine(config);
        final ReferenceEngine reference = new ReferenceEngine(config);
        final RandomCommandStream stream = new RandomCommandStream(seed, reference);
        final Command command = new Command();
        final Command copy = new Command();
        final Result actual = new Result();
        final Result expected = new Result();
        final L2Book rebuilt = new L2Book();
        for (int i = 0; i < commands; i++) {
            stream.next(command);
            copy.copyFrom(command);
            engine.apply(command, actual);
            reference.apply(copy, expected);
            final String actualText = actual.toString();
            final String expectedText = expected.toString();
            if (!actualText.equals(expectedText)) {
                fail("seed " + seed + ", command #" + i + ": " + copy + "\nreference:\n" + expectedText + "\nengine:\n" + actualText);
            }
            record(actual, config);
            rebuilt.apply(actual);
            compareTouchedBalances(engine, reference, actual, seed, i, copy);
            if (i % 1_000 == 0 || i == commands - 1) {
                compareMoney(engine, reference, seed, i, copy);
                assertNull(reference.holdsDisagree(), "seed " + seed + ", after command #" + i + ": the reference's own holds");
            }
            if (i % 1_000 == 0 || i == commands - 1) {
                for (final int symbol : SYMBOLS) {
                    for (final Side side : Side.values()) {
                        assertEquals(reference.depth(symbol, side), BookText.depth(engine, symbol, side),
                            "seed " + seed + ", after command #" + i + ", symbol " + symbol + " " + side);
                        assertEquals(BookText.depth(engine, symbol, side), rebuilt.depth(symbol, side),
                            "seed " + seed + ", after command #" + i + ": depth rebuilt from level changes alone, symbol " + symbol
                                + " " + side);
                    }
                }
            }
        }
        commandsCompared += commands;
    }

    /**
     * Every account's balances of every asset and the fees must be equal in both; and in each, held is
     * never negative (available can be: a MARKET or FOK_BUDGET ask that sells below the taker fee pays
     * the fee from its account, docs/engine.md), and per asset the balances and fees add up to the net deposits
     * (once the two agree on every figure, one sum checks both). Messages are built only on failure.
     */
    private static void compareMoney(final MatchingEngine engine, final ReferenceEngine reference, final long seed, final int i,
                                     final Command command) {
        final long[] accounts = reference.accountIds();
        if (!Arrays.equals(accounts, engine.accountIds())) {
            fail(where(seed, i, command) + ": accounts: reference " + Arrays.toString(accounts) + ", engine "
                + Arrays.toString(engine.accountIds()));
        }
        for (final int asset : RandomCommandStream.ASSETS) {
            long sum = engine.feesCollected(asset);
            if (sum != reference.feesCollected(asset)) {
                fail(where(seed, i, command) + ": fees in asset " + asset + ": reference " + reference.feesCollected(asset) + ", engine "
                    + sum);
            }
            for (final long account : accounts) {
                final long available = engine.available(account, asset);
                final long held = engine.held(account, asset);
                if (available != reference.available(account, asset) || held != reference.held(account, asset)) {
                    fail(where(seed, i, command) + ": account " + account + " asset " + asset + ": reference available "
                        + reference.available(account, asset) + " held " + reference.held(account, asset) + ", engine available "
                        + available + " held " + held);
                }
                if (held < 0) {
                    fail(where(seed, i, command) + ": account " + account + " asset " + asset + ": available " + available + " held "
                        + held);
                }
                sum = Math.addExact(sum, Math.addExact(available, held));
            }
            if (reference.netDeposits(asset) != engine.netDeposits(asset) || reference.deposited(asset) != engine.deposited(asset)
                || reference.withdrawn(asset) != engine.withdrawn(asset)) {
                fail(where(seed, i, command) + ": asset " + asset + ": reference deposited " + reference.deposited(asset) + " withdrawn "
                    + reference.withdrawn(asset) + " net " + reference.netDeposits(asset) + ", engine deposited " + engine.deposited(asset)
                    + " withdrawn " + engine.withdrawn(asset) + " net " + engine.netDeposits(asset));
            }
            if (sum != engine.netDeposits(asset)) {
                fail(where(seed, i, command) + ": asset " + asset + ": balances and fees add up to " + sum + ", net deposits are "
                    + engine.netDeposits(asset));
            }
        }
    }

    /**
     * After every command: the balances of the accounts the result names (the command's account, both
     * sides of every fill, the owner of every cancelled order) are the only ones it can have changed, so
     * comparing those, and the fees and deposit totals, finds a difference at the command that made it
     * at a fraction of the cost of comparing every account.
     */
    private static void compareTouchedBalances(final MatchingEngine engine, final ReferenceEngine reference, final Result r,
                                               final long seed, final int i, final Command command) {
        compareBalances(engine, reference, r.account, seed, i, command);
        for (int f = 0; f < r.fillCount(); f++) {
            // The taker is the command's account, already compared.
            compareBalances(engine, reference, r.fill(f).makerAccount, seed, i, command);
        }
        for (int x = 0; x < r.cancelCount(); x++) {
            if (r.cancel(x).account != r.account) {
                compareBalances(engine, reference, r.cancel(x).account, seed, i, command);
            }
        }
        for (final int asset : RandomCommandStream.ASSETS) {
            if (engine.feesCollected(asset) != reference.feesCollected(asset)
                || engine.netDeposits(asset) != reference.netDeposits(asset)) {
                fail(where(seed, i, command) + ": asset " + asset + ": reference fees " + reference.feesCollected(asset) + " net deposits "
                    + reference.netDeposits(asset) + ", engine fees " + engine.feesCollected(asset) + " net deposits "
                    + engine.netDeposits(asset));
            }
        }
    }

    private static void compareBalances(final MatchingEngine engine, final ReferenceEngine reference, final long account,
                                        final long seed, final int i, final Command command) {
        for (final int asset : RandomCommandStream.ASSETS) {
            final long available = engine.available(account, asset);
            final long held = engine.held(account, asset);
            if (available != reference.available(account, asset) || held != reference.held(account, asset) || held < 0) {
                fail(where(seed, i, command) + ": account " + account + " asset " + asset + ": reference available "
                    + reference.available(account, asset) + " held " + reference.held(account, asset) + ", engine available "
                    + available + " held " + held);
            }
        }
    }

    private static String where(final long seed, final int i, final Command command) {
        return "seed " + seed + ", after command #" + i + " " + command;
    }

    /** A book kept only from results' level changes, as a market-data reader would. */
    private static final class L2Book {
        private final Map<String, TreeMap<Long, long[]>> sides = new HashMap<>();

        void apply(final Result r) {
            for (int i = 0; i < r.levelChangeCount(); i++) {
                final LevelChange change = r.levelChange(i);
                final TreeMap<Long, long[]> levels = sides.computeIfAbsent(change.symbol + "/" + change.side,
                    key -> change.side == Side.BUY ? new TreeMap<>(Comparator.reverseOrder()) : new TreeMap<>());
                if (change.quantity == 0) {
                    levels.remove(change.price);
                } else {
                    levels.put(change.price, new long[]{change.quantity, change.orderCount});
                }
            }
        }

        String depth(final int symbol, final Side side) {
            final StringBuilder sb = new StringBuilder();
            sides.getOrDefault(symbol + "/" + side, new TreeMap<>()).forEach((price, level) -> {
                if (!sb.isEmpty()) {
                    sb.append(' ');
                }
                sb.append(price).append(':').append(level[0]).append(':').append(level[1]);
            });
            return sb.toString();
        }
    }

    private static void record(final Result r, final EngineConfig config) {
        COMMAND_TYPES.add(r.commandType == null ? CommandType.NEW_ORDER : r.commandType);
        REJECT_REASONS.add(r.rejectReason);
        fills += r.fillCount();
        if (config.isOn(RiskCheck.FUNDS) && r.symbol != RandomCommandStream.PLAIN) {
            paidFills += r.fillCount();
            if (r.commandType == CommandType.NEW_ORDER && r.rejectReason == RejectReason.INSUFFICIENT_FUNDS) {
                ordersWithoutFunds++;
            }
        }
        boolean restingSelfTradeCancel = false;
        boolean incomingSelfTradeCancel = false;
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel cancel = r.cancel(i);
            CANCEL_REASONS.add(cancel.reason);
            if (cancel.reason == CancelReason.SELF_TRADE_PREVENTION) {
                if (cancel.orderId == r.orderId) {
                    incomingSelfTradeCancel = true;
                } else {
                    restingSelfTradeCancel = true;
                }
            }
        }
        if (restingSelfTradeCancel && incomingSelfTradeCancel) {
            SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.CANCEL_BOTH);
        } else if (restingSelfTradeCancel) {
            SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.CANCEL_RESTING);
        } else if (incomingSelfTradeCancel) {
            SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.CANCEL_INCOMING);
        }
        for (int i = 0; i < r.fillCount(); i++) {
            if (r.fill(i).makerAccount == r.fill(i).takerAccount) {
                SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.OFF);
            }
        }
    }

    @Test
    void riskOnAccountsCreatedOnFirstUse() {
        run(1, RandomCommandStream.riskOn(true), 250_000);
        // Without tick, lot and band checks, asks priced below the taker fee reach the FUNDS check.
        run(2, RandomCommandStream.config(RiskCheck.all() & ~RiskCheck.TICK_AND_LOT.bit() & ~RiskCheck.PRICE_BAND.bit(), true), 250_000);
    }

    @Test
    void riskOnAccountsMustBeConfigured() {
        run(3, RandomCommandStream.riskOn(false), 250_000);
        // Every check but FUNDS: balances move by deposits alone, orders hold nothing.
        run(4, RandomCommandStream.config(RiskCheck.all() & ~RiskCheck.FUNDS.bit(), false), 150_000);
    }

    @Test
    void riskChecksOff() {
        run(5, RandomCommandStream.config(0, true), 150_000);
    }

    @AfterAll
    static void streamsCoveredEveryRule() {
        assertEquals(1_050_000, commandsCompared, "every stream ran to the end");
        assertEquals(EnumSet.complementOf(EnumSet.of(CommandType.CONFIGURATION)), COMMAND_TYPES,
            "command types seen (CONFIGURATION is a journal record the engine process answers, not a command)");
        assertEquals(EnumSet.complementOf(EnumSet.of(RejectReason.MALFORMED_COMMAND, RejectReason.INVALID_CONFIGURATION)), REJECT_REASONS,
            "reject reasons seen (NONE = accepted; MALFORMED_COMMAND and INVALID_CONFIGURATION come from the engine process)");
        assertEquals(EnumSet.allOf(CancelReason.class), CANCEL_REASONS, "cancel reasons seen");
        assertEquals(EnumSet.allOf(SelfTradePrevention.class), SELF_TRADE_MODES_FIRED, "self-trade prevention modes that acted");
        assertTrue(fills > 50_000, "only " + fills + " fills");
        assertTrue(paidFills > 20_000, "only " + paidFills + " fills moved money");
        assertTrue(ordersWithoutFunds > 2_000, "only " + ordersWithoutFunds + " orders refused for want of funds");
    }
}
