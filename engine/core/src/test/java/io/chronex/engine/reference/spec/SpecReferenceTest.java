package io.chronex.engine.reference.spec;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.OrderType;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reference model on its own, against results worked out by hand from docs/engine.md, for the
 * rules easiest to get subtly wrong; so the model is not only ever judged by the engine it judges.
 */
final class SpecReferenceTest {
    private static final int SYM = 7;
    /** Accounts named by their self-trade mode; TRADER is a plain counterparty. */
    private static final long OFF = 1;
    private static final long RESTING = 3;
    private static final long INCOMING = 4;
    private static final long BOTH = 5;
    private static final long TRADER = 6;

    private final SpecReference ref = new SpecReference(new EngineConfig(
        List.of(new SymbolSpec(SYM, "S", 1, 1, 1, 0, 0)),
        List.of(new AccountSpec(OFF, 0, 0, 0, SelfTradePrevention.OFF),
            new AccountSpec(2, 0, 0, 0, SelfTradePrevention.OFF),
            new AccountSpec(RESTING, 0, 0, 0, SelfTradePrevention.CANCEL_RESTING),
            new AccountSpec(INCOMING, 0, 0, 0, SelfTradePrevention.CANCEL_INCOMING),
            new AccountSpec(BOTH, 0, 0, 0, SelfTradePrevention.CANCEL_BOTH),
            new AccountSpec(TRADER, 0, 0, 0, SelfTradePrevention.OFF)),
        RiskCheck.all(), false, null));
    private final Command c = new Command();
    private final Result r = new Result();

    private String apply(final Command command) {
        ref.apply(command, r);
        return r.toString();
    }

    private String order(final long account, final long clientId, final Side side, final TimeInForce tif,
                         final long price, final long qty) {
        return apply(c.newOrder(account, SYM, clientId, side, OrderType.LIMIT, tif, price, qty));
    }

    private String sell(final long account, final long clientId, final long price, final long qty) {
        return order(account, clientId, Side.SELL, TimeInForce.GTC, price, qty);
    }

    private String buy(final long account, final long clientId, final long price, final long qty) {
        return order(account, clientId, Side.BUY, TimeInForce.GTC, price, qty);
    }

    private static String lines(final String... lines) {
        return String.join("\n  ", lines);
    }

    @Test
    void replaceToASmallerQuantityAtTheSamePriceKeepsQueuePlace() {
        sell(OFF, 1, 100, 10);
        sell(2, 1, 100, 10);
        assertEquals(lines("REPLACE order=1/1/1 sym=7 SELL LIMIT GTC 5@100 leaves=5 cum=0 NEW affected=0",
                "level sym=7 SELL 100 qty=15 orders=2"),
            apply(c.replace(OFF, 1, 0, 100, 5)));
        assertEquals(lines("NEW_ORDER order=3/6/9 sym=7 BUY LIMIT GTC 5@100 leaves=0 cum=5 FILLED affected=0",
                "fill#1 5@100 taker=3/6/9 BUY leaves=0 cum=5 maker=1/1/1 leaves=0 cum=5",
                "level sym=7 SELL 100 qty=10 orders=1"),
            buy(TRADER, 9, 100, 5));
    }

    @Test
    void replaceToALargerQuantityOrNewPriceGoesToTheBackAndMayRename() {
        sell(OFF, 1, 100, 10);
        sell(2, 1, 100, 10);
        assertEquals(lines("REPLACE order=1/1/7 sym=7 SELL LIMIT GTC 11@100 leaves=11 cum=0 NEW affected=0",
                "level sym=7 SELL 100 qty=21 orders=2"),
            apply(c.replace(OFF, 1, 7, 100, 11)));
        assertEquals(lines("NEW_ORDER order=3/6/9 sym=7 BUY LIMIT GTC 12@100 leaves=0 cum=12 FILLED affected=0",
                "fill#1 10@100 taker=3/6/9 BUY leaves=2 cum=10 maker=2/2/1 leaves=0 cum=10",
                "fill#2 2@100 taker=3/6/9 BUY leaves=0 cum=12 maker=1/1/7 leaves=9 cum=2",
                "level sym=7 SELL 100 qty=9 orders=1"),
            buy(TRADER, 9, 100, 12));
        // Now partly filled: a replace at or below the filled 2 is rejected, echoing the command.
        assertEquals("REPLACE REJECTED QUANTITY_NOT_ABOVE_FILLED order=0/1/7 sym=0 null null null 2@100 leaves=0 cum=0 REJECTED affected=0",
            apply(c.replace(OFF, 7, 0, 100, 2)));
    }

