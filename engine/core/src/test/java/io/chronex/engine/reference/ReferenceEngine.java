package io.chronex.engine.reference;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * A deliberately simple model of docs/engine.md for differential testing: every order of the
 * exchange in one list, the best order found by scanning and sorting, BigInteger for every
 * product. Slow and obviously correct; shares no data structure with the real engine.
 */
public final class ReferenceEngine {
    /** A live order. */
    public static final class Order {
        long orderId;
        long account;
        long clientOrderId;
        int symbol;
        Side side;
        TimeInForce tif;
        boolean postOnly;
        long price;
        long quantity;
        long leaves;
        long cumulative;
        /** Time priority: set whenever the order (re)joins the back of a level. */
        long arrival;
        /** FUNDS: what the order holds of its account's quote (bid) or base (ask) asset. */
        long hold;
        /** FUNDS, bids: the price the hold is worked out at; a reserve price stays until a move goes above it. */
        long holdPrice;
        boolean reserved;

        public long account() {
            return account;
        }

        public long clientOrderId() {
            return clientOrderId;
        }

        public long orderId() {
            return orderId;
        }

        public int symbol() {
            return symbol;
        }

        public long leaves() {
            return leaves;
        }

        public long cumulative() {
            return cumulative;
        }

        public long price() {
            return price;
        }

        public Side side() {
            return side;
        }
    }

    private static final class Book {
        final SymbolSpec spec;
        long referencePrice;
        boolean halted;

        Book(final SymbolSpec spec) {
            this.spec = spec;
            this.referencePrice = spec.referencePrice();
        }
    }

    private static final class Account {
        long maxOrderQuantity;
        long maxOrderNotional;
        int maxOpenOrders;
        SelfTradePrevention stp;
        boolean killSwitch;
        /** Per asset, in the configuration's order of assets. */
        final long[] available;
        final long[] held;

        Account(final AccountSpec spec, final int assets) {
            maxOrderQuantity = spec.maxOrderQuantity();
            maxOrderNotional = spec.maxOrderNotional();
            maxOpenOrders = spec.maxOpenOrders();
            stp = spec.selfTradePrevention();
            available = new long[assets];
            held = new long[assets];
        }
    }

    private record LevelKey(int symbol, Side side, long price) {
    }

    private final EngineConfig config;
    private final TreeMap<Integer, Book> books = new TreeMap<>();
    private final TreeMap<Long, Account> accounts = new TreeMap<>();
    /** Every resting order, in no particular order. */
    private final List<Order> live = new ArrayList<>();
    private long lastOrderId;
    private long lastTradeId;
    private long arrivals;

    private final List<AssetSpec> assets;
    private final long[] fees;
    private final long[] deposited;
    private final long[] withdrawn;
    private final long[] adjusted;
    private final Set<Long> appliedReferences = new HashSet<>();

    private Result r;
    private final LinkedHashSet<LevelKey> touched = new LinkedHashSet<>();

    public ReferenceEngine(final EngineConfig config) {
        this.config = config;
        this.assets = config.assets();
        this.fees = new long[assets.size()];
        this.deposited = new long[assets.size()];
        this.withdrawn = new long[assets.size()];
        this.adjusted = new long[assets.size()];
        for (final SymbolSpec spec : config.symbols()) {
            books.put(spec.id(), new Book(spec));
        }
        for (final AccountSpec spec : config.accounts()) {
            accounts.put(spec.id(), newAccount(spec));
        }
    }

    public List<Order> liveOrders() {
        return live;
    }

    private boolean on(final RiskCheck check) {
        return config.isOn(check);
    }

    public void apply(final Command c, final Result result) {
        r = result;
        r.reset(c.type);
        touched.clear();
        if (c.type == null) {
            reject(c, RejectReason.UNKNOWN_COMMAND);
            return;
        }
        switch (c.type) {
            case NEW_ORDER -> newOrder(c);
            case CANCEL -> cancel(c);
            case REDUCE -> reduce(c);
            case MOVE -> move(c);
            case REPLACE -> replace(c);
            case MASS_CANCEL -> massCancel(c);
            case KILL_SWITCH_ON, KILL_SWITCH_OFF -> killSwitch(c);
            case HALT, RESUME -> halt(c);
            case END_OF_DAY -> endOfDay(c);
            case SET_REFERENCE_PRICE -> setReference(c);
            case SET_ACCOUNT_LIMITS -> setLimits(c);
            case SNAPSHOT -> describeAdmin(c);
            case DEPOSIT, WITHDRAW, ADJUST -> money(c);
            case BALANCE -> balance(c);
            default -> reject(c, RejectReason.UNKNOWN_COMMAND);
        }
        // Level changes: every level touched, in first-touch order, with its state now.
        for (final LevelKey key : touched) {
            final LevelChange change = r.levelChange(key.symbol, key.side, key.price);
            long quantity = 0;
            int count = 0;
            for (final Order o : live) {
                if (o.symbol == key.symbol && o.side == key.side && o.price == key.price) {
                    quantity += o.leaves;
                    count++;
                }
            }
            change.quantity = quantity;
            change.orderCount = count;
        }
    }

    // ------------------------------------------------------------------ helpers

    private void reject(final Command c, final RejectReason reason) {
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
        touched.clear();
    }

