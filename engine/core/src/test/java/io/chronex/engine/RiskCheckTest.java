package io.chronex.engine;

import io.chronex.api.AccountSpec;
import io.chronex.api.CancelReason;
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
import static io.chronex.engine.EngineFixture.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Each pre-trade check rejects with its own reason, and each can be switched off. */
class RiskCheckTest {
    private final EngineFixture f = withChecks(RiskCheck.all());

    /** Tick 5, lot 10, band 10% around 1000. */
    private static EngineFixture withChecks(final int checks) {
        return new EngineFixture(new EngineConfig(
            List.of(new SymbolSpec(SYM, "TICKED", 100, 5, 10, 1000, 1000)),
            List.of(AccountSpec.unlimited(ALICE), AccountSpec.unlimited(BOB)), checks, false, null));
    }

    @Test
    void unknownSymbolIsRejected() {
        assertEquals(RejectReason.UNKNOWN_SYMBOL,
            f.apply(f.command.newOrder(ALICE, 999, 1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 1000, 10)).rejectReason);
    }

    @Test
    void unknownAccountIsRejectedUnlessAccountsAreCreatedOnFirstUse() {
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, f.buy(77, 1, 1000, 10).rejectReason);
        final EngineFixture open = new EngineFixture(EngineConfig.noRiskChecks(SymbolSpec.plain(SYM)));
        assertFalse(open.buy(77, 1, 1000, 10).isRejected());
    }

    @Test
    void quantityAndPriceOutOfRangeAreRejected() {
        assertEquals(RejectReason.INVALID_QUANTITY, f.buy(ALICE, 1, 1000, 0).rejectReason);
        assertEquals(RejectReason.INVALID_QUANTITY, f.buy(ALICE, 1, 1000, -10).rejectReason);
        assertEquals(RejectReason.INVALID_QUANTITY, f.buy(ALICE, 1, 1000, Long.MAX_VALUE).rejectReason);
        assertEquals(RejectReason.INVALID_PRICE, f.buy(ALICE, 1, 0, 10).rejectReason);
        assertEquals(RejectReason.INVALID_PRICE, f.buy(ALICE, 1, -5, 10).rejectReason);
        assertEquals(RejectReason.INVALID_PRICE, f.buy(ALICE, 1, Long.MAX_VALUE, 10).rejectReason);
    }

    @Test
    void missingFieldsAndNonsenseCombinationsAreInvalidOrders() {
        assertEquals(RejectReason.INVALID_ORDER, f.order(ALICE, 1, null, OrderType.LIMIT, TimeInForce.GTC, 1000, 10).rejectReason);
        assertEquals(RejectReason.INVALID_ORDER, f.order(ALICE, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 1000, 10).rejectReason);
        assertEquals(RejectReason.INVALID_ORDER,
            f.order(ALICE, 1, Side.BUY, OrderType.MARKET, TimeInForce.FOK_BUDGET, 1000, 10).rejectReason);
        f.command.clear();
        assertEquals(RejectReason.UNKNOWN_COMMAND, f.apply(f.command).rejectReason);
    }

    @Test
    void priceOffTickAndQuantityOffLotAreRejectedNeverRounded() {
        assertEquals(RejectReason.PRICE_NOT_ON_TICK, f.buy(ALICE, 1, 1001, 10).rejectReason);
        assertEquals(RejectReason.QUANTITY_NOT_ON_LOT, f.buy(ALICE, 1, 1000, 15).rejectReason);
        assertFalse(f.buy(ALICE, 1, 1005, 20).isRejected());
    }

    @Test
    void priceOutsideTheBandAroundTheReferenceIsRejected() {
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND, f.buy(ALICE, 1, 1105, 10).rejectReason);
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND, f.sell(ALICE, 1, 895, 10).rejectReason);
        assertFalse(f.buy(ALICE, 1, 1100, 10).isRejected(), "the band's edge is inside");
        f.apply(f.command.setReferencePrice(SYM, 2000));
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND, f.buy(ALICE, 2, 1100, 10).rejectReason);
    }

    @Test
    void tradesMoveTheReferencePrice() {
        f.sell(ALICE, 1, 1100, 10);
        f.buy(BOB, 2, 1100, 10);
        assertFalse(f.buy(ALICE, 3, 1210, 10).isRejected(), "band now centred on the last trade at 1100");
    }

    @Test
    void accountLimitsOnQuantityNotionalAndOpenOrders() {
        f.limits(ALICE, 100, 50_000, 2, SelfTradePrevention.OFF);
        assertEquals(RejectReason.MAX_ORDER_QUANTITY_EXCEEDED, f.buy(ALICE, 1, 1000, 110).rejectReason);
        assertEquals(RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED, f.buy(ALICE, 1, 1000, 60).rejectReason);
        assertFalse(f.buy(ALICE, 1, 1000, 50).isRejected());
        assertFalse(f.buy(ALICE, 2, 1000, 10).isRejected());
        assertEquals(RejectReason.MAX_OPEN_ORDERS_EXCEEDED, f.buy(ALICE, 3, 1000, 10).rejectReason);
        f.cancel(ALICE, 2);
        assertFalse(f.buy(ALICE, 3, 1000, 10).isRejected());
        assertEquals(RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED, f.replace(ALICE, 3, 0, 1000, 60).rejectReason);
    }

    @Test
    void killSwitchCancelsEverythingAndBlocksNewOrdersUntilLifted() {
        f.buy(ALICE, 1, 1000, 10);
        f.sell(ALICE, 2, 1050, 10);
        final Result r = f.accountCommand(CommandType.KILL_SWITCH_ON, ALICE);
        assertEquals(2, r.affectedOrders);
        assertEquals(CancelReason.KILL_SWITCH, r.cancel(0).reason);
        assertEquals(RejectReason.KILL_SWITCH_ACTIVE, f.buy(ALICE, 3, 1000, 10).rejectReason);
        assertFalse(f.buy(BOB, 3, 1000, 10).isRejected(), "other accounts trade on");
        f.accountCommand(CommandType.KILL_SWITCH_OFF, ALICE);
        assertFalse(f.buy(ALICE, 3, 1000, 10).isRejected());
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, f.accountCommand(CommandType.KILL_SWITCH_ON, 404).rejectReason);
    }

    @Test
    void haltBlocksNewOrdersMovesAndReplacesButNotCancels() {
        f.buy(ALICE, 1, 1000, 10);
        f.buy(ALICE, 2, 1000, 10);
        f.symbolCommand(CommandType.HALT, SYM);
        assertEquals(RejectReason.SYMBOL_HALTED, f.buy(ALICE, 3, 1000, 10).rejectReason);
        assertEquals(RejectReason.SYMBOL_HALTED, f.move(ALICE, 1, 995).rejectReason);
        assertEquals(RejectReason.SYMBOL_HALTED, f.replace(ALICE, 1, 0, 995, 10).rejectReason);
        assertEquals(OrderStatus.CANCELLED, f.cancel(ALICE, 1).orderStatus);
        assertFalse(f.reduce(ALICE, 2, 5).isRejected());
        f.symbolCommand(CommandType.RESUME, SYM);
        assertFalse(f.buy(ALICE, 3, 1000, 10).isRejected());
        assertEquals(RejectReason.UNKNOWN_SYMBOL, f.symbolCommand(CommandType.HALT, 0).rejectReason);
    }

    @Test
    void everyCheckSwitchedOffLetsTheSameOrdersThrough() {
        final EngineFixture off = withChecks(0);
        off.limits(ALICE, 1, 1, 1, SelfTradePrevention.CANCEL_BOTH);
        off.symbolCommand(CommandType.HALT, SYM);
        off.accountCommand(CommandType.KILL_SWITCH_ON, ALICE);
        assertFalse(off.buy(ALICE, 1, 1001, 15).isRejected(), "off tick, off lot, over limits, halted, killed");
        assertFalse(off.buy(ALICE, 2, 5000, 15).isRejected(), "outside band, over open orders");
        assertEquals(1, off.sell(ALICE, 3, 1001, 15).fillCount(), "self-trade prevention off: trades with itself");
    }

    @Test
    void rejectedCommandEchoesItsFieldsAndChangesNothing() {
        f.buy(ALICE, 1, 1000, 10);
        final Result r = f.buy(ALICE, 2, 1001, 10);
        assertEquals(OrderStatus.REJECTED, r.orderStatus);
        assertEquals(RejectReason.PRICE_NOT_ON_TICK, r.rejectReason);
        assertEquals(2, r.clientOrderId);
        assertEquals(1001, r.price);
        assertEquals(0, r.orderId);
        assertEquals(0, r.levelChangeCount());

        // A twin that saw a different rejected command instead ends in the same state.
        final EngineFixture twin = withChecks(RiskCheck.all());
        twin.buy(ALICE, 1, 1000, 10);
        assertEquals(RejectReason.UNKNOWN_ORDER, twin.cancel(BOB, 5).rejectReason);
        assertEquals(twin.engine.stateHash(), f.engine.stateHash());
    }
}
