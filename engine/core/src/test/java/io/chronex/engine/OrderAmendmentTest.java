package io.chronex.engine;

import io.chronex.api.CancelReason;
import io.chronex.api.CommandType;
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
import static io.chronex.engine.EngineFixture.OTHER_SYM;
import static io.chronex.engine.EngineFixture.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Cancel, replace, reduce, move, mass cancel and end of day on live orders. */
class OrderAmendmentTest {
    private final EngineFixture f = EngineFixture.standard();

    @Test
    void cancelRemovesTheOrderAndReportsItsLeaves() {
        f.buy(ALICE, 1, 100, 5);
        final Result r = f.cancel(ALICE, 1);
        assertEquals(OrderStatus.CANCELLED, r.orderStatus);
        assertEquals(5, r.quantity, "a cancel leaves the order quantity as it was");
        assertEquals(CancelReason.CLIENT_CANCEL, r.cancel(0).reason);
        assertEquals(5, r.cancel(0).quantity);
        assertEquals(0, r.cancel(0).leavesQuantity);
        f.assertDepth("", "");
    }

    @Test
    void cancelOfAnUnknownOrderIsRejected() {
        assertEquals(RejectReason.UNKNOWN_ORDER, f.cancel(ALICE, 42).rejectReason);
    }

    @Test
    void anAccountCannotCancelAnotherAccountsOrder() {
        f.buy(ALICE, 1, 100, 5);
        assertEquals(RejectReason.UNKNOWN_ORDER, f.cancel(BOB, 1).rejectReason);
        f.command.cancel(BOB, 0).orderId = 1;
        assertEquals(RejectReason.UNKNOWN_ORDER, f.apply(f.command).rejectReason, "not by engine id either");
        f.command.cancel(ALICE, 0).orderId = 1;
        assertEquals(OrderStatus.CANCELLED, f.apply(f.command).orderStatus, "the owner can, by engine id");
    }

    @Test
    void aLiveClientOrderIdCannotBeReusedButADoneOneCan() {
        f.buy(ALICE, 1, 100, 5);
        assertEquals(RejectReason.DUPLICATE_CLIENT_ORDER_ID, f.buy(ALICE, 1, 99, 5).rejectReason);
        assertFalse(f.buy(BOB, 1, 99, 5).isRejected(), "client ids are per account");
        f.cancel(ALICE, 1);
        assertFalse(f.buy(ALICE, 1, 99, 5).isRejected());
    }

    @Test
    void replaceToSmallerQuantityAtSamePriceKeepsPriority() {
        f.sell(ALICE, 1, 100, 5);
        f.sell(BOB, 2, 100, 5);
        final Result r = f.replace(ALICE, 1, 0, 100, 3);
        assertEquals(3, r.quantity);
        assertEquals(3, r.leavesQuantity);
        f.buy(CAROL, 3, 100, 1);
        assertEquals(List.of(1L), f.makers());
    }

    @Test
    void replaceToLargerQuantityLosesPriority() {
        f.sell(ALICE, 1, 100, 5);
        f.sell(BOB, 2, 100, 5);
        f.replace(ALICE, 1, 0, 100, 6);
        f.buy(CAROL, 3, 100, 1);
        assertEquals(List.of(2L), f.makers());
        f.assertDepth("", "100:10:2");
    }

    @Test
    void queuePositionsFollowPriority() {
        f.sell(ALICE, 1, 100, 5);
        f.sell(BOB, 2, 100, 5);
        f.sell(CAROL, 3, 100, 5);
        assertEquals(List.of("1:1:5", "2:2:5", "3:3:5"), queue(Side.SELL, 0));
        f.replace(ALICE, 1, 0, 100, 4);
        assertEquals(List.of("1:1:4", "2:2:5", "3:3:5"), queue(Side.SELL, 0), "a smaller quantity keeps its place");
        f.replace(BOB, 2, 0, 100, 6);
        assertEquals(List.of("1:1:4", "2:3:5", "3:2:6"), queue(Side.SELL, 0), "a larger one goes to the back");
        f.buy(CAROL, 4, 100, 5);
        assertEquals(List.of("1:3:4", "2:2:6"), queue(Side.SELL, 0), "the front traded; a partly filled order keeps its place");
    }

    /** position:orderId:leaves of every order at that depth, front of the queue first. */
    private List<String> queue(final Side side, final int depth) {
        final List<String> orders = new java.util.ArrayList<>();
        f.engine.forEachOrderAt(SYM, side, depth, (position, orderId, account, clOrdId, leaves, cumulative, tif) ->
            orders.add(position + ":" + orderId + ":" + leaves));
        return orders;
    }

    @Test
    void replaceToAnotherPriceLosesPriorityAndMayTrade() {
        f.buy(ALICE, 1, 99, 5);
        f.sell(BOB, 2, 101, 2);
        final Result r = f.replace(ALICE, 1, 11, 101, 5);
        assertEquals(1, r.fillCount());
        assertEquals(11, r.clientOrderId);
        assertEquals(OrderStatus.PARTIALLY_FILLED, r.orderStatus);
        f.assertDepth("101:3:1", "");
        assertEquals(RejectReason.UNKNOWN_ORDER, f.cancel(ALICE, 1).rejectReason, "the old client id is gone");
        assertEquals(OrderStatus.CANCELLED, f.cancel(ALICE, 11).orderStatus);
    }

