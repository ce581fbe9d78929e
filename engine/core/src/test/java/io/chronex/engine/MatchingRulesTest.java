package io.chronex.engine;

import io.chronex.api.CancelReason;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.chronex.engine.EngineFixture.ALICE;
import static io.chronex.engine.EngineFixture.BOB;
import static io.chronex.engine.EngineFixture.CAROL;
import static io.chronex.engine.EngineFixture.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Price-time priority, order types and times in force. */
class MatchingRulesTest {
    private final EngineFixture f = EngineFixture.standard();

    @Test
    void limitOrderThatCrossesNothingRestsAsNew() {
        final Result r = f.buy(ALICE, 1, 100, 5);
        assertFalse(r.isRejected());
        assertEquals(1, r.orderId);
        assertEquals(OrderStatus.NEW, r.orderStatus);
        assertEquals(5, r.leavesQuantity);
        assertEquals(1, r.levelChangeCount());
        assertEquals(Side.BUY, r.levelChange(0).side);
        assertEquals(100, r.levelChange(0).price);
        assertEquals(5, r.levelChange(0).quantity);
        assertEquals(1, r.levelChange(0).orderCount);
        f.assertDepth("100:5:1", "");
    }

    @Test
    void crossingOrderTradesAtTheRestingPrice() {
        f.sell(ALICE, 1, 100, 5);
        final Result r = f.buy(BOB, 2, 105, 5);
        assertEquals(1, r.fillCount());
        assertEquals(100, r.fill(0).price);
        assertEquals(5, r.fill(0).quantity);
        assertEquals(1, r.fill(0).makerOrderId);
        assertEquals(2, r.fill(0).takerOrderId);
        assertEquals(OrderStatus.FILLED, r.orderStatus);
        assertEquals(0, r.fill(0).makerLeavesQuantity);
        assertEquals(5, r.fill(0).makerCumulativeQuantity);
        assertEquals(0, r.levelChange(0).quantity, "the level it emptied is reported gone");
        f.assertDepth("", "");
    }

    @Test
    void betterPriceFillsFirstThenOlderOrderAtTheSamePrice() {
        f.sell(ALICE, 1, 101, 1);
        f.sell(BOB, 2, 100, 1);
        f.sell(CAROL, 3, 101, 1);
        f.sell(BOB, 4, 100, 1);
        f.buy(ALICE, 5, 101, 4);
        assertEquals(List.of(2L, 4L, 1L, 3L), f.makers());
        assertEquals(List.of(100L, 100L, 101L, 101L),
            List.of(f.result.fill(0).price, f.result.fill(1).price, f.result.fill(2).price, f.result.fill(3).price));
    }

    @Test
    void partiallyFilledOrderRestsWithItsRemainder() {
        f.sell(ALICE, 1, 100, 3);
        final Result r = f.buy(BOB, 2, 100, 10);
        assertEquals(OrderStatus.PARTIALLY_FILLED, r.orderStatus);
        assertEquals(7, r.leavesQuantity);
        assertEquals(3, r.cumulativeQuantity);
        f.assertDepth("100:7:1", "");
    }

    @Test
    void takerStopsAtItsLimitPrice() {
        f.sell(ALICE, 1, 100, 1);
        f.sell(ALICE, 2, 102, 1);
        f.buy(BOB, 3, 101, 5);
        assertEquals(List.of(1L), f.makers());
        f.assertDepth("101:4:1", "102:1:1");
    }

    @Test
    void marketOrderSweepsTheBookAndNeverRests() {
        f.sell(ALICE, 1, 100, 1);
        f.sell(ALICE, 2, 150, 1);
        final Result r = f.order(BOB, 3, Side.BUY, OrderType.MARKET, TimeInForce.GTC, 0, 5);
        assertEquals(List.of(1L, 2L), f.makers());
        assertEquals(OrderStatus.CANCELLED, r.orderStatus);
        assertEquals(1, r.cancelCount());
        assertEquals(CancelReason.UNFILLED_REMAINDER, r.cancel(0).reason);
        assertEquals(3, r.cancel(0).quantity);
        f.assertDepth("", "");
    }

    @Test
    void iocTradesWhatItCanAndCancelsTheRest() {
        f.sell(ALICE, 1, 100, 2);
        final Result r = f.order(BOB, 2, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 100, 5);
        assertEquals(2, r.cumulativeQuantity);
        assertEquals(5, r.quantity, "the order quantity as sent, not what filled");
        assertEquals(OrderStatus.CANCELLED, r.orderStatus);
        assertEquals(3, r.cancel(0).quantity);
        f.assertDepth("", "");
    }

