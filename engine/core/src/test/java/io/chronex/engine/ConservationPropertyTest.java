package io.chronex.engine;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The money property: over random streams of deposits, withdrawals, adjustments, orders of every kind,
 * cancels, replaces, reduces, moves, expiries, mass cancels and kill switches, after every command and for
 * every asset, the accounts' available plus held plus the fees collected equal deposited - withdrawn +
 * adjusted, nothing held or available is negative, and (every 97 commands) what each account holds is
 * exactly what its resting orders need: leaves x (price x quoteScale + takerFee) per bid, leaves x
 * baseScale per ask. Fees are small against prices here, so no ask trades below its fee.
 */
class ConservationPropertyTest {
    private static final int USD = 1;
    private static final int ACME = 2;
    private static final int GLOBEX = 3;
    private static final int[] ASSETS = {USD, ACME, GLOBEX};
    /** Two symbols quoted in USD with different scales and fees; base asset per symbol. */
    private static final int[] SYMBOLS = {11, 12};
    private static final int[] BASE = {ACME, GLOBEX};
    private static final long[] BASE_SCALE = {1, 100};
    private static final long[] QUOTE_SCALE = {1, 10};
    private static final long[] TAKER = {5, 40};
    private static final long[] MAKER = {2, 40};
    private static final long[] ACCOUNTS = {1, 2, 3, 4};
    private static final long[] MONEY_SIZE = {600_000, 60, 6_000};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void everyAssetIsConservedAfterEveryCommand(final long seed) {
        final List<SymbolSpec> symbols = new ArrayList<>();
        for (int i = 0; i < SYMBOLS.length; i++) {
            symbols.add(new SymbolSpec(SYMBOLS[i], "S" + SYMBOLS[i], 100, 1, 1, 0, 0)
                .withAssets(BASE[i], USD, BASE_SCALE[i], QUOTE_SCALE[i], TAKER[i], MAKER[i]));
        }
        final MatchingEngine engine = new MatchingEngine(new EngineConfig(symbols,
            List.of(AccountSpec.unlimited(1), new AccountSpec(2, 0, 0, 0, SelfTradePrevention.CANCEL_RESTING),
                new AccountSpec(3, 0, 0, 0, SelfTradePrevention.CANCEL_BOTH), AccountSpec.unlimited(4)),
            RiskCheck.all(), false, null,
            List.of(new AssetSpec(USD, "USD", 2), new AssetSpec(ACME, "ACME", 0), new AssetSpec(GLOBEX, "GLOBEX", 3))));
        final SplittableRandom random = new SplittableRandom(seed);
        final Command c = new Command();
        final Result r = new Result();
        final Map<RejectReason, Integer> outcomes = new EnumMap<>(RejectReason.class);
        long reference = 1;
        long nextClientId = 1;
        long fills = 0;
        for (int n = 0; n < 60_000; n++) {
            final long account = ACCOUNTS[random.nextInt(ACCOUNTS.length)];
            final int s = random.nextInt(SYMBOLS.length);
            final int roll = random.nextInt(100);
            final long liveId = 1 + Math.max(0, nextClientId - 1 - random.nextInt(40));
            if (roll < 8) {
                final CommandType type = roll < 4 ? CommandType.DEPOSIT : roll < 7 ? CommandType.WITHDRAW : CommandType.ADJUST;
                final int asset = random.nextInt(ASSETS.length);
                // About what a few orders need of each asset, so that funds are sometimes short.
                final long amount = random.nextLong(1, MONEY_SIZE[asset]) * (type == CommandType.ADJUST && random.nextBoolean() ? -1 : 1);
                final long ref = random.nextInt(50) == 0 ? reference - 1 : reference++;
                c.money(type, account, ASSETS[asset], amount, ref);
            } else if (roll < 55) {
                final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                final int kind = random.nextInt(10);
                final OrderType type = kind == 0 ? OrderType.MARKET : OrderType.LIMIT;
                final TimeInForce tif = kind == 1 ? TimeInForce.IOC : kind == 2 ? TimeInForce.FOK : kind == 3 ? TimeInForce.DAY
                    : kind == 4 ? TimeInForce.FOK_BUDGET : TimeInForce.GTC;
                final long quantity = random.nextLong(1, 30);
                final long price = kind == 4 ? quantity * random.nextLong(9_000, 11_000) : random.nextLong(9_800, 10_200);
                c.newOrder(account, SYMBOLS[s], nextClientId++, side, type, type == OrderType.MARKET ? TimeInForce.IOC : tif, price,
                    quantity);
            } else if (roll < 65) {
                c.cancel(account, liveId);
            } else if (roll < 75) {
                c.replace(account, liveId, 0, random.nextLong(9_800, 10_200), random.nextLong(1, 40));
            } else if (roll < 83) {
                c.reduce(account, liveId, random.nextLong(1, 10));
            } else if (roll < 93) {
                c.move(account, liveId, random.nextLong(9_800, 10_200));
            } else if (roll < 95) {
                c.symbolCommand(CommandType.END_OF_DAY, SYMBOLS[s]);
            } else if (roll < 97) {
                c.massCancel(account, random.nextBoolean() ? SYMBOLS[s] : Command.ALL_SYMBOLS);
            } else {
                c.accountCommand(random.nextInt(6) == 0 ? CommandType.KILL_SWITCH_ON : CommandType.KILL_SWITCH_OFF, account);
            }
            engine.apply(c, r);
            outcomes.merge(r.rejectReason, 1, Integer::sum);
            fills += r.fillCount();
            assertConserved(engine, seed, n, c);
            if (n % 97 == 0) {
                assertHeldIsWhatRestingOrdersNeed(engine, seed, n);
            }
            if (n % 997 == 0) {
                final MatchingEngine restored = MatchingEngine.restore(engine.snapshot());
                for (final int asset : ASSETS) {
                    assertEquals(engine.heldTotal(asset), restored.heldTotal(asset), "seed " + seed + " command " + n
                        + ": held total of asset " + asset + " after a snapshot round trip");
                }
            }
        }
        assertTrue(fills > 3_000, "only " + fills + " fills");
        assertTrue(outcomes.getOrDefault(RejectReason.INSUFFICIENT_FUNDS, 0) > 1_000, "funds rarely short: " + outcomes);
        assertTrue(outcomes.getOrDefault(RejectReason.DUPLICATE_REFERENCE, 0) > 10, "no duplicate references: " + outcomes);
        assertTrue(outcomes.getOrDefault(RejectReason.NONE, 0) > 20_000, "too little accepted: " + outcomes);
    }