    @Test
    void moveToTheSamePriceLosesPriority() {
        sell(OFF, 1, 100, 10);
        sell(2, 1, 100, 10);
        assertEquals(lines("MOVE order=1/1/1 sym=7 SELL LIMIT GTC 10@100 leaves=10 cum=0 NEW affected=0",
                "level sym=7 SELL 100 qty=20 orders=2"),
            apply(c.move(OFF, 1, 100)));
        assertEquals(lines("NEW_ORDER order=3/6/9 sym=7 BUY LIMIT IOC 4@100 leaves=0 cum=4 FILLED affected=0",
                "fill#1 4@100 taker=3/6/9 BUY leaves=0 cum=4 maker=2/2/1 leaves=6 cum=4",
                "level sym=7 SELL 100 qty=16 orders=2"),
            order(TRADER, 9, Side.BUY, TimeInForce.IOC, 100, 4));
    }

    @Test
    void moveThroughTheBookTradesThenRests() {
        sell(OFF, 1, 101, 3);
        buy(2, 1, 99, 5);
        assertEquals(lines("MOVE order=2/2/1 sym=7 BUY LIMIT GTC 5@102 leaves=2 cum=3 PARTIALLY_FILLED affected=0",
                "fill#1 3@101 taker=2/2/1 BUY leaves=2 cum=3 maker=1/1/1 leaves=0 cum=3",
                "level sym=7 BUY 99 qty=0 orders=0",
                "level sym=7 SELL 101 qty=0 orders=0",
                "level sym=7 BUY 102 qty=2 orders=1"),
            apply(c.move(2, 1, 102)));
    }

    @Test
    void fokBudgetBuyFillsOnlyWhenTheWholeCostFitsTheBudget() {
        sell(OFF, 1, 100, 5);
        sell(2, 1, 101, 5);
        // 5 x 100 + 3 x 101 = 803.
        assertEquals(lines("NEW_ORDER order=3/6/9 sym=7 BUY LIMIT FOK_BUDGET 8@802 leaves=0 cum=0 CANCELLED affected=0",
                "cancel 3/6/9 sym=7 BUY 8@802 leaves=0 cum=0 UNFILLED_REMAINDER"),
            order(TRADER, 9, Side.BUY, TimeInForce.FOK_BUDGET, 802, 8));
        assertEquals(lines("NEW_ORDER order=4/6/10 sym=7 BUY LIMIT FOK_BUDGET 8@803 leaves=0 cum=8 FILLED affected=0",
                "fill#1 5@100 taker=4/6/10 BUY leaves=3 cum=5 maker=1/1/1 leaves=0 cum=5",
                "fill#2 3@101 taker=4/6/10 BUY leaves=0 cum=8 maker=2/2/1 leaves=2 cum=3",
                "level sym=7 SELL 100 qty=0 orders=0",
                "level sym=7 SELL 101 qty=2 orders=1"),
            order(TRADER, 10, Side.BUY, TimeInForce.FOK_BUDGET, 803, 8));
    }

    @Test
    void fokBudgetSellNeedsTheProceedsToReachTheBudget() {
        buy(OFF, 1, 100, 5);
        buy(2, 1, 99, 5);
        // 5 x 100 + 5 x 99 = 995: a budget of 996 is not reached; 995 is.
        assertEquals(lines("NEW_ORDER order=3/6/9 sym=7 SELL LIMIT FOK_BUDGET 10@996 leaves=0 cum=0 CANCELLED affected=0",
                "cancel 3/6/9 sym=7 SELL 10@996 leaves=0 cum=0 UNFILLED_REMAINDER"),
            order(TRADER, 9, Side.SELL, TimeInForce.FOK_BUDGET, 996, 10));
        assertEquals(lines("NEW_ORDER order=4/6/10 sym=7 SELL LIMIT FOK_BUDGET 10@995 leaves=0 cum=10 FILLED affected=0",
                "fill#1 5@100 taker=4/6/10 SELL leaves=5 cum=5 maker=1/1/1 leaves=0 cum=5",
                "fill#2 5@99 taker=4/6/10 SELL leaves=0 cum=10 maker=2/2/1 leaves=0 cum=5",
                "level sym=7 BUY 100 qty=0 orders=0",
                "level sym=7 BUY 99 qty=0 orders=0"),
            order(TRADER, 10, Side.SELL, TimeInForce.FOK_BUDGET, 995, 10));
    }

