package io.chronex.engine;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.chronex.engine.EngineFixture.ALICE;
import static io.chronex.engine.EngineFixture.BOB;
import static io.chronex.engine.EngineFixture.CAROL;
import static io.chronex.engine.EngineFixture.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Accounts' money, rule by rule (docs/engine.md, "Accounts"): USD in cents and ACME shares, the ACME
 * symbol priced in cents, a taker fee of 5 cents and a maker fee of 2 cents per share.
 */
class FundsTest {
    private static final int USD = 1;
    private static final int ACME = 2;
    private static final long TAKER_FEE = 5;
    private static final long MAKER_FEE = 2;

    private final EngineFixture f = new EngineFixture(config(RiskCheck.FUNDS.bit() | RiskCheck.SELF_TRADE_PREVENTION.bit()));
    private long nextReference = 1;

    private static EngineConfig config(final int riskChecks) {
        final SymbolSpec acme = new SymbolSpec(SYM, "ACME", 100, 1, 1, 0, 0).withAssets(ACME, USD, 1, 1, TAKER_FEE, MAKER_FEE);
        return new EngineConfig(List.of(acme, SymbolSpec.plain(EngineFixture.OTHER_SYM)),
            List.of(AccountSpec.unlimited(ALICE), AccountSpec.unlimited(BOB),
                new AccountSpec(CAROL, 0, 0, 0, SelfTradePrevention.CANCEL_RESTING)),
            riskChecks, false, null, List.of(new AssetSpec(USD, "USD", 2), new AssetSpec(ACME, "ACME", 0)));
    }

    private Result money(final CommandType type, final long account, final int asset, final long amount) {
        return f.apply(f.command.money(type, account, asset, amount, nextReference++));
    }

    private void assertBalance(final long account, final int asset, final long available, final long held) {
        assertEquals(available, f.engine.available(account, asset), "available " + asset + " of " + account);
        assertEquals(held, f.engine.held(account, asset), "held " + asset + " of " + account);
    }

    private void assertConserved() {
        for (final int asset : new int[] {USD, ACME}) {
            long total = f.engine.feesCollected(asset);
            for (final long account : f.engine.accountIds()) {
                total += f.engine.available(account, asset) + f.engine.held(account, asset);
            }
            assertEquals(f.engine.netDeposits(asset), total, "asset " + asset + " conserved");
        }
    }

    @Test
    void aBidWithoutFundsIsRejectedWithWhatItNeededAndIsAcceptedAfterADeposit() {
        Result r = f.buy(ALICE, 1, 10_000, 10);
        assertEquals(RejectReason.INSUFFICIENT_FUNDS, r.rejectReason);
        assertEquals(10 * (10_000 + TAKER_FEE), r.fundsNeeded, "10 x (100.00 + the taker fee)");
        assertEquals(0, r.balanceAvailable);

        r = money(CommandType.DEPOSIT, ALICE, USD, 100_050);
        assertFalse(r.isRejected());
        assertEquals(100_050, r.balanceAvailable);
        assertEquals(0, r.balanceHeld);

        assertEquals(OrderStatus.NEW, f.buy(ALICE, 1, 10_000, 10).orderStatus);
        assertBalance(ALICE, USD, 0, 100_050);
        assertConserved();
    }

    @Test
    void aTradeMovesPriceTimesQuantityAndFeesAndTheTakerGetsItsPriceImprovementBack() {
        money(CommandType.DEPOSIT, ALICE, USD, 100_050);
        money(CommandType.DEPOSIT, BOB, ACME, 10);
        assertFalse(f.sell(BOB, 1, 9_990, 10).isRejected());
        assertBalance(BOB, ACME, 0, 10);

        final Result r = f.buy(ALICE, 1, 10_000, 10);
        assertEquals(1, r.fillCount());
        assertEquals(9_990, r.fill(0).price);
        // The buyer held 10 x (10,000 + 5) and paid 10 x 9,990 + 10 x 5: the 100 of price improvement comes back.
        assertBalance(ALICE, USD, 100, 0);
        assertBalance(ALICE, ACME, 10, 0);
        // The seller (maker) receives 10 x 9,990 less its 2 cents a share.
        assertBalance(BOB, USD, 99_900 - 20, 0);
        assertBalance(BOB, ACME, 0, 0);
        assertEquals(10 * (TAKER_FEE + MAKER_FEE), f.engine.feesCollected(USD));
        assertConserved();
    }

