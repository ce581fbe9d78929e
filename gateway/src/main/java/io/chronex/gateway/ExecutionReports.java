package io.chronex.gateway;

import io.chronex.gateway.core.Instruments;
import io.chronex.gateway.core.ClOrdIdReleases;
import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.AssetSpec;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.queues.CommandText;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Turns one engine result into the FIX messages each of this gateway's sessions must get: the
 * answer to the command (to the session that sent it) and every fill and cancel that touched an
 * order of one of its accounts (to that account's session, whoever caused it). Each account has
 * exactly one session, so every message has exactly one destination.
 *
 * <p>Third-party routing: an answer to a request carries the request's route, every other report
 * the order's (as DeliverToCompID and friends, {@link Outbox#begin(FixSession, int, long, int)}). A
 * new order or replace accepted gives the order its request's route (none if it had no 115), before
 * the fills it caused are reported.
 */
final class ExecutionReports {
    private static final byte[] NONE = {'N', 'O', 'N', 'E'};

    private final Outbox outbox;
    private final Long2ObjectHashMap<FixSession> sessionsByAccount;
    private final Instruments symbols;
    private final ClOrdIdTable clOrdIds;
    /** A field, so noting releases allocates nothing per result. */
    private final ClOrdIdReleases.Sink releases;
    /** The texts journalled with the request being answered (CANCEL, REPLACE, MASS_CANCEL, BALANCE), read back with it. */
    final CommandText requestText = new CommandText();
    /** The CollInquiryID journalled with a BALANCE, where a refusal reads it. */
    private final UnsafeBuffer inquiryId = new UnsafeBuffer(requestText.newClientOrderId);
    /** ClOrdID and OrigClOrdID (length 0: none) of the report being built. */
    private final byte[] clOrd = new byte[CommandText.MAX_LENGTH];
    private int clOrdLength;
    private final byte[] orig = new byte[CommandText.MAX_LENGTH];
    private int origLength;
    /** The route of the report being built (set with its ids), and of the request being answered ({@link Routes}). */
    private int route;
    private int requestRoute;
    /** Filled price x quantity per live order of our accounts, for AvgPx; dropped when the order is done. */
    private final Long2LongHashMap notional = new Long2LongHashMap(0);
    /** Filled quantity per live order of our accounts, dropped with notional: AvgPx is notional / filled. */
    private final Long2LongHashMap filled = new Long2LongHashMap(0);
    private final byte[] execId = new byte[40];
    private long eventsIndex;
    private int execSequence;
    private long now;
    private long commandReadNanos;
    private long engineAppendNanos;
    /** An INSUFFICIENT_FUNDS result's needed and available amounts, for the reject's Text; set just before the report. */
    private long fundsNeeded;
    private long fundsAvailable;
    private final StringBuilder text = new StringBuilder(96);

    ExecutionReports(final Outbox outbox, final Long2ObjectHashMap<FixSession> sessionsByAccount, final Instruments symbols,
                     final ClOrdIdTable clOrdIds) {
        this.clOrdIds = clOrdIds;
        this.releases = clOrdIds::releaseLater;
        this.outbox = outbox;
        this.sessionsByAccount = sessionsByAccount;
        this.symbols = symbols;
    }

    /**
     * Builds the messages for one result into the outbox (the caller commits them).
     *
     * @param direct  the session that sent the command, or null when it came from elsewhere
     * @param request for CANCEL, REPLACE, MASS_CANCEL and BALANCE from a session here: the command as journalled (for the
     *                request's ClOrdID or CollInquiryID), with its texts in {@link #requestText}
     * @param requestRoute the route of the command when it came from a session here with one ({@link RequestRoutes}), else 0
     */
    void onResult(final long eventsIndex, final Result r, final FixSession direct, final Command request, final long nowMillis,
                  final long commandReadNanos, final long engineAppendNanos, final int requestRoute) {
        this.eventsIndex = eventsIndex;
        this.requestRoute = requestRoute;
        this.execSequence = 0;
        this.now = nowMillis;
        this.commandReadNanos = commandReadNanos;
        this.engineAppendNanos = engineAppendNanos;
        final CommandType type = r.commandType;
        // Noted now, applied once this result's reports are stored (the texts below are read before that).
        ClOrdIdReleases.of(r, direct == null ? ClOrdIdReleases.NO_DIRECT : direct.account, request, sessionsByAccount, releases);
        if (direct != null) {
            if (type == CommandType.NEW_ORDER) {
                tableIds(direct.account, r.clientOrderId);
                if (!r.isRejected() && route != requestRoute) {
                    // Also an entry a crash left behind, or a live duplicate's: the order taken now is this request's.
                    clOrdIds.route(direct.account, r.clientOrderId, requestRoute);
                }
                route = requestRoute;
                fundsNeeded = r.fundsNeeded;
                fundsAvailable = r.balanceAvailable;
                report(direct, r.isRejected() ? '8' : '0', r.isRejected() ? '8' : '0', r.orderId,
                    r.symbol, r.side, r.orderType, r.timeInForce, r.price, r.quantity,
                    r.isRejected() ? 0 : r.quantity, 0, 0, 0, r.rejectReason, true);
            } else if (type == CommandType.CANCEL && r.isRejected()) {
                cancelReject(direct, r, request, '1');
            } else if (type == CommandType.REPLACE) {
                if (r.isRejected()) {
                    cancelReject(direct, r, request, '2');
                } else {
                    // Status after the replace itself; fills it caused follow as trade reports.
                    final long filledHere = takerFilled(r);
                    clOrdIds.route(direct.account, request.newClientOrderId, requestRoute);
                    requestIds(direct.account, request);
                    report(direct, '5', statusChar(r.cumulativeQuantity - filledHere, r.quantity), r.orderId, r.symbol, r.side,
                        r.orderType, r.timeInForce, r.price, r.quantity,
                        r.leavesQuantity + filledHere, r.cumulativeQuantity - filledHere, 0, 0, RejectReason.NONE, true);
                }
            } else if (type == CommandType.MASS_CANCEL) {
                massCancelReport(direct, r, request);
            } else if (type == CommandType.BALANCE) {
                balance(direct, r);
            }
        }
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill f = r.fill(i);
            final FixSession taker = sessionsByAccount.get(f.takerAccount);
            if (taker != null) {
                final long avg = addNotional(f.takerOrderId, f.price, f.quantity, f.takerLeavesQuantity);
                tableIds(f.takerAccount, f.takerClientOrderId);
                report(taker, 'F', f.takerLeavesQuantity == 0 ? '2' : '1', f.takerOrderId, r.symbol,
                    f.takerSide, r.orderType, r.timeInForce, r.price, f.takerCumulativeQuantity + f.takerLeavesQuantity,
                    f.takerLeavesQuantity, f.takerCumulativeQuantity, f.price, f.quantity, RejectReason.NONE, taker == direct, avg);
            }
            final FixSession maker = sessionsByAccount.get(f.makerAccount);
            if (maker != null) {
                final long avg = addNotional(f.makerOrderId, f.price, f.quantity, f.makerLeavesQuantity);
                tableIds(f.makerAccount, f.makerClientOrderId);
                report(maker, 'F', f.makerLeavesQuantity == 0 ? '2' : '1', f.makerOrderId, r.symbol,
                    f.takerSide == Side.BUY ? Side.SELL : Side.BUY, OrderType.LIMIT, null, f.price,
                    f.makerCumulativeQuantity + f.makerLeavesQuantity, f.makerLeavesQuantity, f.makerCumulativeQuantity,
                    f.price, f.quantity, RejectReason.NONE, false, avg);
            }
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel x = r.cancel(i);
            final FixSession owner = sessionsByAccount.get(x.account);
            if (owner == null) {
                continue;
            }
            final boolean answer = owner == direct && x.orderId == r.orderId
                && (type == CommandType.CANCEL || type == CommandType.REPLACE);
            final boolean expired = x.reason == CancelReason.END_OF_DAY;
            final long avg = x.leavesQuantity == 0 ? takeNotional(x.orderId, x.cumulativeQuantity)
                : average(x.orderId, x.cumulativeQuantity);
            if (x.leavesQuantity > 0) {
                // A reduce: the order is still there, smaller (a replace down, a self-trade prevention decrement).
                tableIds(x.account, x.clientOrderId);
                if (answer) {
                    route = requestRoute;
                }
                report(owner, '5', statusChar(x.cumulativeQuantity, x.cumulativeQuantity + x.leavesQuantity), x.orderId, x.symbol,
                    x.side, OrderType.LIMIT, null, x.price, x.cumulativeQuantity + x.leavesQuantity,
                    x.leavesQuantity, x.cumulativeQuantity, 0, 0, RejectReason.NONE, answer, avg);
                continue;
            }
            if (answer && type == CommandType.CANCEL) {
                requestIds(x.account, request);
            } else {
                tableIds(x.account, x.clientOrderId);
                if (answer) {
                    route = requestRoute;
                }
            }
            report(owner, expired ? 'C' : '4', expired ? 'C' : '4', x.orderId, x.symbol, x.side, OrderType.LIMIT, null, x.price,
                x.cumulativeQuantity + x.quantity, 0, x.cumulativeQuantity, 0, 0, RejectReason.NONE, answer, avg);
        }
    }

    /**
     * Brings the AvgPx bookkeeping up to date with a result without sending anything: used at start
     * on the events this gateway had already answered, so averages stay right across restarts.
     */
    void track(final Result r) {
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill f = r.fill(i);
            if (sessionsByAccount.containsKey(f.takerAccount)) {
                addNotional(f.takerOrderId, f.price, f.quantity, f.takerLeavesQuantity);
            }
            if (sessionsByAccount.containsKey(f.makerAccount)) {
                addNotional(f.makerOrderId, f.price, f.quantity, f.makerLeavesQuantity);
            }
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel x = r.cancel(i);
            if (x.leavesQuantity == 0 && sessionsByAccount.containsKey(x.account)) {
                notional.remove(x.orderId);
                filled.remove(x.orderId);
            }
        }
    }

    /** The bytes {@link #writeTracked} writes. */
    int trackedBytes() {
        return 2 * Integer.BYTES + 16 * (notional.size() + filled.size());
    }

    /** The AvgPx bookkeeping of live orders, for a checkpoint ({@link GatewayCheckpoint}). */
    void writeTracked(final java.nio.ByteBuffer out) {
        writeMap(out, notional);
        writeMap(out, filled);
    }

    /** Becomes the bookkeeping {@link #writeTracked} wrote. */
    void readTracked(final java.nio.ByteBuffer in) {
        readMap(in, notional);
        readMap(in, filled);
    }

    private static void writeMap(final java.nio.ByteBuffer out, final Long2LongHashMap map) {
        out.putInt(map.size());
        map.forEachLong((key, value) -> out.putLong(key).putLong(value));
    }

    private static void readMap(final java.nio.ByteBuffer in, final Long2LongHashMap map) {
        map.clear();
        final int size = in.getInt();
        if (size < 0 || size > in.remaining() / 16) {
            throw new IllegalArgumentException("average prices: " + size + " orders cannot be");
        }
        for (int i = 0; i < size; i++) {
            map.put(in.getLong(), in.getLong());
        }
    }

    private static long takerFilled(final Result r) {
        long filled = 0;
        for (int i = 0; i < r.fillCount(); i++) {
            filled += r.fill(i).quantity;
        }
        return filled;
    }

    private void report(final FixSession s, final char execType, final char ordStatus, final long orderId,
                        final int symbolId, final Side side, final OrderType orderType, final TimeInForce tif,
                        final long price, final long orderQty, final long leaves, final long cum, final long lastPx, final long lastQty,
                        final RejectReason reject, final boolean answer) {
        report(s, execType, ordStatus, orderId, symbolId, side, orderType, tif, price, orderQty, leaves, cum,
            lastPx, lastQty, reject, answer, cum == 0 ? 0 : average(orderId, cum));
    }

    /** One ExecutionReport; its ClOrdID and OrigClOrdID are the ones {@link #tableIds} or {@link #requestIds} set last. */
    private void report(final FixSession s, final char execType, final char ordStatus, final long orderId,
                        final int symbolId, final Side side, final OrderType orderType, final TimeInForce tif,
                        final long price, final long orderQty, final long leaves, final long cum, final long lastPx, final long lastQty,
                        final RejectReason reject, final boolean answer, final long avgPxScaled4) {
        final GatewayConfig.Symbol symbol = symbols.symbolById(symbolId);
        final int decimals = symbol == null ? 0 : symbol.priceDecimals();
        final FixEncoder e = outbox.begin(s, FixMsgTypes.EXECUTION_REPORT, now, route);
        if (orderId == 0) {
            e.addAscii(FixTags.ORDER_ID, NONE);
        } else {
            e.addLong(FixTags.ORDER_ID, orderId);
        }
        e.addAscii(FixTags.CL_ORD_ID, clOrd, clOrdLength);
        if (origLength != 0) {
            e.addAscii(FixTags.ORIG_CL_ORD_ID, orig, origLength);
        }
        e.addAscii(FixTags.EXEC_ID, execId, execId());
        e.addChar(FixTags.EXEC_TYPE, execType);
        e.addChar(FixTags.ORD_STATUS, ordStatus);
        e.addLong(FixTags.ACCOUNT, s.account);
        if (symbol != null) {
            e.addAscii(FixTags.SYMBOL, symbol.name());
        } else {
            e.addLong(FixTags.SYMBOL, symbolId);
        }
        if (side != null) {
            e.addChar(FixTags.SIDE, side == Side.BUY ? '1' : '2');
        }
        if (orderType != null) {
            e.addChar(FixTags.ORD_TYPE, orderType == OrderType.MARKET ? '1' : '2');
        }
        if (tif != null) {
            e.addChar(FixTags.TIME_IN_FORCE, tifChar(tif));
        }
        if (price != 0 && orderType != OrderType.MARKET) {
            e.addDecimal(FixTags.PRICE, price, decimals);
        }
        e.addLong(FixTags.ORDER_QTY, orderQty);
        if (lastQty != 0) {
            e.addLong(FixTags.LAST_QTY, lastQty);
            e.addDecimal(FixTags.LAST_PX, lastPx, decimals);
        }
        e.addLong(FixTags.LEAVES_QTY, leaves);
        e.addLong(FixTags.CUM_QTY, cum);
        e.addDecimal(FixTags.AVG_PX, avgPxScaled4, decimals + 4);
        if (reject != RejectReason.NONE) {
            e.addLong(FixTags.ORD_REJ_REASON, ordRejReason(reject));
            e.addAscii(FixTags.TEXT, rejectText(reject, symbol, side));
        }
        e.addUtcTimestamp(FixTags.TRANSACT_TIME, now);
        outbox.end(answer ? commandReadNanos : 0, engineAppendNanos);
    }

    private void cancelReject(final FixSession s, final Result r, final Command request, final char responseTo) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.ORDER_CANCEL_REJECT, now, requestRoute);
        if (r.orderId == 0) {
            e.addAscii(FixTags.ORDER_ID, NONE);
        } else {
            e.addLong(FixTags.ORDER_ID, r.orderId);
        }
        requestIds(s.account, request);
        e.addAscii(FixTags.CL_ORD_ID, clOrd, clOrdLength);
        e.addAscii(FixTags.ORIG_CL_ORD_ID, orig, origLength);
        e.addChar(FixTags.ORD_STATUS, r.rejectReason == RejectReason.UNKNOWN_ORDER ? '8' : statusChar(r));
        e.addLong(FixTags.ACCOUNT, s.account);
        e.addChar(FixTags.CXL_REJ_RESPONSE_TO, responseTo);
        e.addLong(FixTags.CXL_REJ_REASON, r.rejectReason == RejectReason.UNKNOWN_ORDER ? 1
            : r.rejectReason == RejectReason.DUPLICATE_CLIENT_ORDER_ID ? 6 : 99);
        fundsNeeded = r.fundsNeeded;
        fundsAvailable = r.balanceAvailable;
        e.addAscii(FixTags.TEXT, rejectText(r.rejectReason, symbols.symbolById(r.symbol), r.side));
        outbox.end(commandReadNanos, engineAppendNanos);
    }

    /**
     * The Text of a reject: the reason's name, and for INSUFFICIENT_FUNDS what the order needed and what the account
     * had, in the asset it holds ("INSUFFICIENT_FUNDS: needs 1000.05 USD, available 12.00 USD"), from the fields the
     * caller set from the result.
     */
    private CharSequence rejectText(final RejectReason reason, final GatewayConfig.Symbol symbol, final Side side) {
        if (reason != RejectReason.INSUFFICIENT_FUNDS || symbol == null || symbol.quote() == null || side == null) {
            return reason.name();
        }
        final AssetSpec asset = side == Side.BUY ? symbol.quote() : symbol.base();
        final StringBuilder t = text;
        t.setLength(0);
        t.append(reason.name()).append(": needs ");
        appendAmount(t, fundsNeeded, asset.decimals());
        t.append(' ').append(asset.code()).append(", available ");
        appendAmount(t, fundsAvailable, asset.decimals());
        return t.append(' ').append(asset.code());
    }

    /** amount / 10^decimals written out exactly, without a BigDecimal. */
    static void appendAmount(final StringBuilder to, final long amount, final int decimals) {
        long unit = 1;
        for (int i = 0; i < decimals; i++) {
            unit *= 10;
        }
        if (amount < 0) {
            to.append('-');
        }
        to.append(Math.abs(amount / unit));
        if (decimals > 0) {
            final long fraction = Math.abs(amount % unit);
            to.append('.');
            for (long digit = unit / 10; digit > 0; digit /= 10) {
                to.append((char) ('0' + fraction / digit % 10));
            }
        }
    }

    private void massCancelReport(final FixSession s, final Result r, final Command request) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.ORDER_MASS_CANCEL_REPORT, now, requestRoute);
        requestIds(s.account, request);
        e.addAscii(FixTags.CL_ORD_ID, clOrd, clOrdLength);
        e.addAscii(FixTags.ORDER_ID, execId, execId());
        final char type = request.symbol == Command.ALL_SYMBOLS ? '7' : '1';
        e.addChar(FixTags.MASS_CANCEL_REQUEST_TYPE, type);
        e.addChar(FixTags.MASS_CANCEL_RESPONSE, r.isRejected() ? '0' : type);
        if (r.isRejected()) {
            e.addLong(FixTags.MASS_CANCEL_REJECT_REASON, 99);
            e.addAscii(FixTags.TEXT, r.rejectReason.name());
        }
        e.addLong(FixTags.TOTAL_AFFECTED_ORDERS, r.affectedOrders);
        if (type == '1') {
            final GatewayConfig.Symbol symbol = symbols.symbolById(request.symbol);
            if (symbol != null) {
                e.addAscii(FixTags.SYMBOL, symbol.name());
            }
        }
        outbox.end(commandReadNanos, engineAppendNanos);
    }

    /**
     * The answer to one BALANCE of a CollateralInquiry: a CollateralReport, or a CollateralInquiryAck rejected when the
     * engine refused it (or, were the gateway's configuration older than the engine's, the asset is not known here).
     */
    private void balance(final FixSession s, final Result r) {
        final AssetSpec asset = symbols.assetById(r.symbol);
        if (r.isRejected() || asset == null) {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.COLLATERAL_INQUIRY_ACK, now, requestRoute);
            CollateralMessages.refusal(e, inquiryId, 0, requestText.newClientOrderIdLength, r.quantity, s.account,
                asset == null ? null : asset.code(),
                r.isRejected() ? r.rejectReason.name() : "asset " + r.symbol + " is not in this gateway's configuration");
        } else {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.COLLATERAL_REPORT, now, requestRoute);
            CollateralMessages.report(e, execId, execId(), requestText.newClientOrderId, requestText.newClientOrderIdLength, s.account,
                asset.code(), asset.decimals(), r.balanceAvailable, r.balanceHeld, r.clientOrderId, r.quantity);
        }
        outbox.end(commandReadNanos, engineAppendNanos);
    }

    /** The report's ClOrdID is the order's text from the table, its route the order's; no OrigClOrdID. */
    private void tableIds(final long account, final long clientOrderId) {
        clOrdLength = text(account, clientOrderId, clOrd);
        route = clOrdIds.foundRoute();
        origLength = 0;
    }

    /** The report answers a request: its own ClOrdID and its OrigClOrdID, as journalled with it, and its route. */
    private void requestIds(final long account, final Command request) {
        route = requestRoute;
        clOrdLength = copy(requestText.newClientOrderId, requestText.newClientOrderIdLength, clOrd);
        if (clOrdLength == 0) {
            clOrdLength = text(account, request.newClientOrderId, clOrd);
        }
        origLength = copy(requestText.clientOrderId, requestText.clientOrderIdLength, orig);
        if (origLength == 0 && request.clientOrderId != 0) {
            origLength = text(account, request.clientOrderId, orig);
        }
    }

    private static int copy(final byte[] from, final int length, final byte[] to) {
        System.arraycopy(from, 0, to, 0, length);
        return length;
    }

    /** The text of an id: from the table, or (an order that did not come through a gateway, a journal without texts) the id in decimal. */
    private int text(final long account, final long clientOrderId, final byte[] into) {
        final int length = clOrdIds.text(account, clientOrderId, into);
        return length != 0 ? length : ClientOrderIds.decimal(clientOrderId, into);
    }

    /** ExecID: the events index in hex, '-', and the message's number within the event; unique per gateway and stable across resends. */
    private int execId() {
        int n = 0;
        for (int shift = 60; shift >= 0; shift -= 4) {
            final int digit = (int) (eventsIndex >>> shift) & 0xF;
            if (n > 0 || digit != 0 || shift == 0) {
                execId[n++] = (byte) (digit < 10 ? '0' + digit : 'a' + digit - 10);
            }
        }
        execId[n++] = '-';
        final int seq = ++execSequence;
        int digits = 1;
        for (int v = seq; v >= 10; v /= 10) {
            digits++;
        }
        for (int i = digits - 1, v = seq; i >= 0; i--, v /= 10) {
            execId[n + i] = (byte) ('0' + v % 10);
        }
        return n + digits;
    }

    /** Adds a fill to an order's notional and returns its average price times 10^4 (in ticks). */
    private long addNotional(final long orderId, final long price, final long quantity, final long leaves) {
        final long total = notional.get(orderId) + price * quantity;
        final long cumulative = cumulativeAfter(orderId, quantity);
        if (leaves == 0) {
            notional.remove(orderId);
            filled.remove(orderId);
        } else {
            notional.put(orderId, total);
        }
        return scaledAverage(total, cumulative);
    }

    private long cumulativeAfter(final long orderId, final long quantity) {
        final long cumulative = filled.get(orderId) + quantity;
        filled.put(orderId, cumulative);
        return cumulative;
    }

    private long average(final long orderId, final long cum) {
        final long total = notional.get(orderId);
        final long known = filled.get(orderId);
        return known == 0 ? 0 : scaledAverage(total, known);
    }

    private long takeNotional(final long orderId, final long cum) {
        final long avg = average(orderId, cum);
        notional.remove(orderId);
        filled.remove(orderId);
        return avg;
    }

    private static long scaledAverage(final long total, final long quantity) {
        if (quantity <= 0) {
            return 0;
        }
        if (total > Long.MAX_VALUE / 10_000) {
            return total / quantity * 10_000;
        }
        return total * 10_000 / quantity;
    }

    private static char statusChar(final long cum, final long qty) {
        return cum == 0 ? '0' : cum >= qty ? '2' : '1';
    }

    private static char statusChar(final Result r) {
        final OrderStatus status = r.orderStatus;
        return switch (status) {
            case NEW -> '0';
            case PARTIALLY_FILLED -> '1';
            case FILLED -> '2';
            case CANCELLED -> '4';
            case EXPIRED -> 'C';
            default -> '8';
        };
    }

    private static char tifChar(final TimeInForce tif) {
        return switch (tif) {
            case DAY -> '0';
            case GTC -> '1';
            case IOC -> '3';
            default -> '4';
        };
    }

    private static int ordRejReason(final RejectReason reason) {
        return switch (reason) {
            case UNKNOWN_SYMBOL -> 1;
            case SYMBOL_HALTED, KILL_SWITCH_ACTIVE -> 2;
            // FIX has no "insufficient funds": an account's money is its credit limit, so 3 (Order exceeds limit), with the Text.
            case MAX_ORDER_QUANTITY_EXCEEDED, MAX_ORDER_NOTIONAL_EXCEEDED, MAX_OPEN_ORDERS_EXCEEDED, INSUFFICIENT_FUNDS -> 3;
            case UNKNOWN_ORDER -> 5;
            case DUPLICATE_CLIENT_ORDER_ID -> 6;
            case UNKNOWN_ACCOUNT -> 15;
            case INVALID_QUANTITY, QUANTITY_NOT_ON_LOT, QUANTITY_NOT_ABOVE_FILLED -> 13;
            default -> 99;
        };
    }
}