    private static void assertConserved(final MatchingEngine engine, final long seed, final int n, final Command c) {
        for (final int asset : ASSETS) {
            long total = engine.feesCollected(asset);
            long heldSum = 0;
            for (final long account : ACCOUNTS) {
                final long available = engine.available(account, asset);
                final long held = engine.held(account, asset);
                if (available < 0 || held < 0) {
                    fail("seed " + seed + " command " + n + " " + c + ": account " + account + " asset " + asset
                        + " available " + available + " held " + held);
                }
                total += available + held;
                heldSum += held;
            }
            if (heldSum != engine.heldTotal(asset)) {
                fail("seed " + seed + " command " + n + " " + c + ": asset " + asset + " held over the accounts " + heldSum
                    + ", the ledger's total " + engine.heldTotal(asset));
            }
            if (total != engine.netDeposits(asset)) {
                fail("seed " + seed + " command " + n + " " + c + ": asset " + asset + " adds up to " + total + ", net deposits "
                    + engine.netDeposits(asset));
            }
        }
    }

    private static void assertHeldIsWhatRestingOrdersNeed(final MatchingEngine engine, final long seed, final int n) {
        final Map<Long, long[]> needs = new java.util.HashMap<>();
        for (int s = 0; s < SYMBOLS.length; s++) {
            final int symbol = SYMBOLS[s];
            final int index = s;
            for (final Side side : Side.values()) {
                for (int depth = 0; depth < engine.levelCount(symbol, side); depth++) {
                    final long price = engine.levelPrice(symbol, side, depth);
                    engine.forEachOrderAt(symbol, side, depth, (position, orderId, account, clientOrderId, leaves, cumulative, tif) -> {
                        final long[] need = needs.computeIfAbsent(account, a -> new long[GLOBEX + 1]);
                        if (side == Side.BUY) {
                            need[USD] += leaves * (price * QUOTE_SCALE[index] + TAKER[index]);
                        } else {
                            need[BASE[index]] += leaves * BASE_SCALE[index];
                        }
                    });
                }
            }
        }
        for (final long account : ACCOUNTS) {
            final long[] need = needs.getOrDefault(account, new long[GLOBEX + 1]);
            for (final int asset : ASSETS) {
                assertEquals(need[asset], engine.held(account, asset),
                    "seed " + seed + " command " + n + ": account " + account + " holds of asset " + asset);
            }
        }
    }
}
