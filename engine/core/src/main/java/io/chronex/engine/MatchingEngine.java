package io.chronex.engine;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.ConfigChange;
import io.chronex.api.EngineConfig;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.MoneyTotals;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;
import io.chronex.engine.risk.Ledger;
import io.chronex.engine.risk.Pair;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static io.chronex.api.Command.MAX_PRICE;
import static io.chronex.api.Command.MAX_QUANTITY;

/**
 * The exchange's state machine: applies one command at a time and describes everything it did in a
 * {@link Result}. Deterministic (no clock, no randomness, no hash-order iteration), single-threaded,
 * and allocation-free in steady state: orders and levels are pooled, results are reused.
 * The rules are in docs/engine.md; this file follows them top to bottom.
 */
public final class MatchingEngine implements MoneyTotals {
    /** Returned by bestBid/bestAsk when that side is empty. */
    public static final long NO_PRICE = 0;

    private final int riskChecks;
    private final PreTradeChecks checks;
    private final boolean createAccountsOnFirstUse;
    private final AccountSpec defaultAccount;

    /** Sorted by symbol id: END_OF_DAY for all symbols walks them in this order. */
    private final OrderBook[] books;
    private final Int2ObjectHashMap<OrderBook> bookBySymbol = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<Account> accounts = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<Order> ordersById;
    /** Live orders by (account, client order id): one lookup, without first finding the account. */
    private final ClientOrderIndex ordersByClientId;
    /** Accounts' money (FUNDS): see the risk package. */
    private final Funds funds;

    private long commandCount;
    private long lastOrderId;
    private long lastTradeId;

    private Order freeOrders;
    private PriceLevel freeLevels;

    /** The result being filled by the command in hand. */
    private Result result = new Result();

    /** An engine sized for about a thousand resting orders; it grows (allocating) past that. */
    public MatchingEngine(final EngineConfig config) {
        this(config, 1024);
    }

    /**
     * An engine that allocates up front what {@code expectedOrders} resting orders need (orders,
     * price levels, index capacity, a few ladder pages per book side), so that trading up to that
     * size, with configured accounts, allocates nothing at all.
     */
    public MatchingEngine(final EngineConfig config, final int expectedOrders) {
        if (expectedOrders < 0) {
            throw new IllegalArgumentException("expectedOrders cannot be negative");
        }
        final int indexCapacity = Math.max(16, Integer.highestOneBit(Math.max(1, expectedOrders)) << 2);
        this.ordersById = new Long2ObjectHashMap<>(indexCapacity, 0.5f);
        this.ordersByClientId = new ClientOrderIndex(expectedOrders);
        final Ledger ledger = new Ledger(config.assets());
        this.funds = new Funds(ledger);
        for (int i = 0; i < expectedOrders; i++) {
            releaseOrder(new Order());
            releaseLevel(new PriceLevel());
        }
        this.riskChecks = config.riskChecks();
        this.checks = new PreTradeChecks(riskChecks);
        final boolean checkFunds = config.isOn(RiskCheck.FUNDS);
        this.createAccountsOnFirstUse = config.createAccountsOnFirstUse();
        this.defaultAccount = config.defaultAccount();
        this.books = new OrderBook[config.symbols().size()];
        for (int i = 0; i < books.length; i++) {
            final SymbolSpec spec = config.symbols().get(i);
            final Pair terms = ledger.pair(spec);
            final OrderBook book = new OrderBook(spec, checks.tickAndLot, checkFunds ? terms : null);
            if (bookBySymbol.put(spec.id(), book) != null) {
                throw new IllegalArgumentException("symbol " + spec.id() + " configured twice");
            }
            books[i] = book;
            // A few pages of 1024 prices per side cover a book that wanders several thousand ticks;
            // fewer for a small engine, so many thin symbols stay cheap (a page is ~4 KiB).
            final int pages = Math.min(4, 1 + expectedOrders / 1024);
            book.bids.preallocatePages(pages);
            book.asks.preallocatePages(pages);
        }
        Arrays.sort(books, Comparator.comparingInt(book -> book.symbol));
        for (final AccountSpec spec : config.accounts()) {
            if (accounts.put(spec.id(), new Account(spec.id(), spec, funds.ledger.newWallet())) != null) {
                throw new IllegalArgumentException("account " + spec.id() + " configured twice");
            }
        }
    }