    @Test
    void replaceCountsQuantityAsTheNewTotalIncludingFills() {
        f.buy(ALICE, 1, 100, 10);
        f.sell(BOB, 2, 100, 4);
        assertEquals(RejectReason.QUANTITY_NOT_ABOVE_FILLED, f.replace(ALICE, 1, 0, 100, 4).rejectReason);
        final Result r = f.replace(ALICE, 1, 0, 100, 6);
        assertEquals(2, r.leavesQuantity);
        assertEquals(4, r.cumulativeQuantity);
    }

    @Test
    void replaceToAClientIdAlreadyLiveIsRejected() {
        f.buy(ALICE, 1, 100, 1);
        f.buy(ALICE, 2, 100, 1);
        assertEquals(RejectReason.DUPLICATE_CLIENT_ORDER_ID, f.replace(ALICE, 1, 2, 100, 1).rejectReason);
    }

    @Test
    void reduceKeepsPriority() {
        f.sell(ALICE, 1, 100, 5);
        f.sell(BOB, 2, 100, 5);
        final Result r = f.reduce(ALICE, 1, 3);
        assertEquals(CancelReason.REDUCE, r.cancel(0).reason);
        assertEquals(3, r.cancel(0).quantity);
        assertEquals(2, r.cancel(0).leavesQuantity);
        assertEquals(2, r.quantity);
        f.buy(CAROL, 3, 100, 1);
        assertEquals(List.of(1L), f.makers());
    }

    @Test
    void reduceByAtLeastTheLeavesRemovesTheOrder() {
        f.sell(ALICE, 1, 100, 5);
        f.buy(BOB, 2, 100, 1);
        final Result r = f.reduce(ALICE, 1, 9);
        assertEquals(4, r.cancel(0).quantity);
        assertEquals(1, r.quantity, "what is left of the order is what filled");
        assertEquals(1, r.cumulativeQuantity);
        assertEquals(OrderStatus.CANCELLED, r.orderStatus);
        f.assertDepth("", "");
    }

    @Test
    void moveRejoinsAtTheBackEvenAtTheSamePrice() {
        f.sell(ALICE, 1, 100, 5);
        f.sell(BOB, 2, 100, 5);
        f.move(ALICE, 1, 100);
        f.buy(CAROL, 3, 100, 1);
        assertEquals(List.of(2L), f.makers());
    }

    @Test
    void moveAcrossTheSpreadTrades() {
        f.sell(ALICE, 1, 105, 5);
        f.buy(BOB, 2, 100, 3);
        final Result r = f.move(ALICE, 1, 99);
        assertEquals(1, r.fillCount());
        assertEquals(100, r.fill(0).price);
        assertEquals(OrderStatus.PARTIALLY_FILLED, r.orderStatus);
        f.assertDepth("", "99:2:1");
    }

    @Test
    void massCancelRemovesEveryOrderOfTheAccountOnly() {
        f.buy(ALICE, 1, 100, 1);
        f.buy(BOB, 2, 100, 1);
        f.apply(f.command.newOrder(ALICE, OTHER_SYM, 3, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 100, 1));
        final Result r = f.apply(f.command.massCancel(ALICE, 0));
        assertEquals(2, r.affectedOrders);
        assertEquals(CancelReason.MASS_CANCEL, r.cancel(0).reason);
        assertEquals(1, r.cancel(0).clientOrderId, "in engine-id order");
        assertEquals(3, r.cancel(1).clientOrderId);
        f.assertDepth("100:1:1", "");
    }

    @Test
    void massCancelForOneSymbolLeavesOtherSymbolsAlone() {
        f.buy(ALICE, 1, 100, 1);
        f.apply(f.command.newOrder(ALICE, OTHER_SYM, 3, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 100, 1));
        assertEquals(1, f.apply(f.command.massCancel(ALICE, OTHER_SYM)).affectedOrders);
        f.assertDepth("100:1:1", "");
        assertEquals(RejectReason.UNKNOWN_SYMBOL, f.apply(f.command.massCancel(ALICE, 12345)).rejectReason);
    }

    @Test
    void endOfDayExpiresDayOrdersAndKeepsGtc() {
        f.order(ALICE, 1, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 100, 1);
        f.buy(ALICE, 2, 100, 1);
        f.order(BOB, 3, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 105, 1);
        f.apply(f.command.newOrder(BOB, OTHER_SYM, 4, Side.SELL, OrderType.LIMIT, TimeInForce.DAY, 100, 1));
        final Result r = f.symbolCommand(CommandType.END_OF_DAY, SYM);
        assertEquals(2, r.affectedOrders);
        assertEquals(CancelReason.END_OF_DAY, r.cancel(0).reason);
        f.assertDepth("100:1:1", "");
        assertEquals(1, f.symbolCommand(CommandType.END_OF_DAY, 0).affectedOrders, "0 means every symbol");
    }
}