    private void describe(final Order o, final OrderType type, final OrderStatus status) {
        r.orderId = o.orderId;
        r.account = o.account;
        r.clientOrderId = o.clientOrderId;
        r.symbol = o.symbol;
        r.side = o.side;
        r.orderType = type;
        r.timeInForce = o.tif;
        r.price = o.price;
        r.quantity = o.quantity;
        r.leavesQuantity = o.leaves;
        r.cumulativeQuantity = o.cumulative;
        r.orderStatus = status;
    }

    private void describeAdmin(final Command c) {
        r.account = c.account;
        r.symbol = c.symbol;
        r.price = c.type == CommandType.SET_REFERENCE_PRICE ? c.price : 0;
        r.orderStatus = OrderStatus.NONE;
    }

    private static OrderStatus restingStatus(final Order o) {
        return o.cumulative > 0 ? OrderStatus.PARTIALLY_FILLED : OrderStatus.NEW;
    }

    private void touch(final Order o) {
        touched.add(new LevelKey(o.symbol, o.side, o.price));
    }

    private void addCancel(final Order o, final long quantity, final CancelReason reason) {
        final Cancel x = r.addCancel();
        x.orderId = o.orderId;
        x.account = o.account;
        x.clientOrderId = o.clientOrderId;
        x.symbol = o.symbol;
        x.side = o.side;
        x.price = o.price;
        x.quantity = quantity;
        x.leavesQuantity = o.leaves;
        x.cumulativeQuantity = o.cumulative;
        x.reason = reason;
    }

    /** Removes a resting order entirely, reporting its leaves as cancelled. */
    private void removeResting(final Order o, final CancelReason reason) {
        touch(o);
        live.remove(o);
        giveBackAll(o);
        final long leaves = o.leaves;
        o.leaves = 0;
        addCancel(o, leaves, reason);
    }

    private Order findLive(final long account, final long clientOrderId) {
        for (final Order o : live) {
            if (o.account == account && o.clientOrderId == clientOrderId) {
                return o;
            }
        }
        return null;
    }

    private Order find(final Command c) {
        if (c.orderId != 0) {
            for (final Order o : live) {
                if (o.orderId == c.orderId) {
                    return o.account == c.account ? o : null;
                }
            }
            return null;
        }
        return findLive(c.account, c.clientOrderId);
    }