    @Test
    void aMakerBidAtAReservePriceGivesBackThePriceDifferenceAndTheFeeDifferenceAtEachFill() {
        money(CommandType.DEPOSIT, ALICE, USD, 1_000_000);
        money(CommandType.DEPOSIT, BOB, ACME, 100);
        f.command.newOrder(ALICE, SYM, 1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 10_000, 10).reservePrice = 11_000;
        f.apply(f.command);
        assertBalance(ALICE, USD, 1_000_000 - 110_050, 110_050);

        f.sell(BOB, 1, 9_000, 4);
        // 4 traded at 10,000 (the maker's price): paid 4 x 10,000 + 4 x 2, released 4 x (1,000 + 5 - 2).
        assertBalance(ALICE, USD, 1_000_000 - 110_050 + 4 * 1_003, 6 * 11_005);
        assertBalance(ALICE, ACME, 4, 0);
        assertBalance(BOB, USD, 4 * 10_000 - 4 * TAKER_FEE, 0);
        assertConserved();

        // A move at or below the reserve keeps holding at the reserve; above it holds at the new price.
        assertFalse(f.move(ALICE, 1, 10_500).isRejected());
        assertBalance(ALICE, USD, 1_000_000 - 110_050 + 4 * 1_003, 6 * 11_005);
        assertFalse(f.move(ALICE, 1, 12_000).isRejected());
        assertBalance(ALICE, USD, 1_000_000 - 110_050 + 4 * 1_003 - 6 * 1_000, 6 * 12_005);
        assertConserved();
    }

    @Test
    void cancelReduceReplaceAndMoveHoldAndReleaseWhatTheLeavesNeed() {
        money(CommandType.DEPOSIT, ALICE, USD, 200_000);
        f.buy(ALICE, 1, 10_000, 10);
        assertBalance(ALICE, USD, 200_000 - 100_050, 100_050);
        f.reduce(ALICE, 1, 4);
        assertBalance(ALICE, USD, 200_000 - 60_030, 60_030);
        f.move(ALICE, 1, 9_000);
        assertBalance(ALICE, USD, 200_000 - 54_030, 54_030);
        // Up in price and quantity: 22 x 9,505 is more than available and held together.
        final Result refused = f.replace(ALICE, 1, 0, 9_500, 22);
        assertEquals(RejectReason.INSUFFICIENT_FUNDS, refused.rejectReason);
        assertEquals(22 * 9_505 - 54_030, refused.fundsNeeded);
        assertEquals(200_000 - 54_030, refused.balanceAvailable);
        assertBalance(ALICE, USD, 200_000 - 54_030, 54_030);
        assertFalse(f.replace(ALICE, 1, 0, 9_500, 20).isRejected());
        assertBalance(ALICE, USD, 200_000 - 20 * 9_505, 20 * 9_505);
        // A smaller quantity at the same price keeps priority and gives back the difference.
        f.replace(ALICE, 1, 0, 9_500, 5);
        assertBalance(ALICE, USD, 200_000 - 5 * 9_505, 5 * 9_505);
        f.cancel(ALICE, 1);
        assertBalance(ALICE, USD, 200_000, 0);
        assertConserved();
    }

    @Test
    void killSwitchEndOfDayAndSelfTradePreventionReleaseEverything() {
        money(CommandType.DEPOSIT, CAROL, USD, 1_000_000);
        money(CommandType.DEPOSIT, CAROL, ACME, 50);
        f.sell(CAROL, 1, 10_100, 5);
        f.order(CAROL, 2, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 9_000, 5);
        // CANCEL_RESTING: CAROL's bid crossing her own ask cancels the ask, then rests.
        f.buy(CAROL, 3, 10_100, 5);
        assertBalance(CAROL, ACME, 50, 0);
        f.symbolCommand(CommandType.END_OF_DAY, SYM);
        assertBalance(CAROL, USD, 1_000_000 - 5 * 10_105, 5 * 10_105);
        f.apply(f.command.accountCommand(CommandType.KILL_SWITCH_ON, CAROL));
        assertBalance(CAROL, USD, 1_000_000, 0);
        assertConserved();
    }

