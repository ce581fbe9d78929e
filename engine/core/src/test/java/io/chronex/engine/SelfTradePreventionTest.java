package io.chronex.engine;

import io.chronex.api.CancelReason;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.Result;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.chronex.engine.EngineFixture.ALICE;
import static io.chronex.engine.EngineFixture.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The four self-trade prevention modes; the book is ALICE 100x1, BOB 100x1, ALICE 101x1 (asks). */
class SelfTradePreventionTest {
    private final EngineFixture f = EngineFixture.standard();

    private Result aliceBuysThree(final SelfTradePrevention mode) {
        f.limits(ALICE, 0, 0, 0, mode);
        f.sell(ALICE, 1, 100, 1);
        f.sell(BOB, 2, 100, 1);
        f.sell(ALICE, 3, 101, 1);
        return f.buy(ALICE, 4, 101, 3);
    }

    @Test
    void offTradesWithItself() {
        final Result r = aliceBuysThree(SelfTradePrevention.OFF);
        assertEquals(List.of(1L, 2L, 3L), f.makers());
        assertEquals(OrderStatus.FILLED, r.orderStatus);
    }

    @Test
    void cancelRestingRemovesOwnOrdersAndKeepsMatching() {
        final Result r = aliceBuysThree(SelfTradePrevention.CANCEL_RESTING);
        assertEquals(List.of(2L), f.makers());
        assertEquals(2, r.cancelCount());
        assertEquals(1, r.cancel(0).clientOrderId);
        assertEquals(CancelReason.SELF_TRADE_PREVENTION, r.cancel(0).reason);
        assertEquals(3, r.cancel(1).clientOrderId);
        assertEquals(OrderStatus.PARTIALLY_FILLED, r.orderStatus);
        f.assertDepth("101:2:1", "");
    }

    @Test
    void cancelIncomingStopsAtTheFirstOwnOrderAndCancelsTheRemainder() {
        final Result r = aliceBuysThree(SelfTradePrevention.CANCEL_INCOMING);
        assertEquals(List.of(), f.makers());
        assertEquals(1, r.cancelCount());
        assertEquals(4, r.cancel(0).clientOrderId);
        assertEquals(3, r.cancel(0).quantity);
        assertEquals(OrderStatus.CANCELLED, r.orderStatus);
        f.assertDepth("", "100:2:2 101:1:1");
    }

    @Test
    void cancelBothRemovesTheRestingOrderAndTheIncomingRemainder() {
        final Result r = aliceBuysThree(SelfTradePrevention.CANCEL_BOTH);
        assertEquals(2, r.cancelCount());
        assertEquals(1, r.cancel(0).clientOrderId);
        assertEquals(4, r.cancel(1).clientOrderId);
        f.assertDepth("", "100:1:1 101:1:1");
    }

    @Test
    void fokCountsOnlyLiquidityItCouldReallyTake() {
        f.limits(ALICE, 0, 0, 0, SelfTradePrevention.CANCEL_RESTING);
        f.sell(ALICE, 1, 100, 5);
        f.sell(BOB, 2, 100, 1);
        final Result r = f.order(ALICE, 3, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, 100, 2);
        assertEquals(0, r.fillCount(), "only BOB's 1 lot is takeable");
        f.assertDepth("", "100:6:2");
    }
}
