package io.chronex.eccheck;

import exchange.core2.core.common.MatcherEventType;
import exchange.core2.core.common.MatcherTradeEvent;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;

import java.util.ArrayList;
import java.util.List;

/**
 * exchange-core's answer to a command and ours in one comparable form: the reject reason (exchange-core's
 * result code mapped to ours) and the events, one line each, in the order exchange-core reports them.
 */
final class Answers {
    private Answers() {
    }

    /**
     * The reject reason our engine must give for exchange-core's result code. Every code the streams can
     * produce is mapped here by name; anything else is a failure, not a silent pass.
     */
    static RejectReason expectedReason(final CommandResultCode code, final Command c, final SymbolSpec spec) {
        return switch (code) {
            case SUCCESS -> RejectReason.NONE;
            // exchange-core's risk pre-check answers RISK_NSF for all three of its refusals (RiskEngine.placeOrderRiskCheck);
            // ours names them: the reserve and the ask-below-fee rules are docs/engine.md's step 15.
            case RISK_NSF -> fundsReason(c, spec);
            case MATCHING_UNKNOWN_ORDER_ID -> RejectReason.UNKNOWN_ORDER;
            case MATCHING_REDUCE_FAILED_WRONG_SIZE -> RejectReason.INVALID_QUANTITY;
            case USER_MGMT_ACCOUNT_BALANCE_ADJUSTMENT_NSF -> RejectReason.INSUFFICIENT_FUNDS;
            // exchange-core: the user's transaction ids must rise (SAME: equal to the last, MANY: below it); ours:
            // a reference applies once. The streams only repeat references that were applied, so both mean "again".
            case USER_MGMT_ACCOUNT_BALANCE_ADJUSTMENT_ALREADY_APPLIED_SAME, USER_MGMT_ACCOUNT_BALANCE_ADJUSTMENT_ALREADY_APPLIED_MANY ->
                RejectReason.DUPLICATE_REFERENCE;
            default -> throw new AssertionError("exchange-core answered " + code + ", which this check does not map, to " + c);
        };
    }

    private static RejectReason fundsReason(final Command c, final SymbolSpec spec) {
        if (c.type != CommandType.NEW_ORDER) {
            throw new AssertionError("RISK_NSF for " + c);
        }
        if (c.side == Side.SELL) {
            return c.price * spec.quoteScale() < spec.takerFee() ? RejectReason.INVALID_PRICE : RejectReason.INSUFFICIENT_FUNDS;
        }
        final boolean badReserve = c.timeInForce == TimeInForce.FOK_BUDGET ? c.reservePrice != c.price : c.reservePrice < c.price;
        return badReserve ? RejectReason.INVALID_RESERVE_PRICE : RejectReason.INSUFFICIENT_FUNDS;
    }

    /**
     * exchange-core's events as lines: "unfilled SIZE" (its REJECT of an IOC or FOK_BUDGET remainder), "trade
     * maker UID/ID taker UID/ID PRICE SIZE MAKER_DONE TAKER_DONE", "reduce UID/ID SIZE DONE" (CANCEL and REDUCE).
     */
    static List<String> theirs(final OrderCommand cmd) {
        final List<String> lines = new ArrayList<>();
        for (MatcherTradeEvent e = cmd.matcherEvent; e != null; e = e.nextEvent) {
            if (e.eventType == MatcherEventType.REJECT) {
                lines.add("unfilled " + e.size);
            } else if (e.eventType == MatcherEventType.TRADE) {
                lines.add(trade(e.matchedOrderUid, e.matchedOrderId, cmd.uid, cmd.orderId, e.price, e.size, e.matchedOrderCompleted,
                    e.activeOrderCompleted));
            } else if (e.eventType == MatcherEventType.REDUCE) {
                lines.add(reduce(cmd.uid, cmd.orderId, e.size, e.activeOrderCompleted));
            } else {
                lines.add("event " + e.eventType);
            }
        }
        return lines;
    }

    /** Our result in the same lines; exchange-core puts the REJECT of a remainder before the trades. */
    static List<String> ours(final Result r) {
        final List<String> lines = new ArrayList<>();
        for (int i = 0; i < r.cancelCount(); i++) {
            if (r.cancel(i).reason == CancelReason.UNFILLED_REMAINDER) {
                lines.add("unfilled " + r.cancel(i).quantity);
            }
        }
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill f = r.fill(i);
            lines.add(trade(f.makerAccount, f.makerClientOrderId, f.takerAccount, f.takerClientOrderId, f.price, f.quantity,
                f.makerLeavesQuantity == 0, f.takerLeavesQuantity == 0));
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel x = r.cancel(i);
            if (x.reason == CancelReason.CLIENT_CANCEL || x.reason == CancelReason.REDUCE) {
                lines.add(reduce(x.account, x.clientOrderId, x.quantity, x.leavesQuantity == 0));
            } else if (x.reason != CancelReason.UNFILLED_REMAINDER) {
                lines.add("cancel " + x.reason + " " + x.account + "/" + x.clientOrderId + " " + x.quantity);
            }
        }
        return lines;
    }

    private static String trade(final long makerUid, final long makerId, final long takerUid, final long takerId, final long price,
                                final long size, final boolean makerDone, final boolean takerDone) {
        return "trade maker " + makerUid + "/" + makerId + " taker " + takerUid + "/" + takerId + " " + price + " " + size
            + (makerDone ? " 1" : " 0") + (takerDone ? " 1" : " 0");
    }

    private static String reduce(final long uid, final long id, final long size, final boolean done) {
        return "reduce " + uid + "/" + id + " " + size + (done ? " 1" : " 0");
    }
}