    @Test
    void iocWithNothingToMatchIsCancelledWhole() {
        final Result r = f.order(BOB, 2, Side.SELL, OrderType.LIMIT, TimeInForce.IOC, 100, 5);
        assertFalse(r.isRejected());
        assertEquals(0, r.fillCount());
        assertEquals(5, r.cancel(0).quantity);
        assertEquals(CancelReason.UNFILLED_REMAINDER, r.cancel(0).reason);
        f.assertDepth("", "");
    }

    @Test
    void fokFillsCompletelyWhenTheBookHoldsEnough() {
        f.sell(ALICE, 1, 100, 2);
        f.sell(ALICE, 2, 101, 3);
        final Result r = f.order(BOB, 3, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, 101, 5);
        assertEquals(OrderStatus.FILLED, r.orderStatus);
        assertEquals(2, r.fillCount());
    }

    @Test
    void fokThatCannotFillCompletelyTradesNothing() {
        f.sell(ALICE, 1, 100, 2);
        f.sell(ALICE, 2, 102, 3);
        final Result r = f.order(BOB, 3, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, 101, 5);
        assertEquals(0, r.fillCount());
        assertEquals(OrderStatus.CANCELLED, r.orderStatus);
        assertEquals(5, r.cancel(0).quantity);
        assertEquals(0, r.levelChangeCount());
        f.assertDepth("", "100:2:1 102:3:1");
    }

    @Test
    void fokBudgetBuyFillsWhenTotalCostIsWithinBudget() {
        f.sell(ALICE, 1, 100, 2);
        f.sell(ALICE, 2, 110, 2);
        // 3 lots cost 2x100 + 1x110 = 310.
        final Result r = f.order(BOB, 3, Side.BUY, OrderType.LIMIT, TimeInForce.FOK_BUDGET, 310, 3);
        assertEquals(OrderStatus.FILLED, r.orderStatus);
        assertEquals(List.of(1L, 2L), f.makers());
    }

    @Test
    void fokBudgetBuyOverBudgetIsKilled() {
        f.sell(ALICE, 1, 100, 2);
        f.sell(ALICE, 2, 110, 2);
        final Result r = f.order(BOB, 3, Side.BUY, OrderType.LIMIT, TimeInForce.FOK_BUDGET, 309, 3);
        assertEquals(OrderStatus.CANCELLED, r.orderStatus);
        assertEquals(0, r.fillCount());
    }

    @Test
    void fokBudgetSellNeedsAtLeastTheBudget() {
        f.buy(ALICE, 1, 100, 2);
        f.buy(ALICE, 2, 90, 2);
        // 3 lots bring 2x100 + 1x90 = 290.
        assertEquals(0, f.order(BOB, 3, Side.SELL, OrderType.LIMIT, TimeInForce.FOK_BUDGET, 291, 3).fillCount());
        assertEquals(OrderStatus.FILLED, f.order(BOB, 4, Side.SELL, OrderType.LIMIT, TimeInForce.FOK_BUDGET, 290, 3).orderStatus);
    }

    @Test
    void fokBudgetWithTooLittleLiquidityIsKilled() {
        f.sell(ALICE, 1, 100, 2);
        assertEquals(0, f.order(BOB, 3, Side.BUY, OrderType.LIMIT, TimeInForce.FOK_BUDGET, 1_000_000, 3).fillCount());
    }

    @Test
    void postOnlyOrderThatWouldTakeIsRejected() {
        f.sell(ALICE, 1, 100, 1);
        f.command.newOrder(BOB, SYM, 2, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 100, 1).postOnly = true;
        assertEquals(RejectReason.POST_ONLY_WOULD_TAKE, f.apply(f.command).rejectReason);
        f.command.newOrder(BOB, SYM, 2, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 99, 1).postOnly = true;
        assertEquals(OrderStatus.NEW, f.apply(f.command).orderStatus);
        f.assertDepth("99:1:1", "100:1:1");
    }

    @Test
    void postOnlyWithImmediateTimeInForceIsInvalid() {
        f.command.newOrder(BOB, SYM, 2, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 99, 1).postOnly = true;
        assertEquals(RejectReason.INVALID_ORDER, f.apply(f.command).rejectReason);
    }

    @Test
    void tradeIdsAndOrderIdsRiseByOneAndRejectsConsumeNone() {
        f.sell(ALICE, 1, 100, 1);
        f.sell(ALICE, 1, 100, 1); // duplicate: rejected
        f.sell(ALICE, 2, 100, 1);
        final Result r = f.buy(BOB, 3, 100, 2);
        assertEquals(3, r.orderId);
        assertEquals(1, r.fill(0).tradeId);
        assertEquals(2, r.fill(1).tradeId);
    }
}