    @Test
    void marketBudgetAndInvalidOrdersHoldByTheirOwnRules() {
        money(CommandType.DEPOSIT, BOB, ACME, 100);
        f.sell(BOB, 1, 10_000, 3);
        f.sell(BOB, 2, 10_200, 3);
        money(CommandType.DEPOSIT, ALICE, USD, 3 * 10_005 + 2 * 10_205 - 1);
        // A market bid holds what taking the asks would cost: one cent short.
        Result r = f.order(ALICE, 1, Side.BUY, OrderType.MARKET, TimeInForce.IOC, 0, 5);
        assertEquals(RejectReason.INSUFFICIENT_FUNDS, r.rejectReason);
        assertEquals(3 * 10_005 + 2 * 10_205, r.fundsNeeded);
        money(CommandType.DEPOSIT, ALICE, USD, 1);
        r = f.order(ALICE, 1, Side.BUY, OrderType.MARKET, TimeInForce.IOC, 0, 5);
        assertEquals(OrderStatus.FILLED, r.orderStatus);
        assertBalance(ALICE, USD, 0, 0);
        assertBalance(ALICE, ACME, 5, 0);

        // FOK_BUDGET holds the budget plus the taker fee on the quantity and gives back what it did not spend.
        money(CommandType.DEPOSIT, ALICE, USD, 10_200 + 5);
        r = f.order(ALICE, 2, Side.BUY, OrderType.LIMIT, TimeInForce.FOK_BUDGET, 10_200, 1);
        assertEquals(OrderStatus.FILLED, r.orderStatus);
        assertBalance(ALICE, USD, 0, 0);

        f.command.newOrder(ALICE, SYM, 3, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 100, 1).reservePrice = 99;
        assertEquals(RejectReason.INVALID_RESERVE_PRICE, f.apply(f.command).rejectReason);
        // An ask whose proceeds could not pay the 5 cent taker fee.
        assertEquals(RejectReason.INVALID_PRICE, f.sell(BOB, 3, 4, 1).rejectReason);
        assertConserved();
    }