    @Test
    void cancelRestingRemovesOwnMakersAndKeepsMatching() {
        sell(RESTING, 1, 100, 5);
        sell(TRADER, 1, 100, 5);
        assertEquals(lines("NEW_ORDER order=3/3/2 sym=7 BUY LIMIT GTC 8@100 leaves=3 cum=5 PARTIALLY_FILLED affected=0",
                "fill#1 5@100 taker=3/3/2 BUY leaves=3 cum=5 maker=2/6/1 leaves=0 cum=5",
                "cancel 1/3/1 sym=7 SELL 5@100 leaves=0 cum=0 SELF_TRADE_PREVENTION",
                "level sym=7 SELL 100 qty=0 orders=0",
                "level sym=7 BUY 100 qty=3 orders=1"),
            buy(RESTING, 2, 100, 8));
    }

    @Test
    void cancelIncomingStopsAtTheOwnMakerAndCancelsTheRemainder() {
        sell(TRADER, 1, 99, 2);
        sell(INCOMING, 1, 100, 5);
        sell(TRADER, 2, 101, 5);
        assertEquals(lines("NEW_ORDER order=4/4/2 sym=7 BUY LIMIT GTC 8@101 leaves=0 cum=2 CANCELLED affected=0",
                "fill#1 2@99 taker=4/4/2 BUY leaves=6 cum=2 maker=1/6/1 leaves=0 cum=2",
                "cancel 4/4/2 sym=7 BUY 6@101 leaves=0 cum=2 SELF_TRADE_PREVENTION",
                "level sym=7 SELL 99 qty=0 orders=0"),
            buy(INCOMING, 2, 101, 8));
    }

    @Test
    void cancelBothRemovesTheOwnMakerThenStops() {
        sell(BOTH, 1, 100, 5);
        sell(TRADER, 1, 101, 5);
        assertEquals(lines("NEW_ORDER order=3/5/2 sym=7 BUY LIMIT GTC 8@101 leaves=0 cum=0 CANCELLED affected=0",
                "cancel 1/5/1 sym=7 SELL 5@100 leaves=0 cum=0 SELF_TRADE_PREVENTION",
                "cancel 3/5/2 sym=7 BUY 8@101 leaves=0 cum=0 SELF_TRADE_PREVENTION",
                "level sym=7 SELL 100 qty=0 orders=0"),
            buy(BOTH, 2, 101, 8));
    }

    @Test
    void fokWalkEndsAtAnOwnOrderUnderCancelBothButSkipsItUnderCancelResting() {
        sell(TRADER, 1, 100, 3);
        sell(BOTH, 1, 100, 5);
        sell(RESTING, 1, 100, 5);
        sell(TRADER, 2, 101, 10);
        // CANCEL_BOTH: 3 found, then the walk ends at the own order: killed, nothing changes.
        assertEquals(lines("NEW_ORDER order=5/5/2 sym=7 BUY LIMIT FOK 5@101 leaves=0 cum=0 CANCELLED affected=0",
                "cancel 5/5/2 sym=7 BUY 5@101 leaves=0 cum=0 UNFILLED_REMAINDER"),
            order(BOTH, 2, Side.BUY, TimeInForce.FOK, 101, 5));
        // CANCEL_RESTING: the walk skips its own order, finds 3 + 5 (BOTH's) = 8; matching then
        // cancels its own order on the way.
        assertEquals(lines("NEW_ORDER order=6/3/2 sym=7 BUY LIMIT FOK 8@101 leaves=0 cum=8 FILLED affected=0",
                "fill#1 3@100 taker=6/3/2 BUY leaves=5 cum=3 maker=1/6/1 leaves=0 cum=3",
                "fill#2 5@100 taker=6/3/2 BUY leaves=0 cum=8 maker=2/5/1 leaves=0 cum=5",
                "level sym=7 SELL 100 qty=5 orders=1"),
            order(RESTING, 2, Side.BUY, TimeInForce.FOK, 101, 8));
        assertEquals(lines("NEW_ORDER order=7/3/3 sym=7 BUY LIMIT FOK 6@101 leaves=0 cum=6 FILLED affected=0",
                "fill#3 6@101 taker=7/3/3 BUY leaves=0 cum=6 maker=4/6/2 leaves=4 cum=6",
                "cancel 3/3/1 sym=7 SELL 5@100 leaves=0 cum=0 SELF_TRADE_PREVENTION",
                "level sym=7 SELL 100 qty=0 orders=0",
                "level sym=7 SELL 101 qty=4 orders=1"),
            order(RESTING, 3, Side.BUY, TimeInForce.FOK, 101, 6));
    }

