package io.chronex.replay.audit;

import io.chronex.api.Cancel;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.Result;
import io.chronex.queues.CommandText;
import io.chronex.queues.Hops;

import java.util.HashMap;
import java.util.Map;

/**
 * Each answered command as order records, one per order event, with the fields an order-record
 * regulation asks for (MiFID II RTS 24 is the model): the command's own record (new, amend, cancel,
 * or reject), a fill record for each side of each trade, and a cancel record for each order the engine
 * cancelled (IOC remainders, kill switch, end of day, self-trade prevention, mass cancel). ClOrdID
 * texts are those the gateways journalled, remembered per order from its new or amend on.
 */
final class OrderRecords implements AnsweredCommands.Visitor {
    /** One order event; reused for every record handed over. */
    static final class Record {
        long journalIndex;
        long eventsIndex;
        long receiptEpochNanos;
        String eventType;
        String commandType;
        long orderId;
        long account;
        long clientOrderId;
        String clientOrderIdText;
        int gatewayId;
        int symbol;
        String side;
        String orderType;
        String timeInForce;
        long price;
        long quantity;
        long leaves;
        long cumulative;
        long tradeId;
        long tradePrice;
        long tradeQuantity;
        long counterpartyOrderId;
        long counterpartyAccount;
        String reason;
        /** A cash movement (DEPOSIT, WITHDRAW, ADJUST) or a BALANCE: the asset's id, else 0. */
        int asset;
        /** A cash movement's amount (signed for ADJUST), its reference in {@link #clientOrderId}. */
        long amount;
        /** A cash movement or BALANCE: the account's available and held balance of the asset after it. */
        long available;
        long held;
        /** The command's hop times, on its own record; null on the fill and cancel records it caused. */
        Hops hops;

        /** A copy to keep past the next record (the record and its hops are reused). */
        Record copy() {
            final Record c = new Record();
            c.journalIndex = journalIndex;
            c.eventsIndex = eventsIndex;
            c.receiptEpochNanos = receiptEpochNanos;
            c.eventType = eventType;
            c.commandType = commandType;
            c.orderId = orderId;
            c.account = account;
            c.clientOrderId = clientOrderId;
            c.clientOrderIdText = clientOrderIdText;
            c.gatewayId = gatewayId;
            c.symbol = symbol;
            c.side = side;
            c.orderType = orderType;
            c.timeInForce = timeInForce;
            c.price = price;
            c.quantity = quantity;
            c.leaves = leaves;
            c.cumulative = cumulative;
            c.tradeId = tradeId;
            c.tradePrice = tradePrice;
            c.tradeQuantity = tradeQuantity;
            c.counterpartyOrderId = counterpartyOrderId;
            c.counterpartyAccount = counterpartyAccount;
            c.reason = reason;
            c.asset = asset;
            c.amount = amount;
            c.available = available;
            c.held = held;
            if (hops != null) {
                c.hops = new Hops();
                c.hops.gatewayId = hops.gatewayId;
                c.hops.sessionId = hops.sessionId;
                c.hops.clientSeqNum = hops.clientSeqNum;
                c.hops.gatewayReadNanos = hops.gatewayReadNanos;
                c.hops.gatewayAppendNanos = hops.gatewayAppendNanos;
                c.hops.receiptEpochNanos = hops.receiptEpochNanos;
                c.hops.engineReadNanos = hops.engineReadNanos;
                c.hops.engineDoneNanos = hops.engineDoneNanos;
                c.hops.engineAppendNanos = hops.engineAppendNanos;
            }
            return c;
        }
    }

    /** Told about each record. */
    interface Sink {
        void record(Record r);
    }

    private final Sink sink;
    private final Record r = new Record();
    /** The ClOrdID text of each order seen, by engine order id (what a report names the order by). */
    private final Map<Long, String> texts = new HashMap<>();
    private Hops commandHops;

    OrderRecords(final Sink sink) {
        this.sink = sink;
    }

    @Override
    public void answered(final long journalIndex, final long eventsIndex, final Command command, final CommandText text,
                         final Hops hops, final Result result) {
        if (result.commandType == CommandType.CONFIGURATION) {
            return; // the answer to a configuration record: no order's, no account's (bin/audit config lists them)
        }
        remember(command, text, result);
        begin(journalIndex, eventsIndex, hops, result);
        own(command, text, result);
        for (int i = 0; i < result.fillCount(); i++) {
            fill(result, result.fill(i), true);
            fill(result, result.fill(i), false);
        }
        for (int i = 0; i < result.cancelCount(); i++) {
            // A client's cancel is the command's own record already; the orders it did not name (mass cancel) get their own.
            if (!(result.commandType == CommandType.CANCEL && result.cancel(i).orderId == result.orderId)) {
                cancel(result.cancel(i));
            }
        }
    }

    private void remember(final Command command, final CommandText text, final Result result) {
        if (command == null || result.isRejected() || result.orderId == 0) {
            return;
        }
        final String newText = command.type == CommandType.REPLACE ? text.newClientOrderIdText() : text.clientOrderIdText();
        if (!newText.isEmpty()) {
            texts.put(result.orderId, newText);
        }
    }

