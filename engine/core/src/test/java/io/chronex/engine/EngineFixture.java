package io.chronex.engine;

import io.chronex.api.AccountSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.OrderType;
import io.chronex.api.Result;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A small language for engine tests: one engine, one reused command and result, readable calls. */
final class EngineFixture {
    static final int SYM = 7;
    static final int OTHER_SYM = 9;
    static final long ALICE = 1;
    static final long BOB = 2;
    static final long CAROL = 3;

    final MatchingEngine engine;
    final Command command = new Command();
    final Result result = new Result();

    EngineFixture(final EngineConfig config) {
        engine = new MatchingEngine(config);
    }

    /** Two symbols (tick 1, lot 1), accounts ALICE/BOB/CAROL without limits, every check on, no auto-created accounts. */
    static EngineFixture standard() {
        return new EngineFixture(new EngineConfig(
            List.of(SymbolSpec.plain(SYM), SymbolSpec.plain(OTHER_SYM)),
            List.of(AccountSpec.unlimited(ALICE), AccountSpec.unlimited(BOB), AccountSpec.unlimited(CAROL)),
            io.chronex.api.RiskCheck.all(), false, null));
    }

    Result apply(final Command c) {
        engine.apply(c, result);
        return result;
    }

    Result order(final long account, final long clOrdId, final Side side, final OrderType type, final TimeInForce tif,
                 final long price, final long qty) {
        return apply(command.newOrder(account, SYM, clOrdId, side, type, tif, price, qty));
    }

    Result buy(final long account, final long clOrdId, final long price, final long qty) {
        return order(account, clOrdId, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, price, qty);
    }

    Result sell(final long account, final long clOrdId, final long price, final long qty) {
        return order(account, clOrdId, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, price, qty);
    }

    Result cancel(final long account, final long clOrdId) {
        return apply(command.cancel(account, clOrdId));
    }

    Result replace(final long account, final long clOrdId, final long newClOrdId, final long price, final long qty) {
        return apply(command.replace(account, clOrdId, newClOrdId, price, qty));
    }

    Result reduce(final long account, final long clOrdId, final long by) {
        return apply(command.reduce(account, clOrdId, by));
    }

    Result move(final long account, final long clOrdId, final long price) {
        return apply(command.move(account, clOrdId, price));
    }

    Result symbolCommand(final CommandType type, final int symbol) {
        return apply(command.symbolCommand(type, symbol));
    }

    Result accountCommand(final CommandType type, final long account) {
        return apply(command.accountCommand(type, account));
    }

    Result limits(final long account, final long maxQty, final long maxNotional, final int maxOpen, final SelfTradePrevention stp) {
        return apply(command.setAccountLimits(account, maxQty, maxNotional, maxOpen, stp));
    }

    /** Client order ids of the makers of the last result's fills, in order. */
    List<Long> makers() {
        final List<Long> ids = new ArrayList<>();
        for (int i = 0; i < result.fillCount(); i++) {
            ids.add(result.fill(i).makerClientOrderId);
        }
        return ids;
    }

    String depth(final Side side) {
        return BookText.depth(engine, SYM, side);
    }

    void assertDepth(final String bids, final String asks) {
        assertEquals(bids, depth(Side.BUY), "bids");
        assertEquals(asks, depth(Side.SELL), "asks");
    }
}