    @Test
    void reduceToNothingLeavesOnlyWhatFilledAsTheTotal() {
        sell(OFF, 1, 100, 10);
        buy(TRADER, 1, 100, 4);
        assertEquals(lines("REDUCE order=1/1/1 sym=7 SELL LIMIT GTC 4@100 leaves=0 cum=4 CANCELLED affected=0",
                "cancel 1/1/1 sym=7 SELL 6@100 leaves=0 cum=4 REDUCE",
                "level sym=7 SELL 100 qty=0 orders=0"),
            apply(c.reduce(OFF, 1, 50)));
    }

    @Test
    void endOfDayExpiresDayOrdersBidsBestFirstThenAsks() {
        order(OFF, 1, Side.BUY, TimeInForce.DAY, 98, 1);
        order(OFF, 2, Side.BUY, TimeInForce.DAY, 99, 1);
        order(OFF, 3, Side.SELL, TimeInForce.DAY, 105, 1);
        order(OFF, 4, Side.BUY, TimeInForce.GTC, 99, 1);
        assertEquals(lines("END_OF_DAY order=0/0/0 sym=0 null null null 0@0 leaves=0 cum=0 NONE affected=3",
                "cancel 2/1/2 sym=7 BUY 1@99 leaves=0 cum=0 END_OF_DAY",
                "cancel 1/1/1 sym=7 BUY 1@98 leaves=0 cum=0 END_OF_DAY",
                "cancel 3/1/3 sym=7 SELL 1@105 leaves=0 cum=0 END_OF_DAY",
                "level sym=7 BUY 99 qty=1 orders=1",
                "level sym=7 BUY 98 qty=0 orders=0",
                "level sym=7 SELL 105 qty=0 orders=0"),
            apply(c.symbolCommand(CommandType.END_OF_DAY, 0)));
    }

    @Test
    void anotherAccountsOrderIsUnknownEvenByEngineId() {
        sell(OFF, 1, 100, 10);
        c.cancel(TRADER, 0);
        c.orderId = 1;
        assertEquals("CANCEL REJECTED UNKNOWN_ORDER order=1/6/0 sym=0 null null null 0@0 leaves=0 cum=0 REJECTED affected=0",
            apply(c));
        assertEquals(1, ref.levelOrderCount(SYM, Side.SELL, 0));
    }

    // ------------------------------------------------------------------ money, worked out by hand

    private static final int PAID = 8;
    private static final int USD = 1;
    private static final int BTC = 2;

    /** Symbol PAID: BTC against USD, scales 1, taker fee 10 and maker fee 3 (USD units per unit of quantity); FUNDS on. */
    private static SpecReference moneyModel() {
        return new SpecReference(new EngineConfig(
            List.of(new SymbolSpec(PAID, "P", 1, 1, 1, 0, 0).withAssets(BTC, USD, 1, 1, 10, 3)),
            List.of(new AccountSpec(OFF, 0, 0, 0, SelfTradePrevention.OFF), new AccountSpec(2, 0, 0, 0, SelfTradePrevention.OFF)),
            RiskCheck.all(), false, null, List.of(new AssetSpec(USD, "USD", 2), new AssetSpec(BTC, "BTC", 8))));
    }