    @Test
    void moneyCommandsApplyOnceAndNeverOverdraw() {
        assertEquals(RejectReason.NONE, money(CommandType.DEPOSIT, ALICE, USD, 500).rejectReason);
        final long used = nextReference - 1;
        Result r = f.apply(f.command.money(CommandType.DEPOSIT, ALICE, USD, 500, used));
        assertEquals(RejectReason.DUPLICATE_REFERENCE, r.rejectReason);
        assertEquals(500, r.balanceAvailable);
        r = money(CommandType.WITHDRAW, ALICE, USD, 501);
        assertEquals(RejectReason.INSUFFICIENT_FUNDS, r.rejectReason);
        assertEquals(501, r.fundsNeeded);
        assertEquals(RejectReason.INSUFFICIENT_FUNDS, money(CommandType.ADJUST, ALICE, USD, -501).rejectReason);
        assertEquals(300, money(CommandType.ADJUST, ALICE, USD, -200).balanceAvailable);
        assertEquals(0, money(CommandType.WITHDRAW, ALICE, USD, 300).balanceAvailable);
        assertEquals(RejectReason.INVALID_AMOUNT, money(CommandType.DEPOSIT, ALICE, USD, 0).rejectReason);
        assertEquals(RejectReason.INVALID_AMOUNT, money(CommandType.WITHDRAW, ALICE, USD, -1).rejectReason);
        assertEquals(RejectReason.UNKNOWN_ASSET, money(CommandType.DEPOSIT, ALICE, 99, 1).rejectReason);
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, money(CommandType.DEPOSIT, 42, USD, 1).rejectReason);
        assertEquals(RejectReason.INVALID_REFERENCE,
            f.apply(f.command.money(CommandType.DEPOSIT, ALICE, USD, 1, 0)).rejectReason);
        money(CommandType.DEPOSIT, ALICE, USD, Long.MAX_VALUE);
        assertEquals(RejectReason.INVALID_AMOUNT, money(CommandType.DEPOSIT, ALICE, USD, 1).rejectReason);
        assertEquals(500, f.engine.deposited(USD) - Long.MAX_VALUE);
        assertEquals(300, f.engine.withdrawn(USD));
        assertConserved();
    }

    @Test
    void snapshotsCarryBalancesHoldsFeesAndReferences() {
        money(CommandType.DEPOSIT, ALICE, USD, 1_000_000);
        money(CommandType.DEPOSIT, BOB, ACME, 40);
        f.command.newOrder(ALICE, SYM, 1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 10_000, 10).reservePrice = 10_500;
        f.apply(f.command);
        f.sell(BOB, 1, 9_000, 4);
        f.sell(BOB, 2, 10_300, 30);

        final MatchingEngine restored = MatchingEngine.restore(f.engine.snapshot());
        assertEquals(f.engine.stateHash(), restored.stateHash());
        for (final long account : new long[] {ALICE, BOB}) {
            for (final int asset : new int[] {USD, ACME}) {
                assertEquals(f.engine.available(account, asset), restored.available(account, asset));
                assertEquals(f.engine.held(account, asset), restored.held(account, asset));
            }
        }
        assertEquals(f.engine.feesCollected(USD), restored.feesCollected(USD));
        // The restored engine goes on exactly as the original: a reused reference is still refused, the reserve still holds.
        final Result ours = new Result();
        final Result theirs = new Result();
        f.command.money(CommandType.DEPOSIT, ALICE, USD, 5, 1);
        restored.apply(f.command, theirs);
        f.engine.apply(f.command, ours);
        assertEquals(RejectReason.DUPLICATE_REFERENCE, theirs.rejectReason);
        f.command.move(ALICE, 1, 10_400);
        restored.apply(f.command, theirs);
        f.engine.apply(f.command, ours);
        assertEquals(ours.toString(), theirs.toString());
        assertEquals(f.engine.stateHash(), restored.stateHash());
    }

    @Test
    void balanceAnswersOneAssetAndChangesNothing() {
        money(CommandType.DEPOSIT, ALICE, USD, 200_000);
        f.buy(ALICE, 1, 10_000, 10);
        f.command.clear().type = CommandType.BALANCE;
        f.command.account = ALICE;
        f.command.symbol = USD;
        f.command.clientOrderId = 2;
        f.command.quantity = 3;
        final Result r = f.apply(f.command);
        assertFalse(r.isRejected());
        assertEquals(200_000 - 100_050, r.balanceAvailable);
        assertEquals(100_050, r.balanceHeld);
        assertEquals(2, r.clientOrderId);
        assertEquals(3, r.quantity);
        assertBalance(ALICE, USD, 200_000 - 100_050, 100_050);
        f.command.account = 42;
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, f.apply(f.command).rejectReason);
        f.command.account = ALICE;
        f.command.symbol = 99;
        assertEquals(RejectReason.UNKNOWN_ASSET, f.apply(f.command).rejectReason);
    }

    @Test
    void aHoldPastAnyLongCannotBePaidEvenWithLongMaxValueAvailable() {
        money(CommandType.DEPOSIT, ALICE, USD, Long.MAX_VALUE);
        final long most = io.chronex.api.Command.MAX_QUANTITY;
        // MAX_QUANTITY x MAX_PRICE is far past a long: the hold saturates and cannot be paid.
        final Result r = f.buy(ALICE, 1, io.chronex.api.Command.MAX_PRICE, most);
        assertEquals(RejectReason.INSUFFICIENT_FUNDS, r.rejectReason);
        assertEquals(Long.MAX_VALUE, r.fundsNeeded);
        assertEquals(OrderStatus.NEW, f.buy(ALICE, 2, 1, most).orderStatus);
        final Result moved = f.move(ALICE, 2, io.chronex.api.Command.MAX_PRICE);
        assertEquals(RejectReason.INSUFFICIENT_FUNDS, moved.rejectReason);
        assertEquals(Long.MAX_VALUE, moved.fundsNeeded);
        assertBalance(ALICE, USD, Long.MAX_VALUE - most * (1 + TAKER_FEE), most * (1 + TAKER_FEE));
        assertConserved();
    }

    @Test
    void anEngineWithoutAssetsWritesTheSnapshotItWroteBeforeMoney() {
        final byte[] snapshot = new MatchingEngine(new EngineConfig(List.of(SymbolSpec.plain(1)), List.of(), RiskCheck.all(), false,
            null)).snapshot();
        final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(snapshot);
        assertEquals(1, bytes.getInt(8), "version 1");
        // 'all' was these eight checks before FUNDS existed: the configuration hash of such a data directory is unchanged.
        assertEquals(0xFF, bytes.getInt(12));
    }

    @Test
    void withFundsOffTradingMovesNoMoneyButDepositsStillApply() {
        final EngineFixture off = new EngineFixture(config(0));
        off.apply(off.command.money(CommandType.DEPOSIT, ALICE, USD, 700, 1));
        off.sell(BOB, 1, 10_000, 10);
        assertEquals(1, off.buy(ALICE, 1, 10_000, 10).fillCount());
        assertEquals(700, off.engine.available(ALICE, USD));
        assertEquals(0, off.engine.available(BOB, USD));
        assertEquals(0, off.engine.feesCollected(USD));
    }
}