    /** Applies one command; resets result and fills it with everything the command did. */
    public void apply(final Command command, final Result result) {
        commandCount++;
        if (this.result != result) {
            // Only on a change: a reference store costs a GC write barrier on every command.
            this.result = result;
        }
        result.begin(command.type);
        if (command.type == null) {
            reject(command, RejectReason.UNKNOWN_COMMAND);
            return;
        }
        switch (command.type) {
            case NEW_ORDER -> newOrder(command);
            case CANCEL -> cancel(command);
            case REPLACE -> replace(command);
            case REDUCE -> reduce(command);
            case MOVE -> move(command);
            case MASS_CANCEL -> massCancel(command);
            case HALT, RESUME -> haltOrResume(command);
            case KILL_SWITCH_ON, KILL_SWITCH_OFF -> killSwitch(command);
            case END_OF_DAY -> endOfDay(command);
            case SET_REFERENCE_PRICE -> setReferencePrice(command);
            case SET_ACCOUNT_LIMITS -> setAccountLimits(command);
            case SNAPSHOT -> describeCommand(command);
            case DEPOSIT, WITHDRAW, ADJUST, BALANCE -> money(command);
            default -> reject(command, RejectReason.UNKNOWN_COMMAND);
        }
    }

    // ---------------------------------------------------------------- new orders