    private void begin(final long journalIndex, final long eventsIndex, final Hops hops, final Result result) {
        r.journalIndex = journalIndex;
        r.eventsIndex = eventsIndex;
        r.receiptEpochNanos = hops.receiptEpochNanos;
        r.gatewayId = hops.gatewayId;
        commandHops = hops;
        r.commandType = result.commandType == null ? "MALFORMED" : result.commandType.name();
    }

    /** The command's own record: what it asked for and how the engine answered. */
    private void own(final Command command, final CommandText text, final Result result) {
        clearOrderFields();
        r.eventType = result.isRejected() ? "reject" : switch (result.commandType) {
            case NEW_ORDER -> "new";
            case REPLACE, MOVE, REDUCE -> "amend";
            case CANCEL -> "cancel";
            default -> "other";
        };
        r.orderId = result.orderId;
        r.account = result.account != 0 || command == null ? result.account : command.account;
        r.clientOrderId = result.clientOrderId != 0 || command == null ? result.clientOrderId : command.clientOrderId;
        r.clientOrderIdText = command == null ? "" : command.type == CommandType.REPLACE && !result.isRejected()
            ? text.newClientOrderIdText() : text.clientOrderIdText();
        r.symbol = result.symbol != 0 || command == null ? result.symbol : command.symbol;
        r.side = name(result.side != null || command == null ? result.side : command.side);
        r.orderType = name(result.orderType != null || command == null ? result.orderType : command.orderType);
        r.timeInForce = name(result.timeInForce != null || command == null ? result.timeInForce : command.timeInForce);
        r.price = result.price != 0 || command == null ? result.price : command.price;
        r.quantity = result.quantity != 0 || command == null ? result.quantity : command.quantity;
        r.leaves = result.leavesQuantity;
        r.cumulative = result.cumulativeQuantity;
        r.reason = result.isRejected() ? result.rejectReason.name() : "";
        r.hops = commandHops;
        if (command != null && isCash(command.type)) {
            cash(command, result);
        }
        sink.record(r);
    }

    private static boolean isCash(final CommandType type) {
        return type == CommandType.DEPOSIT || type == CommandType.WITHDRAW || type == CommandType.ADJUST || type == CommandType.BALANCE;
    }

    /**
     * A cash movement's record (event type "cash", or "reject"): its asset, amount, reference and the balance after
     * it, in fields of their own; the symbol, price and quantity columns stay empty (the command carries the asset
     * id where an order carries its symbol).
     */
    private void cash(final Command command, final Result result) {
        if (!result.isRejected()) {
            r.eventType = command.type == CommandType.BALANCE ? "balance" : "cash";
        }
        r.asset = command.symbol;
        r.amount = command.type == CommandType.BALANCE ? 0 : command.quantity;
        r.symbol = 0;
        r.quantity = 0;
        r.price = 0;
        r.available = result.balanceAvailable;
        r.held = result.balanceHeld;
    }

    private void fill(final Result result, final Fill f, final boolean taker) {
        clearOrderFields();
        r.eventType = "fill";
        r.orderId = taker ? f.takerOrderId : f.makerOrderId;
        r.account = taker ? f.takerAccount : f.makerAccount;
        r.clientOrderId = taker ? f.takerClientOrderId : f.makerClientOrderId;
        r.clientOrderIdText = texts.getOrDefault(r.orderId, "");
        r.symbol = result.symbol;
        r.side = name(taker ? f.takerSide : f.takerSide.opposite());
        r.leaves = taker ? f.takerLeavesQuantity : f.makerLeavesQuantity;
        r.cumulative = taker ? f.takerCumulativeQuantity : f.makerCumulativeQuantity;
        r.tradeId = f.tradeId;
        r.tradePrice = f.price;
        r.tradeQuantity = f.quantity;
        r.counterpartyOrderId = taker ? f.makerOrderId : f.takerOrderId;
        r.counterpartyAccount = taker ? f.makerAccount : f.takerAccount;
        r.reason = taker ? "taker" : "maker";
        sink.record(r);
    }

    private void cancel(final Cancel c) {
        clearOrderFields();
        r.eventType = "cancel";
        r.orderId = c.orderId;
        r.account = c.account;
        r.clientOrderId = c.clientOrderId;
        r.clientOrderIdText = texts.getOrDefault(c.orderId, "");
        r.symbol = c.symbol;
        r.side = name(c.side);
        r.price = c.price;
        r.quantity = c.quantity;
        r.leaves = c.leavesQuantity;
        r.cumulative = c.cumulativeQuantity;
        r.reason = c.reason == null ? "" : c.reason.name();
        sink.record(r);
    }

    private void clearOrderFields() {
        r.orderId = 0;
        r.account = 0;
        r.clientOrderId = 0;
        r.clientOrderIdText = "";
        r.symbol = 0;
        r.side = "";
        r.orderType = "";
        r.timeInForce = "";
        r.price = 0;
        r.quantity = 0;
        r.leaves = 0;
        r.cumulative = 0;
        r.tradeId = 0;
        r.tradePrice = 0;
        r.tradeQuantity = 0;
        r.counterpartyOrderId = 0;
        r.counterpartyAccount = 0;
        r.reason = "";
        r.hops = null;
        r.asset = 0;
        r.amount = 0;
        r.available = 0;
        r.held = 0;
    }

    private static String name(final Enum<?> e) {
        return e == null ? "" : e.name();
    }
}