    private static boolean mulExceeds(final long a, final long b, final long limit) {
        return BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).compareTo(BigInteger.valueOf(limit)) > 0;
    }

    private boolean outsideBand(final Book book, final long price) {
        if (book.spec.priceBandBasisPoints() == 0 || book.referencePrice == 0) {
            return false;
        }
        final BigInteger distance = BigInteger.valueOf(price).subtract(BigInteger.valueOf(book.referencePrice)).abs();
        return distance.multiply(BigInteger.valueOf(10_000))
            .compareTo(BigInteger.valueOf(book.referencePrice).multiply(BigInteger.valueOf(book.spec.priceBandBasisPoints()))) > 0;
    }

    /** Resting orders on one side of a symbol, best first (price, then arrival). */
    private List<Order> sideInPriority(final int symbol, final Side side) {
        final List<Order> orders = new ArrayList<>();
        for (final Order o : live) {
            if (o.symbol == symbol && o.side == side) {
                orders.add(o);
            }
        }
        final Comparator<Order> byPrice = Comparator.comparingLong(o -> o.price);
        orders.sort((side == Side.BUY ? byPrice.reversed() : byPrice).thenComparingLong(o -> o.arrival));
        return orders;
    }

    private boolean crosses(final Side side, final long price, final long oppositePrice) {
        return side == Side.BUY ? price >= oppositePrice : price <= oppositePrice;
    }

    private boolean wouldCross(final int symbol, final Side side, final long price) {
        final List<Order> opposite = sideInPriority(symbol, side.opposite());
        return !opposite.isEmpty() && crosses(side, price, opposite.get(0).price);
    }

    private SelfTradePrevention stpOf(final long account) {
        return on(RiskCheck.SELF_TRADE_PREVENTION) ? accounts.get(account).stp : SelfTradePrevention.OFF;
    }

    private void rest(final Order o) {
        o.arrival = ++arrivals;
        live.add(o);
        touch(o);
    }

    // ------------------------------------------------------------------ money

    private Account newAccount(final AccountSpec spec) {
        return new Account(spec, assets.size());
    }

    private int assetIndex(final int assetId) {
        for (int i = 0; i < assets.size(); i++) {
            if (assets.get(i).id() == assetId) {
                return i;
            }
        }
        return -1;
    }

    private static BigInteger big(final long value) {
        return BigInteger.valueOf(value);
    }

    /** The docs' rule for amounts: exact, but anything past a long is Long.MAX_VALUE (and so can never be paid). */
    private static long saturate(final BigInteger value) {
        return value.min(big(Long.MAX_VALUE)).longValueExact();
    }

    /** Does this symbol's trading move money in this configuration? */
    private boolean paid(final int symbol) {
        return on(RiskCheck.FUNDS) && books.get(symbol).spec.hasAssets();
    }

    /** The asset an order holds: the quote asset for a bid, the base asset for an ask. */
    private int holdAsset(final Order o) {
        final SymbolSpec spec = books.get(o.symbol).spec;
        return assetIndex(o.side == Side.BUY ? spec.quoteAsset() : spec.baseAsset());
    }

    /** What an order with these leaves must hold: leaves x (holdPrice x quoteScale + takerFee) for a bid, leaves x baseScale for an ask. */
    private long required(final Order o, final long leaves, final long holdPrice) {
        final SymbolSpec spec = books.get(o.symbol).spec;
        if (o.side == Side.BUY) {
            return saturate(big(leaves).multiply(big(holdPrice).multiply(big(spec.quoteScale())).add(big(spec.takerFee()))));
        }
        return saturate(big(leaves).multiply(big(spec.baseScale())));
    }

    private void holdMore(final Order o, final long amount) {
        final Account account = accounts.get(o.account);
        final int asset = holdAsset(o);
        account.available[asset] = Math.subtractExact(account.available[asset], amount);
        account.held[asset] = Math.addExact(account.held[asset], amount);
        o.hold = Math.addExact(o.hold, amount);
    }

    private void giveBack(final Order o, final long amount) {
        holdMore(o, -amount);
    }

    /** Gives back what the order holds beyond what its leaves need (everything at 0 leaves). */
    private void giveBackExcess(final Order o) {
        if (paid(o.symbol)) {
            final long excess = o.hold - required(o, o.leaves, o.holdPrice);
            if (excess > 0) {
                giveBack(o, excess);
            }
        }
    }

    private void giveBackAll(final Order o) {
        if (paid(o.symbol) && o.hold != 0) {
            giveBack(o, o.hold);
        }
    }

    /** A taker done matching: it keeps what its leaves need if it rests, else nothing. */
    private void afterTaking(final Order o, final boolean rests) {
        if (rests) {
            giveBackExcess(o);
        } else {
            giveBackAll(o);
        }
    }

    /** Moves the money of one fill, fees included, then lets a maker bid give back what its leaves no longer need. */
    private void settle(final Order taker, final Order maker, final long quantity, final long price) {
        if (!paid(taker.symbol)) {
            return;
        }
        final SymbolSpec spec = books.get(taker.symbol).spec;
        final Order buyer = taker.side == Side.BUY ? taker : maker;
        final Order seller = taker.side == Side.BUY ? maker : taker;
        final long buyerFee = buyer == taker ? spec.takerFee() : spec.makerFee();
        final long sellerFee = seller == taker ? spec.takerFee() : spec.makerFee();
        final int base = assetIndex(spec.baseAsset());
        final int quote = assetIndex(spec.quoteAsset());
        final BigInteger value = big(quantity).multiply(big(price)).multiply(big(spec.quoteScale()));
        final long paidByBuyer = value.add(big(quantity).multiply(big(buyerFee))).longValueExact();
        final long baseAmount = big(quantity).multiply(big(spec.baseScale())).longValueExact();
        final long toSeller = value.subtract(big(quantity).multiply(big(sellerFee))).longValueExact();
        final Account buyerAccount = accounts.get(buyer.account);
        final Account sellerAccount = accounts.get(seller.account);
        buyer.hold = Math.subtractExact(buyer.hold, paidByBuyer);
        buyerAccount.held[quote] = Math.subtractExact(buyerAccount.held[quote], paidByBuyer);
        buyerAccount.available[base] = Math.addExact(buyerAccount.available[base], baseAmount);
        seller.hold = Math.subtractExact(seller.hold, baseAmount);
        sellerAccount.held[base] = Math.subtractExact(sellerAccount.held[base], baseAmount);
        sellerAccount.available[quote] = Math.addExact(sellerAccount.available[quote], toSeller);
        fees[quote] = Math.addExact(fees[quote], big(quantity).multiply(big(spec.takerFee() + spec.makerFee())).longValueExact());
        if (maker.side == Side.BUY) {
            giveBackExcess(maker);
        }
    }

    /**
     * NEW_ORDER step 15: what the accepted order must hold, or a reject. Returns the reject reason;
     * on NONE the order's hold price is set and {@code hold[0]} is the amount to hold.
     */
    private RejectReason fundsCheck(final Command c, final Order o, final long[] hold) {
        final SymbolSpec spec = books.get(c.symbol).spec;
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = c.timeInForce == TimeInForce.FOK_BUDGET;
        if (c.side == Side.SELL) {
            // An ask never sells where its proceeds could not pay its fee: a budget ask's budget pays it on all of it.
            final BigInteger fee = big(spec.takerFee()).multiply(big(budget ? c.quantity : 1));
            if (!market && big(c.price).multiply(big(spec.quoteScale())).compareTo(fee) < 0) {
                return RejectReason.INVALID_PRICE;
            }
            hold[0] = saturate(big(c.quantity).multiply(big(spec.baseScale())));
        } else {
            if (c.reservePrice != 0 && (market || (budget && c.reservePrice != c.price) || (!budget && c.reservePrice < c.price))) {
                return RejectReason.INVALID_RESERVE_PRICE;
            }
            if (budget) {
                hold[0] = saturate(big(c.price).multiply(big(spec.quoteScale())).add(big(c.quantity).multiply(big(spec.takerFee()))));
            } else if (market) {
                BigInteger cost = BigInteger.ZERO;
                long needed = c.quantity;
                for (final Order maker : takeable(o, false, 0)) {
                    if (needed == 0) {
                        break;
                    }
                    final long taken = Math.min(needed, maker.leaves);
                    cost = cost.add(big(taken).multiply(big(maker.price).multiply(big(spec.quoteScale())).add(big(spec.takerFee()))));
                    needed -= taken;
                }
                hold[0] = saturate(cost);
            } else {
                o.reserved = c.reservePrice != 0;
                o.holdPrice = o.reserved ? c.reservePrice : c.price;
                hold[0] = required(o, c.quantity, o.holdPrice);
            }
        }
        final long available = accounts.get(c.account).available[holdAsset(o)];
        // Saturated means past any long: nobody can pay it.
        if (hold[0] == Long.MAX_VALUE || hold[0] > available) {
            r.fundsNeeded = hold[0];
            r.balanceAvailable = available;
            return RejectReason.INSUFFICIENT_FUNDS;
        }
        return RejectReason.NONE;
    }

    /** A paid-for ask at a price whose proceeds could not pay the taker fee. */
    private boolean askBelowFee(final Order o, final long price) {
        final SymbolSpec spec = books.get(o.symbol).spec;
        return paid(o.symbol) && o.side == Side.SELL
            && big(price).multiply(big(spec.quoteScale())).compareTo(big(spec.takerFee())) < 0;
    }

    /** The smallest price p with p x quoteScale at least the taker fee (and at least 1). */
    private static long lowestPayingPrice(final SymbolSpec spec) {
        long p = 1;
        while (big(p).multiply(big(spec.quoteScale())).compareTo(big(spec.takerFee())) < 0) {
            p = Math.max(p + 1, spec.takerFee() / spec.quoteScale());
        }
        return p;
    }

    /**
     * MOVE and a REPLACE that loses priority: holds the extra the order needs at its new price and
     * leaves, or says INSUFFICIENT_FUNDS (filling the result's funds fields). Excess is given back
     * only after matching.
     */
    private boolean holdForAmendment(final Order o, final long newPrice, final long newLeaves) {
        if (!paid(o.symbol)) {
            return true;
        }
        final boolean keepReserve = o.side == Side.BUY && o.reserved && newPrice <= o.holdPrice;
        final long holdPrice = o.side == Side.BUY ? (keepReserve ? o.holdPrice : newPrice) : o.holdPrice;
        final long needs = required(o, newLeaves, holdPrice);
        final long more = needs - o.hold;
        final long available = accounts.get(o.account).available[holdAsset(o)];
        if (needs == Long.MAX_VALUE || (more > 0 && more > available)) {
            r.fundsNeeded = needs == Long.MAX_VALUE ? Long.MAX_VALUE : more;
            r.balanceAvailable = available;
            return false;
        }
        if (more > 0) {
            holdMore(o, more);
        }
        if (o.side == Side.BUY) {
            o.holdPrice = holdPrice;
            o.reserved = keepReserve;
        }
        return true;
    }

    private void money(final Command c) {
        Account account = accounts.get(c.account);
        if (account == null) {
            if (!config.createAccountsOnFirstUse()) {
                reject(c, RejectReason.UNKNOWN_ACCOUNT);
                return;
            }
            account = newAccount(config.defaultAccount());
            accounts.put(c.account, account);
        }
        final int asset = assetIndex(c.symbol);
        if (asset < 0) {
            reject(c, RejectReason.UNKNOWN_ASSET);
            return;
        }
        final long available = account.available[asset];
        final BigInteger after = big(available).add(big(c.type == CommandType.WITHDRAW ? -c.quantity : c.quantity));
        final RejectReason reason;
        if (c.clientOrderId <= 0) {
            reason = RejectReason.INVALID_REFERENCE;
        } else if (c.type == CommandType.ADJUST ? c.quantity == 0 : c.quantity <= 0) {
            reason = RejectReason.INVALID_AMOUNT;
        } else if (after.compareTo(big(Long.MAX_VALUE)) > 0 || (c.type != CommandType.WITHDRAW && c.quantity > 0
            && big(netDeposits(c.symbol)).add(big(c.quantity)).compareTo(big(Long.MAX_VALUE)) > 0)) {
            // Past a long in the account, or in the asset's total over every account (step 4).
            reason = RejectReason.INVALID_AMOUNT;
        } else if (after.signum() < 0) {
            reason = RejectReason.INSUFFICIENT_FUNDS;
        } else if (appliedReferences.contains(c.clientOrderId)) {
            reason = RejectReason.DUPLICATE_REFERENCE;
        } else {
            reason = RejectReason.NONE;
        }
        if (reason != RejectReason.NONE) {
            reject(c, reason);
            if (reason == RejectReason.INSUFFICIENT_FUNDS) {
                r.fundsNeeded = big(c.quantity).abs().min(big(Long.MAX_VALUE)).longValueExact();
            }
        } else {
            appliedReferences.add(c.clientOrderId);
            account.available[asset] = after.longValueExact();
            switch (c.type) {
                case DEPOSIT -> deposited[asset] = Math.addExact(deposited[asset], c.quantity);
                case WITHDRAW -> withdrawn[asset] = Math.addExact(withdrawn[asset], c.quantity);
                default -> adjusted[asset] = Math.addExact(adjusted[asset], c.quantity);
            }
            r.account = c.account;
            r.symbol = c.symbol;
            r.clientOrderId = c.clientOrderId;
            r.quantity = c.quantity;
        }
        r.balanceAvailable = account.available[asset];
        r.balanceHeld = account.held[asset];
    }

    /** BALANCE: a known account's balance of a known asset; an unknown account is not created. */
    private void balance(final Command c) {
        final Account account = accounts.get(c.account);
        if (account == null) {
            reject(c, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        final int asset = assetIndex(c.symbol);
        if (asset < 0) {
            reject(c, RejectReason.UNKNOWN_ASSET);
            return;
        }
        r.account = c.account;
        r.symbol = c.symbol;
        r.clientOrderId = c.clientOrderId;
        r.quantity = c.quantity;
        r.balanceAvailable = account.available[asset];
        r.balanceHeld = account.held[asset];
    }

    // ------------------------------------------------------------------ matching

    /** Returns true when self-trade prevention stopped the taker. */
    private boolean match(final Order taker, final boolean limited, final long limit) {
        final Book book = books.get(taker.symbol);
        final SelfTradePrevention stp = stpOf(taker.account);
        while (taker.leaves > 0) {
            final List<Order> opposite = sideInPriority(taker.symbol, taker.side.opposite());
            if (opposite.isEmpty()) {
                return false;
            }
            final Order maker = opposite.get(0);
            if (limited && !crosses(taker.side, limit, maker.price)) {
                return false;
            }
            if (stp != SelfTradePrevention.OFF && maker.account == taker.account) {
                switch (stp) {
                    case CANCEL_INCOMING -> {
                        return true;
                    }
                    case CANCEL_RESTING -> {
                        removeResting(maker, CancelReason.SELF_TRADE_PREVENTION);
                        continue;
                    }
                    default -> {
                        removeResting(maker, CancelReason.SELF_TRADE_PREVENTION);
                        return true;
                    }
                }
            }
            final long quantity = Math.min(taker.leaves, maker.leaves);
            taker.leaves -= quantity;
            taker.cumulative += quantity;
            maker.leaves -= quantity;
            maker.cumulative += quantity;
            book.referencePrice = maker.price;
            touch(maker);
            final Fill f = r.addFill();
            f.tradeId = ++lastTradeId;
            f.price = maker.price;
            f.quantity = quantity;
            f.takerOrderId = taker.orderId;
            f.takerAccount = taker.account;
            f.takerClientOrderId = taker.clientOrderId;
            f.takerSide = taker.side;
            f.takerLeavesQuantity = taker.leaves;
            f.takerCumulativeQuantity = taker.cumulative;
            f.makerOrderId = maker.orderId;
            f.makerAccount = maker.account;
            f.makerClientOrderId = maker.clientOrderId;
            f.makerLeavesQuantity = maker.leaves;
            f.makerCumulativeQuantity = maker.cumulative;
            settle(taker, maker, quantity, maker.price);
            if (maker.leaves == 0) {
                live.remove(maker);
            }
        }
        return false;
    }

    /** The orders a fill-or-kill walk may count, in priority order, honouring self-trade prevention. */
    private List<Order> takeable(final Order taker, final boolean limited, final long limit) {
        final SelfTradePrevention stp = stpOf(taker.account);
        final List<Order> result = new ArrayList<>();
        for (final Order maker : sideInPriority(taker.symbol, taker.side.opposite())) {
            if (limited && !crosses(taker.side, limit, maker.price)) {
                break;
            }
            if (stp != SelfTradePrevention.OFF && maker.account == taker.account) {
                if (stp == SelfTradePrevention.CANCEL_RESTING) {
                    continue;
                }
                break;
            }
            result.add(maker);
        }
        return result;
    }

    private boolean fokPasses(final Order taker, final boolean limited, final long limit) {
        long available = 0;
        for (final Order maker : takeable(taker, limited, limit)) {
            available += maker.leaves;
        }
        return available >= taker.leaves;
    }

    private boolean budgetPasses(final Order taker, final long budget) {
        long needed = taker.leaves;
        BigInteger cost = BigInteger.ZERO;
        for (final Order maker : takeable(taker, false, 0)) {
            if (needed == 0) {
                break;
            }
            final long taken = Math.min(needed, maker.leaves);
            cost = cost.add(BigInteger.valueOf(taken).multiply(BigInteger.valueOf(maker.price)));
            needed -= taken;
        }
        if (needed > 0) {
            return false;
        }
        final int cmp = cost.compareTo(BigInteger.valueOf(budget));
        return taker.side == Side.BUY ? cmp <= 0 : cmp >= 0;
    }

    private static boolean validQuantity(final long q) {
        return q >= 1 && q <= Command.MAX_QUANTITY;
    }

    private static boolean validPrice(final long p) {
        return p >= 1 && p <= Command.MAX_PRICE;
    }

    // ------------------------------------------------------------------ commands

    private void newOrder(final Command c) {
        final Book book = books.get(c.symbol);
        if (book == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        Account account = accounts.get(c.account);
        if (account == null) {
            if (!config.createAccountsOnFirstUse()) {
                reject(c, RejectReason.UNKNOWN_ACCOUNT);
                return;
            }
            account = newAccount(config.defaultAccount());
            accounts.put(c.account, account);
        }
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = c.timeInForce == TimeInForce.FOK_BUDGET;
        final boolean immediate = c.timeInForce == TimeInForce.IOC || c.timeInForce == TimeInForce.FOK || budget;
        final RejectReason reason;
        if (c.side == null || c.orderType == null || c.timeInForce == null || c.clientOrderId == 0
            || (c.postOnly && (market || immediate)) || (market && budget)) {
            reason = RejectReason.INVALID_ORDER;
        } else if (!validQuantity(c.quantity)) {
            reason = RejectReason.INVALID_QUANTITY;
        } else if (!market && !validPrice(c.price)) {
            reason = RejectReason.INVALID_PRICE;
        } else if (findLive(c.account, c.clientOrderId) != null) {
            reason = RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        } else if (on(RiskCheck.HALT) && book.halted) {
            reason = RejectReason.SYMBOL_HALTED;
        } else if (on(RiskCheck.KILL_SWITCH) && account.killSwitch) {
            reason = RejectReason.KILL_SWITCH_ACTIVE;
        } else if (on(RiskCheck.TICK_AND_LOT) && c.quantity % book.spec.lotSize() != 0) {
            reason = RejectReason.QUANTITY_NOT_ON_LOT;
        } else if (on(RiskCheck.TICK_AND_LOT) && !market && !budget && c.price % book.spec.tickSize() != 0) {
            reason = RejectReason.PRICE_NOT_ON_TICK;
        } else if (on(RiskCheck.PRICE_BAND) && !market && !budget && outsideBand(book, c.price)) {
            reason = RejectReason.PRICE_OUTSIDE_BAND;
        } else if (on(RiskCheck.MAX_ORDER_QUANTITY) && account.maxOrderQuantity > 0 && c.quantity > account.maxOrderQuantity) {
            reason = RejectReason.MAX_ORDER_QUANTITY_EXCEEDED;
        } else if (on(RiskCheck.MAX_ORDER_NOTIONAL) && account.maxOrderNotional > 0 && !market
            && (budget ? c.price > account.maxOrderNotional : mulExceeds(c.price, c.quantity, account.maxOrderNotional))) {
            reason = RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED;
        } else if (on(RiskCheck.MAX_OPEN_ORDERS) && account.maxOpenOrders > 0 && openOrders(c.account) >= account.maxOpenOrders) {
            reason = RejectReason.MAX_OPEN_ORDERS_EXCEEDED;
        } else if (c.postOnly && wouldCross(c.symbol, c.side, c.price)) {
            reason = RejectReason.POST_ONLY_WOULD_TAKE;
        } else {
            reason = RejectReason.NONE;
        }
        if (reason != RejectReason.NONE) {
            reject(c, reason);
            return;
        }
        final Order o = new Order();
        final long[] hold = new long[1];
        o.account = c.account;
        o.symbol = c.symbol;
        o.side = c.side;
        if (paid(c.symbol)) {
            final RejectReason funds = fundsCheck(c, o, hold);
            if (funds != RejectReason.NONE) {
                reject(c, funds);
                return;
            }
        }
        o.orderId = ++lastOrderId;
        o.account = c.account;
        o.clientOrderId = c.clientOrderId;
        o.symbol = c.symbol;
        o.side = c.side;
        o.tif = c.timeInForce;
        o.postOnly = c.postOnly;
        o.price = c.price;
        o.quantity = c.quantity;
        o.leaves = c.quantity;
        if (paid(c.symbol)) {
            holdMore(o, hold[0]);
        }
        execute(c, o, market, budget);
    }

    /** An accepted new order: the fill-or-kill checks, matching, and what becomes of the rest. */
    private void execute(final Command c, final Order o, final boolean market, final boolean budget) {
        // A paid-for market ask takes no bid below the lowest price whose proceeds pay its fee.
        final boolean floored = market && o.side == Side.SELL && paid(c.symbol);
        final long limit = floored ? lowestPayingPrice(books.get(c.symbol).spec) : c.price;
        final boolean killed = (c.timeInForce == TimeInForce.FOK && !fokPasses(o, !market || floored, limit))
            || (budget && !budgetPasses(o, c.price));
        if (killed) {
            o.leaves = 0;
            giveBackAll(o);
            addCancel(o, c.quantity, CancelReason.UNFILLED_REMAINDER);
            describe(o, c.orderType, OrderStatus.CANCELLED);
            return;
        }
        final boolean stopped = match(o, (!market && !budget) || floored, limit);
        final OrderStatus status;
        if (o.leaves == 0) {
            giveBackAll(o);
            status = OrderStatus.FILLED;
        } else if (stopped) {
            giveBackAll(o);
            final long leaves = o.leaves;
            o.leaves = 0;
            addCancel(o, leaves, CancelReason.SELF_TRADE_PREVENTION);
            status = OrderStatus.CANCELLED;
        } else if (!market && (c.timeInForce == TimeInForce.GTC || c.timeInForce == TimeInForce.DAY)) {
            giveBackExcess(o);
            rest(o);
            status = restingStatus(o);
        } else {
            giveBackAll(o);
            final long leaves = o.leaves;
            o.leaves = 0;
            addCancel(o, leaves, CancelReason.UNFILLED_REMAINDER);
            status = OrderStatus.CANCELLED;
        }
        describe(o, c.orderType, status);
    }

    private int openOrders(final long account) {
        int n = 0;
        for (final Order o : live) {
            if (o.account == account) {
                n++;
            }
        }
        return n;
    }

    private void cancel(final Command c) {
        final Order o = find(c);
        if (o == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        removeResting(o, CancelReason.CLIENT_CANCEL);
        describe(o, OrderType.LIMIT, OrderStatus.CANCELLED);
    }

    private void reduce(final Command c) {
        final Order o = find(c);
        if (o == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        if (!validQuantity(c.quantity)) {
            reject(c, RejectReason.INVALID_QUANTITY);
            return;
        }
        final long by = Math.min(c.quantity, o.leaves);
        o.quantity -= by;
        o.leaves -= by;
        touch(o);
        addCancel(o, by, CancelReason.REDUCE);
        giveBackExcess(o);
        if (o.leaves == 0) {
            live.remove(o);
            describe(o, OrderType.LIMIT, OrderStatus.CANCELLED);
        } else {
            describe(o, OrderType.LIMIT, restingStatus(o));
        }
    }

    /** Common checks of MOVE and REPLACE once quantity is settled. */
    private RejectReason amendChecks(final Order o, final long price, final long quantity, final boolean replace) {
        final Book book = books.get(o.symbol);
        final Account account = accounts.get(o.account);
        if (on(RiskCheck.HALT) && book.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (on(RiskCheck.KILL_SWITCH) && account.killSwitch) {
            return RejectReason.KILL_SWITCH_ACTIVE;
        }
        if (on(RiskCheck.TICK_AND_LOT) && replace && quantity % book.spec.lotSize() != 0) {
            return RejectReason.QUANTITY_NOT_ON_LOT;
        }
        if (on(RiskCheck.TICK_AND_LOT) && price % book.spec.tickSize() != 0) {
            return RejectReason.PRICE_NOT_ON_TICK;
        }
        if (on(RiskCheck.PRICE_BAND) && outsideBand(book, price)) {
            return RejectReason.PRICE_OUTSIDE_BAND;
        }
        if (replace && on(RiskCheck.MAX_ORDER_QUANTITY) && account.maxOrderQuantity > 0 && quantity > account.maxOrderQuantity) {
            return RejectReason.MAX_ORDER_QUANTITY_EXCEEDED;
        }
        if (on(RiskCheck.MAX_ORDER_NOTIONAL) && account.maxOrderNotional > 0 && mulExceeds(price, quantity, account.maxOrderNotional)) {
            return RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED;
        }
        if (replace && quantity <= o.cumulative) {
            return RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }
        if (o.postOnly && wouldCross(o.symbol, o.side, price)) {
            return RejectReason.POST_ONLY_WOULD_TAKE;
        }
        return RejectReason.NONE;
    }

    private void move(final Command c) {
        final Order o = find(c);
        if (o == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        if (!validPrice(c.price)) {
            reject(c, RejectReason.INVALID_PRICE);
            return;
        }
        final RejectReason reason = amendChecks(o, c.price, o.quantity, false);
        if (reason != RejectReason.NONE) {
            reject(c, reason);
            return;
        }
        if (askBelowFee(o, c.price)) {
            reject(c, RejectReason.INVALID_PRICE);
            return;
        }
        if (!holdForAmendment(o, c.price, o.leaves)) {
            reject(c, RejectReason.INSUFFICIENT_FUNDS);
            return;
        }
        touch(o);
        live.remove(o);
        o.price = c.price;
        rematch(o);
    }

    private void replace(final Command c) {
        final Order o = find(c);
        if (o == null) {
            reject(c, RejectReason.UNKNOWN_ORDER);
            return;
        }
        if (!validQuantity(c.quantity)) {
            reject(c, RejectReason.INVALID_QUANTITY);
            return;
        }
        if (!validPrice(c.price)) {
            reject(c, RejectReason.INVALID_PRICE);
            return;
        }
        final boolean rename = c.newClientOrderId != 0 && c.newClientOrderId != o.clientOrderId;
        if (rename && findLive(o.account, c.newClientOrderId) != null) {
            reject(c, RejectReason.DUPLICATE_CLIENT_ORDER_ID);
            return;
        }
        final RejectReason reason = amendChecks(o, c.price, c.quantity, true);
        if (reason != RejectReason.NONE) {
            reject(c, reason);
            return;
        }
        final boolean inPlace = c.price == o.price && c.quantity <= o.quantity;
        if (!inPlace && askBelowFee(o, c.price)) {
            reject(c, RejectReason.INVALID_PRICE);
            return;
        }
        if (!inPlace && !holdForAmendment(o, c.price, c.quantity - o.cumulative)) {
            reject(c, RejectReason.INSUFFICIENT_FUNDS);
            return;
        }
        if (rename) {
            o.clientOrderId = c.newClientOrderId;
        }
        touch(o);
        if (inPlace) {
            o.leaves -= o.quantity - c.quantity;
            o.quantity = c.quantity;
            giveBackExcess(o);
            describe(o, OrderType.LIMIT, restingStatus(o));
            return;
        }
        live.remove(o);
        o.price = c.price;
        o.quantity = c.quantity;
        o.leaves = c.quantity - o.cumulative;
        rematch(o);
    }

    private void rematch(final Order o) {
        final boolean stopped = match(o, true, o.price);
        afterTaking(o, o.leaves > 0 && !stopped);
        if (o.leaves == 0) {
            describe(o, OrderType.LIMIT, OrderStatus.FILLED);
        } else if (stopped) {
            final long leaves = o.leaves;
            o.leaves = 0;
            addCancel(o, leaves, CancelReason.SELF_TRADE_PREVENTION);
            describe(o, OrderType.LIMIT, OrderStatus.CANCELLED);
        } else {
            rest(o);
            describe(o, OrderType.LIMIT, restingStatus(o));
        }
    }

    /** The account's orders (in a symbol, if non-zero), oldest engine id first. */
    private List<Order> accountOrders(final long account, final int symbol) {
        final List<Order> orders = new ArrayList<>();
        for (final Order o : live) {
            if (o.account == account && (symbol == Command.ALL_SYMBOLS || o.symbol == symbol)) {
                orders.add(o);
            }
        }
        orders.sort(Comparator.comparingLong(o -> o.orderId));
        return orders;
    }

    private void massCancel(final Command c) {
        if (!accounts.containsKey(c.account)) {
            reject(c, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        if (c.symbol != Command.ALL_SYMBOLS && !books.containsKey(c.symbol)) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        final List<Order> orders = accountOrders(c.account, c.symbol);
        for (final Order o : orders) {
            removeResting(o, CancelReason.MASS_CANCEL);
        }
        describeAdmin(c);
        r.affectedOrders = orders.size();
    }

    private void killSwitch(final Command c) {
        final Account account = accounts.get(c.account);
        if (account == null) {
            reject(c, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        describeAdmin(c);
        if (c.type == CommandType.KILL_SWITCH_ON) {
            account.killSwitch = true;
            final List<Order> orders = accountOrders(c.account, Command.ALL_SYMBOLS);
            for (final Order o : orders) {
                removeResting(o, CancelReason.KILL_SWITCH);
            }
            r.affectedOrders = orders.size();
        } else {
            account.killSwitch = false;
        }
    }

    private void halt(final Command c) {
        final Book book = books.get(c.symbol);
        if (book == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        book.halted = c.type == CommandType.HALT;
        describeAdmin(c);
    }

    private void endOfDay(final Command c) {
        if (c.symbol != Command.ALL_SYMBOLS && !books.containsKey(c.symbol)) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        int expired = 0;
        for (final int symbol : books.keySet()) {
            if (c.symbol != Command.ALL_SYMBOLS && symbol != c.symbol) {
                continue;
            }
            for (final Side side : new Side[]{Side.BUY, Side.SELL}) {
                for (final Order o : sideInPriority(symbol, side)) {
                    if (o.tif == TimeInForce.DAY) {
                        removeResting(o, CancelReason.END_OF_DAY);
                        expired++;
                    }
                }
            }
        }
        describeAdmin(c);
        r.affectedOrders = expired;
    }

    private void setReference(final Command c) {
        final Book book = books.get(c.symbol);
        if (book == null) {
            reject(c, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        if (!validPrice(c.price)) {
            reject(c, RejectReason.INVALID_PRICE);
            return;
        }
        book.referencePrice = c.price;
        describeAdmin(c);
    }

    private void setLimits(final Command c) {
        if (c.maxOrderQuantity < 0 || c.maxOrderNotional < 0 || c.maxOpenOrders < 0) {
            reject(c, RejectReason.INVALID_QUANTITY);
            return;
        }
        if (c.selfTradePrevention == null) {
            reject(c, RejectReason.INVALID_ORDER);
            return;
        }
        final Account account = accounts.computeIfAbsent(c.account, id -> newAccount(config.defaultAccount()));
        account.maxOrderQuantity = c.maxOrderQuantity;
        account.maxOrderNotional = c.maxOrderNotional;
        account.maxOpenOrders = c.maxOpenOrders;
        account.stp = c.selfTradePrevention;
        describeAdmin(c);
    }

    // ------------------------------------------------------------------ queries

    /** Every account the model knows, ascending. */
    public long[] accountIds() {
        return accounts.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    public long available(final long account, final int assetId) {
        final Account a = accounts.get(account);
        return a == null ? 0 : a.available[assetIndex(assetId)];
    }

    public long held(final long account, final int assetId) {
        final Account a = accounts.get(account);
        return a == null ? 0 : a.held[assetIndex(assetId)];
    }

    public long feesCollected(final int assetId) {
        return fees[assetIndex(assetId)];
    }

    /** Deposited minus withdrawn plus adjusted. */
    public long netDeposits(final int assetId) {
        final int i = assetIndex(assetId);
        return Math.addExact(Math.subtractExact(deposited[i], withdrawn[i]), adjusted[i]);
    }

    public long deposited(final int assetId) {
        return deposited[assetIndex(assetId)];
    }

    public long withdrawn(final int assetId) {
        return withdrawn[assetIndex(assetId)];
    }

    /**
     * The model's own bookkeeping agrees with itself: every account's held amount of an asset is the
     * sum of what its live orders hold of it. Returns a description of the first disagreement, or null.
     */
    public String holdsDisagree() {
        for (final var entry : accounts.entrySet()) {
            final long[] sum = new long[assets.size()];
            for (final Order o : live) {
                if (o.account == entry.getKey() && paid(o.symbol)) {
                    sum[holdAsset(o)] += o.hold;
                }
            }
            for (int i = 0; i < sum.length; i++) {
                if (sum[i] != entry.getValue().held[i]) {
                    return "account " + entry.getKey() + " asset " + assets.get(i).id() + ": held " + entry.getValue().held[i]
                        + ", its orders hold " + sum[i];
                }
            }
        }
        return null;
    }

    /** "price:qty:orders" per level of one side, best first. */
    public String depth(final int symbol, final Side side) {
        final StringBuilder sb = new StringBuilder();
        final List<Order> orders = sideInPriority(symbol, side);
        int i = 0;
        while (i < orders.size()) {
            final long price = orders.get(i).price;
            long quantity = 0;
            int count = 0;
            while (i < orders.size() && orders.get(i).price == price) {
                quantity += orders.get(i).leaves;
                count++;
                i++;
            }
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(price).append(':').append(quantity).append(':').append(count);
        }
        return sb.toString();
    }
}