    private void newOrder(final Command c) {
        final OrderBook book = bookBySymbol.get(c.symbol);
        if (book == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        final Account account = accountOf(c);
        if (account == null) {
            reject(c, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        final RejectReason reason = checks.newOrder(c, book, account, findLive(c.account, c.clientOrderId) != null);
        if (reason != RejectReason.NONE) {
            reject(c, reason);
            return;
        }
        final Pair pair = book.funded;
        final RejectReason unpaid = pair == null ? RejectReason.NONE : funds.check(c, book, pair, account, checks.selfTradeMode(account));
        if (unpaid != RejectReason.NONE) {
            rejectForFunds(c, unpaid);
            return;
        }
        final Order order = orderFrom(c, book, account);
        if (pair != null) {
            funds.holdNew(order, c, pair);
        }
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = order.timeInForce == TimeInForce.FOK_BUDGET;
        result.orderType = c.orderType;
        final SelfTradePrevention stp = checks.selfTradeMode(account);
        // A market ask paid for in assets stops where its proceeds would no longer pay its fee.
        final boolean floored = market && pair != null && c.side == Side.SELL;
        final long limit = floored ? pair.lowestAskPrice() : order.price;
        if ((order.timeInForce == TimeInForce.FOK && !BookWalks.canFillCompletely(book, order, !market || floored, limit, stp))
            || (budget && !BookWalks.fitsBudget(book, order, order.price, stp))) {
            cancelRemainder(order, CancelReason.UNFILLED_REMAINDER);
            describeOrder(order, OrderStatus.CANCELLED);
            releaseOrder(order);
            return;
        }
        matchAndRest(book, order, market, (!market && !budget) || floored, limit);
    }

    /** The account of a new order, created with the default limits on first use where allowed; null when unknown. */
    private Account accountOf(final Command c) {
        final Account account = accounts.get(c.account);
        if (account != null || !createAccountsOnFirstUse) {
            return account;
        }
        final Account created = new Account(c.account, defaultAccount, funds.ledger.newWallet());
        accounts.put(c.account, created);
        return created;
    }

    /** A pooled order filled in from an accepted new-order command, with the next order id. */
    private Order orderFrom(final Command c, final OrderBook book, final Account account) {
        final Order order = allocateOrder();
        order.orderId = ++lastOrderId;
        order.clientOrderId = c.clientOrderId;
        order.price = c.price;
        order.quantity = c.quantity;
        order.leaves = c.quantity;
        order.cumulative = 0;
        order.side = c.side;
        order.timeInForce = c.timeInForce;
        order.postOnly = c.postOnly;
        order.account = account;
        order.accountId = account.id;
        order.book = book;
        return order;
    }

    /**
     * Matches a new order, then rests what is left of a GTC or DAY limit order and cancels what is
     * left of anything else (or of an order self-trade prevention stopped).
     */
    private void matchAndRest(final OrderBook book, final Order order, final boolean market, final boolean limited, final long limit) {
        final TimeInForce tif = order.timeInForce;
        final boolean stoppedBySelfTrade = match(book, order, limited, limit);
        final OrderStatus status;
        boolean rests = false;
        if (order.leaves == 0) {
            status = OrderStatus.FILLED;
        } else if (stoppedBySelfTrade) {
            cancelRemainder(order, CancelReason.SELF_TRADE_PREVENTION);
            status = OrderStatus.CANCELLED;
        } else if (!market && (tif == TimeInForce.GTC || tif == TimeInForce.DAY)) {
            rests = true;
            status = order.cumulative == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
        } else {
            cancelRemainder(order, CancelReason.UNFILLED_REMAINDER);
            status = OrderStatus.CANCELLED;
        }
        if (rests) {
            funds.releaseExcess(order);
            rest(book, order);
            order.account.add(order);
            ordersById.put(order.orderId, order);
            indexClientOrderId(order);
        }
        describeOrder(order, status);
        if (!rests) {
            releaseOrder(order);
        }
    }

    /**
     * Trades the taker against the opposite side, best level first, oldest order first, at each
     * maker's price, until the taker is done, the book runs out or passes the limit, or self-trade
     * prevention stops it. Returns true when self-trade prevention stopped it.
     */
    private boolean match(final OrderBook book, final Order taker, final boolean limited, final long limit) {
        final BookSide opposite = book.side(taker.side.opposite());
        final boolean buy = taker.side == Side.BUY;
        final SelfTradePrevention stp = checks.selfTradeMode(taker.account);
        final Result r = result;
        final Pair pair = book.funded;
        while (taker.leaves > 0) {
            final PriceLevel level = opposite.best();
            if (level == null || (limited && (buy ? level.price > limit : level.price < limit))) {
                break;
            }
            final Order maker = level.head;
            if (stp != SelfTradePrevention.OFF && maker.account == taker.account) {
                if (stp == SelfTradePrevention.CANCEL_INCOMING) {
                    return true;
                }
                cancelResting(maker, CancelReason.SELF_TRADE_PREVENTION);
                if (stp == SelfTradePrevention.CANCEL_BOTH) {
                    return true;
                }
                continue;
            }
            final long quantity = Math.min(taker.leaves, maker.leaves);
            final long price = level.price;
            taker.leaves -= quantity;
            taker.cumulative += quantity;
            maker.leaves -= quantity;
            maker.cumulative += quantity;
            level.quantity -= quantity;
            book.referencePrice = price;
            if (pair != null) {
                funds.settle(pair, taker, maker, quantity, price);
            }

            final Fill fill = r.addFill();
            fill.tradeId = ++lastTradeId;
            fill.price = price;
            fill.quantity = quantity;
            fill.takerOrderId = taker.orderId;
            fill.takerAccount = taker.account.id;
            fill.takerClientOrderId = taker.clientOrderId;
            fill.takerSide = taker.side;
            fill.takerLeavesQuantity = taker.leaves;
            fill.takerCumulativeQuantity = taker.cumulative;
            fill.makerOrderId = maker.orderId;
            fill.makerAccount = maker.account.id;
            fill.makerClientOrderId = maker.clientOrderId;
            fill.makerLeavesQuantity = maker.leaves;
            fill.makerCumulativeQuantity = maker.cumulative;

            if (maker.leaves == 0) {
                unlinkFromLevel(maker);
                retire(maker);
                releaseOrder(maker);
            } else {
                recordLevel(book, level);
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- commands on live orders

    private void cancel(final Command c) {
        final Order order = findOrder(c);
        if (order == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        result.orderType = OrderType.LIMIT;
        cancelResting(order, CancelReason.CLIENT_CANCEL, OrderStatus.CANCELLED);
    }

    private void reduce(final Command c) {
        final Order order = findOrder(c);
        if (order == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        if (c.quantity < 1 || c.quantity > MAX_QUANTITY) {
            reject(c, RejectReason.INVALID_QUANTITY);
            return;
        }
        result.orderType = OrderType.LIMIT;
        final long by = Math.min(c.quantity, order.leaves);
        if (by == order.leaves) {
            order.quantity -= by;
            cancelResting(order, CancelReason.REDUCE, OrderStatus.CANCELLED);
            return;
        }
        final PriceLevel level = order.level;
        order.leaves -= by;
        order.quantity -= by;
        level.quantity -= by;
        funds.releaseExcess(order);
        recordLevel(order.book, level);
        addCancel(order, by, CancelReason.REDUCE);
        describeOrder(order, restingStatus(order));
    }

    private void move(final Command c) {
        final Order order = findOrder(c);
        if (order == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        final long price = c.price;
        final RejectReason reason = price < 1 || price > MAX_PRICE
            ? RejectReason.INVALID_PRICE : checks.amendment(order, price, order.quantity, false);
        if (reason != RejectReason.NONE) {
            reject(c, reason);
            return;
        }
        final RejectReason unpaid = funds.rehold(order, price, order.leaves);
        if (unpaid != RejectReason.NONE) {
            rejectForFunds(c, unpaid);
            return;
        }
        result.orderType = OrderType.LIMIT;
        unlinkFromLevel(order);
        order.price = price;
        rematch(order.book, order);
    }

    private void replace(final Command c) {
        final Order order = findOrder(c);
        if (order == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        final OrderBook book = order.book;
        final long price = c.price;
        final long quantity = c.quantity;
        final long newClientOrderId = c.newClientOrderId;
        final boolean renamed = newClientOrderId != 0 && newClientOrderId != order.clientOrderId;
        final RejectReason reason;
        if (quantity < 1 || quantity > MAX_QUANTITY) {
            reason = RejectReason.INVALID_QUANTITY;
        } else if (price < 1 || price > MAX_PRICE) {
            reason = RejectReason.INVALID_PRICE;
        } else if (renamed && findLive(order.accountId, newClientOrderId) != null) {
            reason = RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        } else {
            reason = checks.amendment(order, price, quantity, true);
        }
        if (reason != RejectReason.NONE) {
            reject(c, reason);
            return;
        }
        final boolean keepsPriority = price == order.price && quantity <= order.quantity;
        final RejectReason unpaid = keepsPriority ? RejectReason.NONE : funds.rehold(order, price, quantity - order.cumulative);
        if (unpaid != RejectReason.NONE) {
            rejectForFunds(c, unpaid);
            return;
        }
        result.orderType = OrderType.LIMIT;
        if (renamed) {
            unindexClientOrderId(order);
            order.clientOrderId = newClientOrderId;
            indexClientOrderId(order);
        }
        if (keepsPriority) {
            // A smaller order at the same price keeps its place in the queue.
            final long by = order.quantity - quantity;
            order.quantity = quantity;
            order.leaves -= by;
            order.level.quantity -= by;
            funds.releaseExcess(order);
            recordLevel(book, order.level);
            describeOrder(order, restingStatus(order));
            return;
        }
        unlinkFromLevel(order);
        order.price = price;
        order.quantity = quantity;
        order.leaves = quantity - order.cumulative;
        rematch(book, order);
    }

    /** MOVE and priority-losing REPLACE: the order, already off its level, trades what crosses and rests at the back. */
    private void rematch(final OrderBook book, final Order order) {
        final boolean stoppedBySelfTrade = match(book, order, true, order.price);
        if (order.leaves == 0) {
            retire(order);
            describeOrder(order, OrderStatus.FILLED);
            releaseOrder(order);
        } else if (stoppedBySelfTrade) {
            cancelRemainder(order, CancelReason.SELF_TRADE_PREVENTION);
            retire(order);
            describeOrder(order, OrderStatus.CANCELLED);
            releaseOrder(order);
        } else {
            funds.releaseExcess(order);
            rest(book, order);
            describeOrder(order, restingStatus(order));
        }
    }

    private Order findOrder(final Command c) {
        if (c.orderId != 0) {
            final Order order = ordersById.get(c.orderId);
            return order != null && order.accountId == c.account ? order : null;
        }
        return findLive(c.account, c.clientOrderId);
    }

    private Order findLive(final long account, final long clientOrderId) {
        return ordersByClientId.get(account, clientOrderId);
    }

    private void indexClientOrderId(final Order order) {
        ordersByClientId.add(order);
    }

    private void unindexClientOrderId(final Order order) {
        ordersByClientId.remove(order);
    }

    // ---------------------------------------------------------------- commands on many orders

    private void massCancel(final Command c) {
        final Account account = accounts.get(c.account);
        if (account == null) {
            reject(c, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        if (c.symbol != Command.ALL_SYMBOLS && bookBySymbol.get(c.symbol) == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        result.affectedOrders = cancelAccountOrders(account, c.symbol, CancelReason.MASS_CANCEL);
        describeCommand(c);
    }

    private void killSwitch(final Command c) {
        final Account account = accounts.get(c.account);
        if (account == null) {
            reject(c, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        if (c.type == CommandType.KILL_SWITCH_ON) {
            account.killSwitch = true;
            result.affectedOrders = cancelAccountOrders(account, Command.ALL_SYMBOLS, CancelReason.KILL_SWITCH);
        } else {
            account.killSwitch = false;
        }
        describeCommand(c);
    }

    private int cancelAccountOrders(final Account account, final int symbol, final CancelReason reason) {
        int cancelled = 0;
        Order order = account.head;
        while (order != null) {
            final Order next = order.accountNext;
            if (symbol == Command.ALL_SYMBOLS || order.book.symbol == symbol) {
                cancelResting(order, reason);
                cancelled++;
            }
            order = next;
        }
        return cancelled;
    }

    private void endOfDay(final Command c) {
        if (c.symbol != Command.ALL_SYMBOLS && bookBySymbol.get(c.symbol) == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        int expired = 0;
        for (final OrderBook book : books) {
            if (c.symbol == Command.ALL_SYMBOLS || book.symbol == c.symbol) {
                expired += expireDayOrders(book.bids);
                expired += expireDayOrders(book.asks);
            }
        }
        result.affectedOrders = expired;
        describeCommand(c);
    }

    private int expireDayOrders(final BookSide side) {
        int expired = 0;
        PriceLevel level = side.best();
        while (level != null) {
            // Step on before this level can empty and go back to the pool.
            final PriceLevel worse = side.worseThan(level);
            Order order = level.head;
            while (order != null) {
                final Order next = order.next;
                if (order.timeInForce == TimeInForce.DAY) {
                    cancelResting(order, CancelReason.END_OF_DAY);
                    expired++;
                }
                order = next;
            }
            level = worse;
        }
        return expired;
    }

    // ---------------------------------------------------------------- admin commands

    private void haltOrResume(final Command c) {
        final OrderBook book = bookBySymbol.get(c.symbol);
        if (book == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        book.halted = c.type == CommandType.HALT;
        describeCommand(c);
    }

    private void setReferencePrice(final Command c) {
        final OrderBook book = bookBySymbol.get(c.symbol);
        if (book == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        if (c.price < 1 || c.price > MAX_PRICE) {
            reject(c, RejectReason.INVALID_PRICE);
            return;
        }
        book.referencePrice = c.price;
        describeCommand(c);
    }

    private void setAccountLimits(final Command c) {
        if (c.maxOrderQuantity < 0 || c.maxOrderNotional < 0 || c.maxOpenOrders < 0) {
            reject(c, RejectReason.INVALID_QUANTITY);
            return;
        }
        if (c.selfTradePrevention == null) {
            reject(c, RejectReason.INVALID_ORDER);
            return;
        }
        final Account account = accounts.get(c.account);
        if (account == null) {
            accounts.put(c.account, new Account(c.account, new AccountSpec(c.account, c.maxOrderQuantity,
                c.maxOrderNotional, c.maxOpenOrders, c.selfTradePrevention), funds.ledger.newWallet()));
        } else {
            account.setLimits(c.maxOrderQuantity, c.maxOrderNotional, c.maxOpenOrders, c.selfTradePrevention);
        }
        describeCommand(c);
    }

    /** DEPOSIT, WITHDRAW, ADJUST, BALANCE: answered with the account's balance of the asset (BALANCE creates no account). */
    private void money(final Command c) {
        final Account account = c.type == CommandType.BALANCE ? accounts.get(c.account) : accountOf(c);
        if (account == null) {
            reject(c, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        final RejectReason reason = funds.apply(c, account.wallet);
        if (reason != RejectReason.NONE) {
            reject(c, reason);
        } else {
            describeCommand(c);
            result.clientOrderId = c.clientOrderId;
            result.quantity = c.quantity;
        }
        result.fundsNeeded = funds.needed;
        result.balanceAvailable = funds.available;
        result.balanceHeld = funds.held;
    }

    // ---------------------------------------------------------------- book keeping

    private void rest(final OrderBook book, final Order order) {
        recordLevel(book, appendToLevel(book, order));
    }

    private PriceLevel appendToLevel(final OrderBook book, final Order order) {
        final BookSide side = book.side(order.side);
        PriceLevel level = side.find(order.price);
        if (level == null) {
            level = allocateLevel(order.price, order.side);
            side.insert(level);
        }
        level.append(order);
        return level;
    }

    /** Takes a resting order off its level, dropping the level when it empties. */
    private void unlinkFromLevel(final Order order) {
        final PriceLevel level = order.level;
        level.unlink(order);
        recordLevel(order.book, level);
        if (level.orderCount == 0) {
            order.book.side(level.side).remove(level);
            releaseLevel(level);
        }
    }

    /** The order is no longer live: forget it in its account and the id index. */
    private void retire(final Order order) {
        order.account.remove(order);
        ordersById.remove(order.orderId);
        unindexClientOrderId(order);
    }

    /** Removes a resting order without trading, recording why. */
    private void cancelResting(final Order order, final CancelReason reason) {
        final long leaves = order.leaves;
        unlinkFromLevel(order);
        order.leaves = 0;
        addCancel(order, leaves, reason);
        retire(order);
        releaseOrder(order);
    }

    /** As above, for the order a command is about: describes it before it goes back to the pool. */
    private void cancelResting(final Order order, final CancelReason reason, final OrderStatus status) {
        final long leaves = order.leaves;
        unlinkFromLevel(order);
        order.leaves = 0;
        addCancel(order, leaves, reason);
        retire(order);
        describeOrder(order, status);
        releaseOrder(order);
    }

    private void recordLevel(final OrderBook book, final PriceLevel level) {
        final LevelChange change = result.levelChange(book.symbol, level.side, level.price);
        change.quantity = level.quantity;
        change.orderCount = level.orderCount;
    }

    /** The order's leaves go to zero without trading. */
    private void cancelRemainder(final Order order, final CancelReason reason) {
        final long leaves = order.leaves;
        order.leaves = 0;
        addCancel(order, leaves, reason);
    }

    /** Records quantity taken off an order; its leaves must already be what is left. */
    private void addCancel(final Order order, final long quantity, final CancelReason reason) {
        final Cancel cancel = result.addCancel();
        cancel.orderId = order.orderId;
        cancel.account = order.account.id;
        cancel.clientOrderId = order.clientOrderId;
        cancel.symbol = order.book.symbol;
        cancel.side = order.side;
        cancel.price = order.price;
        cancel.quantity = quantity;
        cancel.leavesQuantity = order.leaves;
        cancel.cumulativeQuantity = order.cumulative;
        cancel.reason = reason;
    }

    private static OrderStatus restingStatus(final Order order) {
        return order.cumulative == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
    }

    private void describeOrder(final Order order, final OrderStatus status) {
        final Result r = result;
        r.orderId = order.orderId;
        r.account = order.account.id;
        r.clientOrderId = order.clientOrderId;
        r.symbol = order.book.symbol;
        r.side = order.side;
        r.timeInForce = order.timeInForce;
        r.price = order.price;
        r.leavesQuantity = order.leaves;
        r.cumulativeQuantity = order.cumulative;
        r.quantity = order.quantity;
        r.orderStatus = status;
    }

    private void describeCommand(final Command c) {
        final Result r = result;
        r.orderId = 0;
        r.clientOrderId = 0;
        r.side = null;
        r.orderType = null;
        r.timeInForce = null;
        r.quantity = 0;
        r.leavesQuantity = 0;
        r.cumulativeQuantity = 0;
        r.account = c.account;
        r.symbol = c.symbol;
        r.price = c.type == CommandType.SET_REFERENCE_PRICE ? c.price : 0;
        r.orderStatus = OrderStatus.NONE;
    }

    /** A refusal by {@link Funds}; INSUFFICIENT_FUNDS says what was needed and what the account had. */
    private void rejectForFunds(final Command c, final RejectReason reason) {
        reject(c, reason);
        if (reason == RejectReason.INSUFFICIENT_FUNDS) {
            result.fundsNeeded = funds.needed;
            result.balanceAvailable = funds.available;
        }
    }

    private void reject(final Command c, final RejectReason reason) {
        final Result r = result;
        r.rejectReason = reason;
        r.orderId = c.orderId;
        r.account = c.account;
        r.clientOrderId = c.clientOrderId;
        r.symbol = c.symbol;
        r.side = c.side;
        r.orderType = c.orderType;
        r.timeInForce = c.timeInForce;
        r.price = c.price;
        r.quantity = c.quantity;
        r.leavesQuantity = 0;
        r.cumulativeQuantity = 0;
        r.orderStatus = OrderStatus.REJECTED;
    }

    // ---------------------------------------------------------------- pools

    private Order allocateOrder() {
        final Order order = freeOrders;
        if (order == null) {
            return new Order();
        }
        freeOrders = order.next;
        order.next = null;
        return order;
    }

    /** An order going back to the pool is done: it gives back whatever it still holds first. */
    private void releaseOrder(final Order order) {
        funds.releaseAll(order);
        order.clear();
        order.next = freeOrders;
        freeOrders = order;
    }

    private PriceLevel allocateLevel(final long price, final Side side) {
        PriceLevel level = freeLevels;
        if (level == null) {
            level = new PriceLevel();
        } else {
            freeLevels = level.nextFree;
            level.nextFree = null;
        }
        level.price = price;
        level.side = side;
        level.quantity = 0;
        level.orderCount = 0;
        level.head = null;
        level.tail = null;
        return level;
    }

    private void releaseLevel(final PriceLevel level) {
        level.head = null;
        level.tail = null;
        level.nextFree = freeLevels;
        freeLevels = level;
    }

    // ---------------------------------------------------------------- queries, snapshots

    private OrderBook book(final int symbol) {
        final OrderBook book = bookBySymbol.get(symbol);
        if (book == null) {
            throw new IllegalArgumentException("unknown symbol " + symbol);
        }
        return book;
    }

    public long bestBid(final int symbol) {
        final PriceLevel best = book(symbol).bids.best();
        return best == null ? NO_PRICE : best.price;
    }

    public long bestAsk(final int symbol) {
        final PriceLevel best = book(symbol).asks.best();
        return best == null ? NO_PRICE : best.price;
    }

    /** The ids of the symbols this engine has a book for, in ascending order (for readers and tools; allocates). */
    public int[] symbolIds() {
        final int[] ids = new int[bookBySymbol.size()];
        int i = 0;
        for (final Int2ObjectHashMap<OrderBook>.KeyIterator it = bookBySymbol.keySet().iterator(); it.hasNext(); ) {
            ids[i++] = it.nextInt();
        }
        java.util.Arrays.sort(ids);
        return ids;
    }

    /** Number of price levels on one side of a symbol's book. */
    public int levelCount(final int symbol, final Side side) {
        return book(symbol).side(side).count();
    }

    /** Price of the level at depth (0 = best). */
    public long levelPrice(final int symbol, final Side side, final int depth) {
        return book(symbol).side(side).atDepth(depth).price;
    }

    public long levelQuantity(final int symbol, final Side side, final int depth) {
        return book(symbol).side(side).atDepth(depth).quantity;
    }

    public int levelOrderCount(final int symbol, final Side side, final int depth) {
        return book(symbol).side(side).atDepth(depth).orderCount;
    }

    /** Told about each resting order of a price level, in queue order (the next to trade first); for audit tools, not the hot path. */
    @FunctionalInterface
    public interface RestingOrderVisitor {
        /**
         * @param queuePosition 1 for the order at the front of the level's queue
         */
        void order(int queuePosition, long orderId, long account, long clientOrderId, long leaves, long cumulative,
                   TimeInForce timeInForce);
    }

    /** Visits the orders of the level at depth (0 = best) of one side of a symbol's book, front of the queue first. */
    public void forEachOrderAt(final int symbol, final Side side, final int depth, final RestingOrderVisitor visitor) {
        int position = 0;
        for (Order o = book(symbol).side(side).atDepth(depth).head; o != null; o = o.next) {
            visitor.order(++position, o.orderId, o.accountId, o.clientOrderId, o.leaves, o.cumulative, o.timeInForce);
        }
    }

    /** The ids of every account the engine knows, ascending (for readers and tools; allocates). */
    public long[] accountIds() {
        final long[] ids = new long[accounts.size()];
        int i = 0;
        for (final Long2ObjectHashMap<Account>.KeyIterator it = accounts.keySet().iterator(); it.hasNext(); ) {
            ids[i++] = it.nextLong();
        }
        Arrays.sort(ids);
        return ids;
    }

    /** What an account can spend of an asset (0 for an unknown account; an unknown asset is an exception). */
    public long available(final long account, final int assetId) {
        final Account a = accounts.get(account);
        return a == null ? 0 : a.wallet.available(assetIndex(assetId));
    }

    /** What an account's open orders hold of an asset (0 for an unknown account). */
    public long held(final long account, final int assetId) {
        final Account a = accounts.get(account);
        return a == null ? 0 : a.wallet.held(assetIndex(assetId));
    }

    /** The configured assets, in id order. */
    public List<AssetSpec> assets() {
        final List<AssetSpec> assets = new ArrayList<>(funds.ledger.assetCount());
        for (int i = 0; i < funds.ledger.assetCount(); i++) {
            assets.add(funds.ledger.asset(i));
        }
        return assets;
    }

    /** What every account's open orders hold of an asset. */
    @Override
    public long heldTotal(final int assetId) {
        return funds.ledger.held(assetIndex(assetId));
    }

    /** The sum of ADJUST amounts of an asset (signed). */
    @Override
    public long adjusted(final int assetId) {
        return funds.ledger.adjusted(assetIndex(assetId));
    }

    /** Fees collected in an asset. */
    @Override
    public long feesCollected(final int assetId) {
        return funds.ledger.fees(assetIndex(assetId));
    }

    /** Deposited minus withdrawn plus adjusted: what every account's available and held plus the fees of the asset add up to. */
    public long netDeposits(final int assetId) {
        return funds.ledger.conserved(assetIndex(assetId));
    }

    @Override
    public long deposited(final int assetId) {
        return funds.ledger.deposited(assetIndex(assetId));
    }

    @Override
    public long withdrawn(final int assetId) {
        return funds.ledger.withdrawn(assetIndex(assetId));
    }

    private int assetIndex(final int assetId) {
        final int index = funds.ledger.indexOf(assetId);
        if (index < 0) {
            throw new IllegalArgumentException("unknown asset " + assetId);
        }
        return index;
    }

    /** Commands applied since the engine was created (carried by snapshots). */
    public long commandCount() {
        return commandCount;
    }

    /** The whole state as bytes: {@code restore(snapshot())} behaves exactly like this engine. */
    public byte[] snapshot() {
        return EngineSnapshot.write(this);
    }

    /**
     * {@link #snapshot()} without its trailing checksum filled in: the part that has to run where
     * the engine runs. {@link #sealSnapshot} finishes it, on any thread.
     */
    public byte[] snapshotUnsealed() {
        return EngineSnapshot.writeUnsealed(this);
    }

    /** Fills in the checksum of a {@link #snapshotUnsealed()} array, making it a snapshot; returns the same array. */
    public static byte[] sealSnapshot(final byte[] unsealed) {
        return EngineSnapshot.seal(unsealed);
    }

    public static MatchingEngine restore(final byte[] snapshot) {
        return EngineSnapshot.read(snapshot);
    }

    /**
     * This engine's whole state under a configuration change recorded in the journal (new symbols and accounts, bands,
     * reference prices, limits, risk checks): a new engine, built through a snapshot of this one, so that nothing a change
     * touches can be missed. Rare (an operator's restart), so its cost, a snapshot's, does not matter.
     */
    public MatchingEngine reconfigured(final ConfigChange change) {
        return EngineSnapshot.read(EngineSnapshot.write(this), change::applyTo);
    }

    /** The state hash of the engine a snapshot holds (what {@link #stateHash()} gave when it was taken), its bytes checked. */
    public static long stateHashOf(final byte[] snapshot) {
        return EngineSnapshot.checkedStateHash(snapshot);
    }

    /** The state hash a sealed snapshot ends with, read, not checked: for the one just sealed. */
    public static long sealedStateHash(final byte[] snapshot) {
        return EngineSnapshot.stateHash(snapshot);
    }

    /**
     * The hash a data directory is pinned to (snapshots/config.hash): the state hash of a new engine
     * with this configuration, so two configurations that build the same engine pin alike.
     */
    public static long configHash(final EngineConfig config) {
        return new MatchingEngine(config, 0).stateHash();
    }

    /** A 64-bit hash of the whole state: equal engines have equal hashes. */
    public long stateHash() {
        return EngineSnapshot.stateHash(snapshot());
    }

    // Package-private access for EngineSnapshot, which lives beside the engine to keep this file about matching.

    int riskChecks() {
        return riskChecks;
    }

    boolean createAccountsOnFirstUse() {
        return createAccountsOnFirstUse;
    }

    AccountSpec defaultAccount() {
        return defaultAccount;
    }

    OrderBook[] books() {
        return books;
    }

    Long2ObjectHashMap<Account> accounts() {
        return accounts;
    }

    long lastOrderId() {
        return lastOrderId;
    }

    Ledger ledger() {
        return funds.ledger;
    }

    long lastTradeId() {
        return lastTradeId;
    }

    void restoreCounters(final long commandCount, final long lastOrderId, final long lastTradeId) {
        this.commandCount = commandCount;
        this.lastOrderId = lastOrderId;
        this.lastTradeId = lastTradeId;
    }

    /** Puts a restored order back: at the back of its level, which reproduces FIFO order when called in queue order. */
    void restoreResting(final Order order) {
        appendToLevel(order.book, order);
        ordersById.put(order.orderId, order);
        indexClientOrderId(order);
    }

    OrderBook bookOf(final int symbol) {
        return bookBySymbol.get(symbol);
    }

    Order newOrderForRestore() {
        return allocateOrder();
    }
}
