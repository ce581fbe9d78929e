package io.chronex.replay.audit;

import io.chronex.queues.DataDirectory;

import java.io.PrintStream;
import java.time.Instant;

/**
 * bin/audit export: every order record ({@link OrderRecords}) in a window as CSV (RFC 4180 quoting)
 * or JSON lines, with the fields an order-record regulation asks for (MiFID II RTS 24 as the model).
 * The columns are named in {@link #COLUMNS} and documented in docs/audit.md.
 */
final class Export {
    static final String[] COLUMNS = {"sequence", "events_index", "utc_time", "event_type", "command", "order_id", "client_order_id",
        "client_order_id_text", "account", "gateway", "symbol", "side", "order_type", "validity", "price", "quantity", "leaves",
        "cumulative", "trade_id", "trade_price", "trade_quantity", "counterparty_order_id", "counterparty_account", "reason", "asset",
        "amount", "available", "held"};

    private Export() {
    }

    /** Writes the records of the commands received in [from, to); returns how many. */
    static long write(final DataDirectory data, final long from, final long to, final boolean json, final AuditQueries names,
                      final PrintStream out) {
        if (!json) {
            out.println(String.join(",", COLUMNS));
        }
        final long[] n = new long[1];
        final Object[] values = new Object[COLUMNS.length];
        AnsweredCommands.walk(data, from, to, new OrderRecords(r -> {
            n[0]++;
            int i = 0;
            values[i++] = r.journalIndex;
            values[i++] = r.eventsIndex;
            values[i++] = AuditQueries.UTC_MICROS.format(Instant.ofEpochSecond(0, r.receiptEpochNanos));
            values[i++] = r.eventType;
            values[i++] = r.commandType;
            values[i++] = r.orderId;
            values[i++] = r.clientOrderId;
            values[i++] = r.clientOrderIdText;
            values[i++] = r.account;
            values[i++] = r.gatewayId;
            values[i++] = r.symbol;
            values[i++] = r.side;
            values[i++] = r.orderType;
            values[i++] = r.timeInForce;
            values[i++] = r.price == 0 ? "" : names.price(r.symbol, r.price);
            values[i++] = r.quantity;
            values[i++] = r.leaves;
            values[i++] = r.cumulative;
            values[i++] = r.tradeId;
            values[i++] = r.tradePrice == 0 ? "" : names.price(r.symbol, r.tradePrice);
            values[i++] = r.tradeQuantity;
            values[i++] = r.counterpartyOrderId;
            values[i++] = r.counterpartyAccount;
            values[i++] = r.reason;
            final boolean cash = r.asset != 0;
            values[i++] = cash ? names.assetCode(r.asset) : "";
            values[i++] = cash ? names.amount(r.asset, r.amount) : "";
            values[i++] = cash ? names.amount(r.asset, r.available) : "";
            values[i] = cash ? names.amount(r.asset, r.held) : "";
            out.println(json ? jsonLine(values) : csvLine(values));
        }));
        return n[0];
    }

    private static String csvLine(final Object[] values) {
        final StringBuilder sb = new StringBuilder(160);
        for (int i = 0; i < values.length; i++) {
            final String v = String.valueOf(values[i]);
            if (i > 0) {
                sb.append(',');
            }
            // RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled (ClOrdIDs may hold both).
            if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                sb.append('"').append(v.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(v);
            }
        }
        return sb.toString();
    }

    private static String jsonLine(final Object[] values) {
        final StringBuilder sb = new StringBuilder(300).append('{');
        for (int i = 0; i < values.length; i++) {
            sb.append(i == 0 ? "" : ",").append('"').append(COLUMNS[i]).append("\":");
            if (values[i] instanceof Number) {
                sb.append(values[i]);
            } else {
                sb.append('"');
                for (final char c : String.valueOf(values[i]).toCharArray()) {
                    if (c == '"' || c == '\\') {
                        sb.append('\\').append(c);
                    } else if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
                sb.append('"');
            }
        }
        return sb.append('}').toString();
    }
}