    private static String apply(final SpecReference model, final Command command) {
        final Result result = new Result();
        model.apply(command, result);
        return result.toString();
    }

    private static String balances(final SpecReference model, final long account, final int asset) {
        return model.available(account, asset) + "/" + model.held(account, asset);
    }

    @Test
    void aBidUsingExactlyWhatIsAvailableIsAcceptedAndAMakerBidGivesBackTheFeeDifference() {
        final SpecReference m = moneyModel();
        apply(m, c.money(CommandType.DEPOSIT, OFF, USD, 1_100, 1));
        // 10 x (100 + taker fee 10) = 1,100: all of it.
        assertEquals("NEW_ORDER order=1/1/1 sym=8 BUY LIMIT GTC 10@100 leaves=10 cum=0 NEW affected=0\n"
            + "  level sym=8 BUY 100 qty=10 orders=1", apply(m, c.limit(OFF, PAID, 1, Side.BUY, 100, 10)));
        assertEquals("NEW_ORDER REJECTED INSUFFICIENT_FUNDS order=0/1/2 sym=8 BUY LIMIT GTC 1@1 leaves=0 cum=0 REJECTED affected=0"
            + " available=0 held=0 needed=11", apply(m, c.limit(OFF, PAID, 2, Side.BUY, 1, 1)));
        apply(m, c.money(CommandType.DEPOSIT, 2, BTC, 4, 2));
        apply(m, c.newOrder(2, PAID, 1, Side.SELL, OrderType.LIMIT, TimeInForce.IOC, 100, 4));
        // The maker bid paid 4 x 100 + 4 x 3 = 412 of its 1,100, then kept 6 x 110 = 660 and gave back 28.
        assertEquals("28/660", balances(m, OFF, USD));
        assertEquals("4/0", balances(m, OFF, BTC));
        // The taker ask: 4 x 100 - 4 x 10.
        assertEquals("360/0", balances(m, 2, USD));
        assertEquals("0/0", balances(m, 2, BTC));
        assertEquals(BigInteger.valueOf(4 * 13), m.feesCollected(USD));
    }

    @Test
    void aMarketAskTakesNoBidWhoseProceedsWouldNotPayItsFee() {
        final SpecReference m = moneyModel();
        apply(m, c.money(CommandType.DEPOSIT, OFF, USD, 1_000, 1));
        apply(m, c.money(CommandType.DEPOSIT, 2, BTC, 5, 2));
        apply(m, c.limit(OFF, PAID, 1, Side.BUY, 1, 5));
        apply(m, c.newOrder(2, PAID, 1, Side.SELL, OrderType.MARKET, TimeInForce.IOC, 0, 5));
        // Clarification 14: 5 x 1 would not pay the 10 taker fee: nothing trades, the seller's BTC comes back.
        assertEquals("0/0", balances(m, 2, USD));
        assertEquals("5/0", balances(m, 2, BTC));
        assertEquals("945/55", balances(m, OFF, USD));
        assertEquals(BigInteger.ZERO, m.feesCollected(USD));
    }

    @Test
    void aBidMovedAboveItsReservePriceFollowsItsPriceFromThenOnAsOneWithout() {
        final SpecReference m = moneyModel();
        apply(m, c.money(CommandType.DEPOSIT, OFF, USD, 10_000, 1));
        apply(m, c.limit(OFF, PAID, 1, Side.BUY, 100, 10));
        c.limit(OFF, PAID, 2, Side.BUY, 90, 10).reservePrice = 95;
        apply(m, c);
        assertEquals("7850/2150", balances(m, OFF, USD));
        apply(m, c.move(OFF, 2, 110));
        apply(m, c.move(OFF, 1, 110));
        assertEquals("7600/2400", balances(m, OFF, USD));
        apply(m, c.move(OFF, 2, 90));
        apply(m, c.move(OFF, 1, 90));
        // Clarification 11: above its reserve the bid held at its price, which is no reserve; both now hold 10 x 100.
        assertEquals("8000/2000", balances(m, OFF, USD));
    }
}
