package io.chronex.engine.reference.spec;

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
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A deliberately naive model of docs/engine.md, written from the spec alone, to judge MatchingEngine by.
 *
 * <p>Every resting order of a symbol sits in one ArrayList; the best price, a level's queue and an
 * account's orders are all found by scanning and sorting that list again each time they are needed.
 * Time priority is an insertion sequence number. Every product is a BigInteger, so no check can
 * overflow. Slow on purpose: nothing here should need a second reading to believe.
 *
 * <p>Money (docs/engine.md, "Accounts"): each account keeps per asset an available and a held amount,
 * each order remembers what it holds, and every amount is worked out as a BigInteger and only then
 * saturated or stored, so a wrong rule shows up as a difference rather than hiding in an overflow.
 */
public final class SpecReference {
    /** What the depth accessors answer for an empty side (the same value MatchingEngine uses). */
    public static final long NO_PRICE = 0;

    private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** One tradable symbol and every order resting in it, both sides, in no particular order. */
    private static final class Sym {
        final int id;
        final long tick;
        final long lot;
        final long bandBasisPoints;
        long referencePrice;
        boolean halted;
        final List<Ord> orders = new ArrayList<>();
        /** Asset ids, 0 for a symbol that moves no money. */
        final int base;
        final int quote;
        final BigInteger baseScale;
        final BigInteger quoteScale;
        final BigInteger takerFee;
        final BigInteger makerFee;

        Sym(final SymbolSpec spec) {
            id = spec.id();
            tick = spec.tickSize();
            lot = spec.lotSize();
            bandBasisPoints = spec.priceBandBasisPoints();
            referencePrice = spec.referencePrice();
            base = spec.baseAsset();
            quote = spec.quoteAsset();
            baseScale = big(spec.baseScale());
            quoteScale = big(spec.quoteScale());
            takerFee = big(spec.takerFee());
            makerFee = big(spec.makerFee());
        }
    }

    /** One account's amounts of one asset. */
    private static final class Balance {
        long available;
        long held;
    }

    /** One account: limits, self-trade mode and kill switch. Its orders are found by scanning the books. */
    private static final class Acct {
        final long id;
        long maxOrderQuantity;
        long maxOrderNotional;
        int maxOpenOrders;
        SelfTradePrevention selfTradePrevention;
        boolean killSwitch;
        /** By asset id; an asset the account never touched is absent and counts as 0 and 0. */
        final TreeMap<Integer, Balance> balances = new TreeMap<>();

        Acct(final long id, final long maxOrderQuantity, final long maxOrderNotional, final int maxOpenOrders,
             final SelfTradePrevention selfTradePrevention) {
            this.id = id;
            this.maxOrderQuantity = maxOrderQuantity;
            this.maxOrderNotional = maxOrderNotional;
            this.maxOpenOrders = maxOpenOrders;
            this.selfTradePrevention = selfTradePrevention;
        }
    }

    /** One order, resting or on its way through a command. */
    private static final class Ord {
        long id;
        long account;
        long clientId;
        int symbol;
        Side side;
        OrderType type;
        TimeInForce tif;
        boolean postOnly;
        long price;
        /** Total quantity (FIX OrderQty). */
        long quantity;
        long leaves;
        long cum;
        /** Arrival at the back of its level: smaller is older. */
        long seq;
        /** Left the book because trades took all of it (FILLED), as opposed to any kind of cancel. */
        boolean filledOut;
        /** What the order holds of its asset (quote for a bid, base for an ask); 0 when its symbol moves no money. */
        long held;
        /** A bid's hold price: its reserve price, or its limit price. */
        long holdPrice;
        /** The hold price is a reserve price given with the order (so a MOVE not above it keeps it). */
        boolean reserved;
        /** A paid-for MARKET ask: the lowest bid price it may sell at (its proceeds pay its fee there); 0 = none. */
        long floor;
    }

    private final TreeMap<Integer, Sym> symbols = new TreeMap<>();
    private final TreeMap<Long, Acct> accounts = new TreeMap<>();
    private final int riskChecks;
    private final boolean createAccountsOnFirstUse;
    private final AccountSpec defaultAccount;
    private long lastOrderId;
    private long lastTradeId;
    private long lastSeq;
    private final TreeMap<Integer, AssetSpec> assets = new TreeMap<>();
    private final TreeMap<Integer, BigInteger> fees = new TreeMap<>();
    private final TreeMap<Integer, BigInteger> deposited = new TreeMap<>();
    private final TreeMap<Integer, BigInteger> withdrawn = new TreeMap<>();
    private final TreeMap<Integer, BigInteger> adjusted = new TreeMap<>();
    /** Every reference DEPOSIT, WITHDRAW or ADJUST has applied, by any account. */
    private final Set<Long> references = new HashSet<>();

    public SpecReference(final EngineConfig config) {
        for (final SymbolSpec s : config.symbols()) {
            symbols.put(s.id(), new Sym(s));
        }
        for (final AccountSpec a : config.accounts()) {
            accounts.put(a.id(), new Acct(a.id(), a.maxOrderQuantity(), a.maxOrderNotional(), a.maxOpenOrders(),
                a.selfTradePrevention()));
        }
        riskChecks = config.riskChecks();
        createAccountsOnFirstUse = config.createAccountsOnFirstUse();
        defaultAccount = config.defaultAccount();
        for (final AssetSpec a : config.assets()) {
            assets.put(a.id(), a);
            fees.put(a.id(), BigInteger.ZERO);
            deposited.put(a.id(), BigInteger.ZERO);
            withdrawn.put(a.id(), BigInteger.ZERO);
            adjusted.put(a.id(), BigInteger.ZERO);
        }
    }

    // ------------------------------------------------------------------ commands

    public void apply(final Command c, final Result r) {
        r.reset(c.type);
        if (c.type == null) {
            reject(c, r, RejectReason.UNKNOWN_COMMAND);
            return;
        }
        switch (c.type) {
            case NEW_ORDER -> newOrder(c, r);
            case CANCEL -> cancel(c, r);
            case REDUCE -> reduce(c, r);
            case MOVE -> move(c, r);
            case REPLACE -> replace(c, r);
            case MASS_CANCEL -> massCancel(c, r);
            case KILL_SWITCH_ON, KILL_SWITCH_OFF -> killSwitch(c, r);
            case HALT, RESUME -> halt(c, r);
            case END_OF_DAY -> endOfDay(c, r);
            case SET_REFERENCE_PRICE -> setReferencePrice(c, r);
            case SET_ACCOUNT_LIMITS -> setAccountLimits(c, r);
            case SNAPSHOT -> admin(c, r, 0);
            case DEPOSIT, WITHDRAW, ADJUST -> money(c, r);
            case BALANCE -> balance(c, r);
            default -> throw new AssertionError("command type the spec does not describe: " + c.type);
        }
        // Level entries were created when first touched; their contents are the state after the whole command.
        for (int i = 0; i < r.levelChangeCount(); i++) {
            final LevelChange lc = r.levelChange(i);
            final List<Ord> level = level(symbols.get(lc.symbol), lc.side, lc.price);
            long qty = 0;
            for (final Ord o : level) {
                qty += o.leaves;
            }
            lc.quantity = qty;
            lc.orderCount = level.size();
        }
    }

    private void newOrder(final Command c, final Result r) {
        final Sym sym = symbols.get(c.symbol);
        if (sym == null) {
            reject(c, r, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        final Acct acct = accountOf(c);
        if (acct == null) {
            reject(c, r, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        final RejectReason invalid = newOrderValidity(c);
        if (invalid != null) {
            reject(c, r, invalid);
            return;
        }
        final RejectReason refused = newOrderRiskCheck(c, sym, acct);
        if (refused != null) {
            reject(c, r, refused);
            return;
        }
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = c.timeInForce == TimeInForce.FOK_BUDGET;
        BigInteger hold = BigInteger.ZERO;
        if (paysFor(sym)) {
            final RejectReason unpayable = unpayable(c, sym);
            if (unpayable != null) {
                reject(c, r, unpayable);
                return;
            }
            hold = initialHold(c, sym);
            final long available = balance(acct.id, holdAsset(sym, c.side)).available;
            if (hold.compareTo(LONG_MAX) >= 0 || hold.compareTo(big(available)) > 0) {
                reject(c, r, RejectReason.INSUFFICIENT_FUNDS);
                r.fundsNeeded = saturate(hold);
                r.balanceAvailable = available;
                return;
            }
        }
        final Ord o = newOrd(c);
        if (paysFor(sym)) {
            o.reserved = c.side == Side.BUY && c.reservePrice != 0;
            o.holdPrice = o.reserved ? c.reservePrice : c.price;
            hold(sym, o, hold.longValueExact());
            if (market && c.side == Side.SELL) {
                o.floor = lowestPayingPrice(sym);
            }
        }
        final boolean fok = c.timeInForce == TimeInForce.FOK || budget;
        final boolean hasLimit = !market && !budget;
        if (fok && !canFillCompletely(sym, o, hasLimit, budget)) {
            addCancel(r, o, o.leaves, 0, CancelReason.UNFILLED_REMAINDER);
            o.leaves = 0;
            release(sym, o, o.held);
        } else {
            final boolean stoppedBySelfTrade = matchAsTaker(sym, o, hasLimit, r);
            finishTaker(sym, o, stoppedBySelfTrade,
                !market && (c.timeInForce == TimeInForce.GTC || c.timeInForce == TimeInForce.DAY), r);
        }
        describe(r, o);
        // For NEW_ORDER the subject shows the command's order type and time in force whatever happened.
        r.orderType = c.orderType;
    }

    /** The new order's account; null when it is unknown and accounts are not created on first use. */
    private Acct accountOf(final Command c) {
        final Acct known = accounts.get(c.account);
        if (known != null || !createAccountsOnFirstUse) {
            return known;
        }
        // Created now and kept even if a later check rejects this order (the spec's one exception).
        final Acct acct = new Acct(c.account, defaultAccount.maxOrderQuantity(), defaultAccount.maxOrderNotional(),
            defaultAccount.maxOpenOrders(), defaultAccount.selfTradePrevention());
        accounts.put(c.account, acct);
        return acct;
    }

    /** What makes the command no acceptable order whatever the book and account: null when nothing does. */
    private RejectReason newOrderValidity(final Command c) {
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = c.timeInForce == TimeInForce.FOK_BUDGET;
        if (c.side == null || c.orderType == null || c.timeInForce == null || c.clientOrderId == 0
            || (market && c.postOnly)
            || (c.postOnly && (c.timeInForce == TimeInForce.IOC || c.timeInForce == TimeInForce.FOK || budget))
            || (market && budget)) {
            return RejectReason.INVALID_ORDER;
        }
        if (!validQuantity(c.quantity)) {
            return RejectReason.INVALID_QUANTITY;
        }
        if (!market && !validPrice(c.price)) {
            return RejectReason.INVALID_PRICE;
        }
        if (findByClientId(c.account, c.clientOrderId) != null) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        return null;
    }

    /** The risk checks that are on, in the spec's order, then post-only: null when the order passes them all. */
    private RejectReason newOrderRiskCheck(final Command c, final Sym sym, final Acct acct) {
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = c.timeInForce == TimeInForce.FOK_BUDGET;
        if (on(RiskCheck.HALT) && sym.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (on(RiskCheck.KILL_SWITCH) && acct.killSwitch) {
            return RejectReason.KILL_SWITCH_ACTIVE;
        }
        if (on(RiskCheck.TICK_AND_LOT)) {
            if (c.quantity % sym.lot != 0) {
                return RejectReason.QUANTITY_NOT_ON_LOT;
            }
            if (!market && !budget && c.price % sym.tick != 0) {
                return RejectReason.PRICE_NOT_ON_TICK;
            }
        }
        if (on(RiskCheck.PRICE_BAND) && !market && !budget && outsideBand(sym, c.price)) {
            return RejectReason.PRICE_OUTSIDE_BAND;
        }
        if (on(RiskCheck.MAX_ORDER_QUANTITY) && acct.maxOrderQuantity > 0 && c.quantity > acct.maxOrderQuantity) {
            return RejectReason.MAX_ORDER_QUANTITY_EXCEEDED;
        }
        if (on(RiskCheck.MAX_ORDER_NOTIONAL) && acct.maxOrderNotional > 0 && !market) {
            final BigInteger notional = budget ? big(c.price) : big(c.price).multiply(big(c.quantity));
            if (notional.compareTo(big(acct.maxOrderNotional)) > 0) {
                return RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED;
            }
        }
        if (on(RiskCheck.MAX_OPEN_ORDERS) && acct.maxOpenOrders > 0 && ordersOf(acct.id, 0).size() >= acct.maxOpenOrders) {
            return RejectReason.MAX_OPEN_ORDERS_EXCEEDED;
        }
        if (c.postOnly && wouldCross(sym, c.side, c.price)) {
            return RejectReason.POST_ONLY_WOULD_TAKE;
        }
        return null;
    }

    /** The order an accepted command places, with the next order id. */
    private Ord newOrd(final Command c) {
        final Ord o = new Ord();
        o.id = ++lastOrderId;
        o.account = c.account;
        o.clientId = c.clientOrderId;
        o.symbol = c.symbol;
        o.side = c.side;
        o.type = c.orderType;
        o.tif = c.timeInForce;
        o.postOnly = c.postOnly;
        o.price = c.price;
        o.quantity = c.quantity;
        o.leaves = c.quantity;
        return o;
    }

    private void cancel(final Command c, final Result r) {
        final Ord o = find(c);
        if (o == null) {
            reject(c, r, RejectReason.UNKNOWN_ORDER);
            return;
        }
        removeWithCancel(o, CancelReason.CLIENT_CANCEL, r);
        describe(r, o);
    }

    private void reduce(final Command c, final Result r) {
        final Ord o = find(c);
        if (o == null) {
            reject(c, r, RejectReason.UNKNOWN_ORDER);
            return;
        }
        if (!validQuantity(c.quantity)) {
            reject(c, r, RejectReason.INVALID_QUANTITY);
            return;
        }
        final long taken = Math.min(c.quantity, o.leaves);
        o.leaves -= taken;
        o.quantity -= taken;
        touch(r, o);
        addCancel(r, o, taken, o.leaves, CancelReason.REDUCE);
        if (o.leaves == 0) {
            symbols.get(o.symbol).orders.remove(o);
        }
        releaseExcess(symbols.get(o.symbol), o);
        describe(r, o);
    }

    private void move(final Command c, final Result r) {
        final Ord o = find(c);
        if (o == null) {
            reject(c, r, RejectReason.UNKNOWN_ORDER);
            return;
        }
        final Sym sym = symbols.get(o.symbol);
        final Acct acct = accounts.get(o.account);
        final RejectReason why = amendmentCheck(c, sym, acct, o, c.price, o.quantity, false);
        if (why != null) {
            reject(c, r, why);
            return;
        }
        if (!payForAmendment(c, r, sym, o, c.price, o.quantity)) {
            return;
        }
        reprice(sym, o, c.price, o.quantity, r);
        describe(r, o);
    }

    private void replace(final Command c, final Result r) {
        final Ord o = find(c);
        if (o == null) {
            reject(c, r, RejectReason.UNKNOWN_ORDER);
            return;
        }
        if (!validQuantity(c.quantity)) {
            reject(c, r, RejectReason.INVALID_QUANTITY);
            return;
        }
        final Sym sym = symbols.get(o.symbol);
        final Acct acct = accounts.get(o.account);
        final RejectReason why = amendmentCheck(c, sym, acct, o, c.price, c.quantity, true);
        if (why != null) {
            reject(c, r, why);
            return;
        }
        final boolean inPlace = c.price == o.price && c.quantity <= o.quantity;
        if (!inPlace && !payForAmendment(c, r, sym, o, c.price, c.quantity)) {
            return;
        }
        if (c.newClientOrderId != 0) {
            o.clientId = c.newClientOrderId;
        }
        if (inPlace) {
            // Shrinking in place keeps the queue position; no cancel entry, but the level counts as touched.
            o.leaves -= o.quantity - c.quantity;
            o.quantity = c.quantity;
            touch(r, o);
            releaseExcess(sym, o);
        } else {
            reprice(sym, o, c.price, c.quantity, r);
        }
        describe(r, o);
    }

    /**
     * The checks MOVE and REPLACE share after finding the order (and, for REPLACE, the quantity range),
     * in the spec's order; null when all pass. MOVE has no quantity of its own: it is checked with the
     * order's total quantity, and the quantity-only checks are REPLACE's alone.
     */
    private RejectReason amendmentCheck(final Command c, final Sym sym, final Acct acct, final Ord o,
                                        final long price, final long quantity, final boolean isReplace) {
        if (!validPrice(price)) {
            return RejectReason.INVALID_PRICE;
        }
        if (isReplace && c.newClientOrderId != 0 && c.newClientOrderId != o.clientId
            && findByClientId(o.account, c.newClientOrderId) != null) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        if (on(RiskCheck.HALT) && sym.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (on(RiskCheck.KILL_SWITCH) && acct.killSwitch) {
            return RejectReason.KILL_SWITCH_ACTIVE;
        }
        if (on(RiskCheck.TICK_AND_LOT)) {
            if (isReplace && quantity % sym.lot != 0) {
                return RejectReason.QUANTITY_NOT_ON_LOT;
            }
            if (price % sym.tick != 0) {
                return RejectReason.PRICE_NOT_ON_TICK;
            }
        }
        if (on(RiskCheck.PRICE_BAND) && outsideBand(sym, price)) {
            return RejectReason.PRICE_OUTSIDE_BAND;
        }
        if (isReplace && on(RiskCheck.MAX_ORDER_QUANTITY) && acct.maxOrderQuantity > 0 && quantity > acct.maxOrderQuantity) {
            return RejectReason.MAX_ORDER_QUANTITY_EXCEEDED;
        }
        if (on(RiskCheck.MAX_ORDER_NOTIONAL) && acct.maxOrderNotional > 0
            && big(price).multiply(big(quantity)).compareTo(big(acct.maxOrderNotional)) > 0) {
            return RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED;
        }
        if (isReplace && quantity <= o.cum) {
            return RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }
        if (o.postOnly && wouldCross(sym, o.side, price)) {
            return RejectReason.POST_ONLY_WOULD_TAKE;
        }
        return null;
    }

    /** MOVE, and REPLACE when it cannot stay in place: leave the level, match at the new price, rest at the back. */
    private void reprice(final Sym sym, final Ord o, final long price, final long quantity, final Result r) {
        touch(r, o);
        sym.orders.remove(o);
        o.price = price;
        o.quantity = quantity;
        o.leaves = quantity - o.cum;
        final boolean stoppedBySelfTrade = matchAsTaker(sym, o, true, r);
        finishTaker(sym, o, stoppedBySelfTrade, true, r);
    }

    private void massCancel(final Command c, final Result r) {
        if (!accounts.containsKey(c.account)) {
            reject(c, r, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        if (c.symbol != Command.ALL_SYMBOLS && !symbols.containsKey(c.symbol)) {
            reject(c, r, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        final List<Ord> victims = ordersOf(c.account, c.symbol);
        for (final Ord o : victims) {
            removeWithCancel(o, CancelReason.MASS_CANCEL, r);
        }
        admin(c, r, victims.size());
    }

    private void killSwitch(final Command c, final Result r) {
        final Acct acct = accounts.get(c.account);
        if (acct == null) {
            reject(c, r, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        int removed = 0;
        if (c.type == CommandType.KILL_SWITCH_ON) {
            acct.killSwitch = true;
            final List<Ord> victims = ordersOf(c.account, 0);
            for (final Ord o : victims) {
                removeWithCancel(o, CancelReason.KILL_SWITCH, r);
            }
            removed = victims.size();
        } else {
            acct.killSwitch = false;
        }
        admin(c, r, removed);
    }

    private void halt(final Command c, final Result r) {
        final Sym sym = symbols.get(c.symbol);
        if (sym == null) {
            reject(c, r, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        sym.halted = c.type == CommandType.HALT;
        admin(c, r, 0);
    }

    private void endOfDay(final Command c, final Result r) {
        if (c.symbol != Command.ALL_SYMBOLS && !symbols.containsKey(c.symbol)) {
            reject(c, r, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        int expired = 0;
        for (final Sym sym : symbols.values()) {
            if (c.symbol != Command.ALL_SYMBOLS && sym.id != c.symbol) {
                continue;
            }
            for (final Side side : new Side[] {Side.BUY, Side.SELL}) {
                // Collect first: removing while walking would reshape the levels being walked.
                final List<Ord> victims = new ArrayList<>();
                for (final long price : levelPrices(sym, side)) {
                    for (final Ord o : level(sym, side, price)) {
                        if (o.tif == TimeInForce.DAY) {
                            victims.add(o);
                        }
                    }
                }
                for (final Ord o : victims) {
                    removeWithCancel(o, CancelReason.END_OF_DAY, r);
                }
                expired += victims.size();
            }
        }
        admin(c, r, expired);
    }

    private void setReferencePrice(final Command c, final Result r) {
        final Sym sym = symbols.get(c.symbol);
        if (sym == null) {
            reject(c, r, RejectReason.UNKNOWN_SYMBOL);
            return;
        }
        if (!validPrice(c.price)) {
            reject(c, r, RejectReason.INVALID_PRICE);
            return;
        }
        sym.referencePrice = c.price;
        admin(c, r, 0);
        r.price = c.price;
    }

    private void setAccountLimits(final Command c, final Result r) {
        if (c.maxOrderQuantity < 0 || c.maxOrderNotional < 0 || c.maxOpenOrders < 0) {
            reject(c, r, RejectReason.INVALID_QUANTITY);
            return;
        }
        if (c.selfTradePrevention == null) {
            reject(c, r, RejectReason.INVALID_ORDER);
            return;
        }
        final Acct acct = accounts.get(c.account);
        if (acct == null) {
            accounts.put(c.account, new Acct(c.account, c.maxOrderQuantity, c.maxOrderNotional, c.maxOpenOrders,
                c.selfTradePrevention));
        } else {
            // The kill switch is not a limit: it stays as it was.
            acct.maxOrderQuantity = c.maxOrderQuantity;
            acct.maxOrderNotional = c.maxOrderNotional;
            acct.maxOpenOrders = c.maxOpenOrders;
            acct.selfTradePrevention = c.selfTradePrevention;
        }
        admin(c, r, 0);
    }

    // ------------------------------------------------------------------ money

    /** DEPOSIT, WITHDRAW and ADJUST: the six checks in the spec's order, then the balance moves. */
    private void money(final Command c, final Result r) {
        final Acct acct = accountOf(c);
        if (acct == null) {
            reject(c, r, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        if (!assets.containsKey(c.symbol)) {
            reject(c, r, RejectReason.UNKNOWN_ASSET);
            return;
        }
        final Balance b = balance(acct.id, c.symbol);
        final BigInteger amount = big(c.quantity);
        final BigInteger after = c.type == CommandType.WITHDRAW ? big(b.available).subtract(amount) : big(b.available).add(amount);
        final RejectReason why;
        if (c.clientOrderId <= 0) {
            why = RejectReason.INVALID_REFERENCE;
        } else if ((c.type == CommandType.ADJUST ? c.quantity == 0 : c.quantity <= 0) || after.compareTo(LONG_MAX) > 0
            || (c.type != CommandType.WITHDRAW && netDeposits(c.symbol).add(amount).compareTo(LONG_MAX) > 0)) {
            why = RejectReason.INVALID_AMOUNT;
        } else if (after.signum() < 0) {
            why = RejectReason.INSUFFICIENT_FUNDS;
        } else if (references.contains(c.clientOrderId)) {
            why = RejectReason.DUPLICATE_REFERENCE;
        } else {
            why = null;
        }
        if (why != null) {
            reject(c, r, why);
            if (why == RejectReason.INSUFFICIENT_FUNDS) {
                r.fundsNeeded = saturate(amount.abs());
            }
        } else {
            references.add(c.clientOrderId);
            b.available = after.longValueExact();
            final TreeMap<Integer, BigInteger> total = switch (c.type) {
                case DEPOSIT -> deposited;
                case WITHDRAW -> withdrawn;
                default -> adjusted;
            };
            total.merge(c.symbol, amount, BigInteger::add);
            r.account = c.account;
            r.symbol = c.symbol;
            r.clientOrderId = c.clientOrderId;
            r.quantity = c.quantity;
            r.orderStatus = OrderStatus.NONE;
        }
        r.balanceAvailable = b.available;
        r.balanceHeld = b.held;
    }

    /** BALANCE: an account that exists, an asset that exists; nothing changes, nobody is created. */
    private void balance(final Command c, final Result r) {
        if (!accounts.containsKey(c.account)) {
            reject(c, r, RejectReason.UNKNOWN_ACCOUNT);
            return;
        }
        if (!assets.containsKey(c.symbol)) {
            reject(c, r, RejectReason.UNKNOWN_ASSET);
            return;
        }
        final Balance b = balance(c.account, c.symbol);
        r.account = c.account;
        r.symbol = c.symbol;
        r.clientOrderId = c.clientOrderId;
        r.quantity = c.quantity;
        r.orderStatus = OrderStatus.NONE;
        r.balanceAvailable = b.available;
        r.balanceHeld = b.held;
    }

    /** The lowest price whose proceeds, price x quoteScale, pay the taker fee; at least 1. */
    private static long lowestPayingPrice(final Sym sym) {
        final BigInteger[] qr = sym.takerFee.divideAndRemainder(sym.quoteScale);
        final long ceiling = qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
        return Math.max(1, ceiling);
    }

    /** FUNDS is on and the symbol names assets: its orders are paid for. */
    private boolean paysFor(final Sym sym) {
        return on(RiskCheck.FUNDS) && sym.base != 0;
    }

    private static int holdAsset(final Sym sym, final Side side) {
        return side == Side.BUY ? sym.quote : sym.base;
    }

    /** Step 15's refusals before any balance is looked at: an ask below the fee, a reserve price where none may be. */
    private static RejectReason unpayable(final Command c, final Sym sym) {
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = c.timeInForce == TimeInForce.FOK_BUDGET;
        if (c.side == Side.SELL) {
            // The fee an ask's proceeds must pay: on one unit at its price, or, for a budget, on its whole quantity.
            final BigInteger fee = budget ? sym.takerFee.multiply(big(c.quantity)) : sym.takerFee;
            return !market && big(c.price).multiply(sym.quoteScale).compareTo(fee) < 0 ? RejectReason.INVALID_PRICE : null;
        }
        if (c.reservePrice != 0 && (market || (budget && c.reservePrice != c.price) || c.reservePrice < c.price)) {
            return RejectReason.INVALID_RESERVE_PRICE;
        }
        return null;
    }

    /** What an accepted new order would hold, exactly (it may be past a long, and then nobody can pay it). */
    private BigInteger initialHold(final Command c, final Sym sym) {
        final BigInteger qty = big(c.quantity);
        if (c.side == Side.SELL) {
            return qty.multiply(sym.baseScale);
        }
        if (c.timeInForce == TimeInForce.FOK_BUDGET) {
            return big(c.price).multiply(sym.quoteScale).add(qty.multiply(sym.takerFee));
        }
        if (c.orderType == OrderType.MARKET) {
            return marketBidCost(sym, c.account, c.quantity);
        }
        return need(sym, Side.BUY, c.quantity, c.reservePrice != 0 ? c.reservePrice : c.price);
    }

    /** A market bid's hold: the asks taken as the fill-or-kill walk would take them, at their prices plus the taker fee. */
    private BigInteger marketBidCost(final Sym sym, final long account, final long quantity) {
        final SelfTradePrevention mode = selfTradeModeInForce(account);
        long needed = quantity;
        BigInteger cost = BigInteger.ZERO;
        for (final long price : levelPrices(sym, Side.SELL)) {
            for (final Ord maker : level(sym, Side.SELL, price)) {
                if (mode != SelfTradePrevention.OFF && maker.account == account) {
                    if (mode == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    return cost;
                }
                final long take = Math.min(needed, maker.leaves);
                needed -= take;
                cost = cost.add(big(take).multiply(big(price).multiply(sym.quoteScale).add(sym.takerFee)));
                if (needed == 0) {
                    return cost;
                }
            }
        }
        return cost;
    }

    /** What a resting order with these leaves must hold: a bid its leaves at the hold price plus the taker fee, an ask its base. */
    private static BigInteger need(final Sym sym, final Side side, final long leaves, final long holdPrice) {
        if (side == Side.SELL) {
            return big(leaves).multiply(sym.baseScale);
        }
        return big(leaves).multiply(big(holdPrice).multiply(sym.quoteScale).add(sym.takerFee));
    }

    /**
     * MOVE, and REPLACE when it loses priority: the order may need more at its new price and leaves.
     * False (with the reject filled in) when the account cannot pay the difference.
     */
    private boolean payForAmendment(final Command c, final Result r, final Sym sym, final Ord o, final long price,
                                    final long quantity) {
        if (!paysFor(sym)) {
            return true;
        }
        if (o.side == Side.SELL && big(price).multiply(sym.quoteScale).compareTo(sym.takerFee) < 0) {
            reject(c, r, RejectReason.INVALID_PRICE);
            return false;
        }
        final boolean keepsReserve = o.side == Side.BUY && o.reserved && price <= o.holdPrice;
        final long holdPrice = o.side == Side.SELL ? 0 : keepsReserve ? o.holdPrice : price;
        // A need of Long.MAX_VALUE or more cannot be paid at all (the spec); below that the difference to what is held.
        final BigInteger needs = need(sym, o.side, quantity - o.cum, holdPrice);
        final boolean unpayable = needs.compareTo(LONG_MAX) >= 0;
        final long more = saturate(needs) - o.held;
        final Balance b = balance(o.account, holdAsset(sym, o.side));
        if (unpayable || (more > 0 && more > b.available)) {
            reject(c, r, RejectReason.INSUFFICIENT_FUNDS);
            r.fundsNeeded = unpayable ? Long.MAX_VALUE : more;
            r.balanceAvailable = b.available;
            return false;
        }
        if (o.side == Side.BUY) {
            // Above its reserve the bid holds at its new price, which is no reserve: it follows its price from then on
            // (clarification 11).
            o.reserved = keepsReserve;
            o.holdPrice = holdPrice;
        }
        if (more > 0) {
            hold(sym, o, more);
        }
        return true;
    }

    /** Moves an amount of the order's asset from its account's available to held, and to the order. */
    private void hold(final Sym sym, final Ord o, final long amount) {
        final Balance b = balance(o.account, holdAsset(sym, o.side));
        b.available = Math.subtractExact(b.available, amount);
        b.held = Math.addExact(b.held, amount);
        o.held = Math.addExact(o.held, amount);
    }

    /** Gives an amount the order holds back to its account's available. */
    private void release(final Sym sym, final Ord o, final long amount) {
        if (amount == 0) {
            return;
        }
        if (amount < 0 || amount > o.held) {
            throw new AssertionError("order " + o.id + " would give back " + amount + " of the " + o.held + " it holds");
        }
        final Balance b = balance(o.account, holdAsset(sym, o.side));
        b.held = Math.subtractExact(b.held, amount);
        b.available = Math.addExact(b.available, amount);
        o.held -= amount;
    }

    /** Gives back what the order holds beyond what its leaves need (everything at 0 leaves). */
    private void releaseExcess(final Sym sym, final Ord o) {
        if (!paysFor(sym)) {
            return;
        }
        final BigInteger excess = big(o.held).subtract(need(sym, o.side, o.leaves, o.holdPrice));
        if (excess.signum() < 0) {
            throw new AssertionError("order " + o.id + " holds " + o.held + ", less than its leaves " + o.leaves + " need");
        }
        release(sym, o, excess.longValueExact());
    }

    /** One fill of q at price p: the buyer pays from what the bid holds, the seller delivers from what the ask holds, fees collected. */
    private void settle(final Sym sym, final Ord taker, final Ord maker, final long q, final long p) {
        if (!paysFor(sym)) {
            return;
        }
        final Ord buyer = taker.side == Side.BUY ? taker : maker;
        final Ord seller = buyer == taker ? maker : taker;
        final BigInteger qty = big(q);
        final BigInteger value = qty.multiply(big(p)).multiply(sym.quoteScale);
        final BigInteger buyerFee = buyer == taker ? sym.takerFee : sym.makerFee;
        final BigInteger sellerFee = seller == taker ? sym.takerFee : sym.makerFee;
        final long paid = value.add(qty.multiply(buyerFee)).longValueExact();
        final long delivered = qty.multiply(sym.baseScale).longValueExact();
        final Balance buyerQuote = balance(buyer.account, sym.quote);
        buyerQuote.held = Math.subtractExact(buyerQuote.held, paid);
        buyer.held = Math.subtractExact(buyer.held, paid);
        final Balance buyerBase = balance(buyer.account, sym.base);
        buyerBase.available = Math.addExact(buyerBase.available, delivered);
        final Balance sellerBase = balance(seller.account, sym.base);
        sellerBase.held = Math.subtractExact(sellerBase.held, delivered);
        seller.held = Math.subtractExact(seller.held, delivered);
        final Balance sellerQuote = balance(seller.account, sym.quote);
        sellerQuote.available = Math.addExact(sellerQuote.available, value.subtract(qty.multiply(sellerFee)).longValueExact());
        fees.merge(sym.quote, qty.multiply(sym.takerFee.add(sym.makerFee)), BigInteger::add);
        if (buyer.held < 0 || seller.held < 0) {
            throw new AssertionError("a fill took more than an order held: buyer " + buyer.id + " " + buyer.held
                + ", seller " + seller.id + " " + seller.held);
        }
        if (maker == buyer) {
            releaseExcess(sym, maker);
        }
    }

    /** The account's amounts of an asset, created at 0 and 0 on first look. */
    private Balance balance(final long account, final int asset) {
        return accounts.get(account).balances.computeIfAbsent(asset, k -> new Balance());
    }

    private static long saturate(final BigInteger v) {
        return v.compareTo(LONG_MAX) > 0 ? Long.MAX_VALUE : v.longValueExact();
    }

    // ------------------------------------------------------------------ matching

    /**
     * Matches {@code taker} (already off the book) against the opposite side. Returns true when
     * self-trade prevention stopped it, which decides what happens to its remainder.
     */
    private boolean matchAsTaker(final Sym sym, final Ord taker, final boolean hasLimit, final Result r) {
        final SelfTradePrevention mode = selfTradeModeInForce(taker.account);
        final Side opposite = taker.side.opposite();
        while (taker.leaves > 0) {
            final long best = bestPrice(sym, opposite);
            if (best == NO_PRICE || (hasLimit && worseThanLimit(taker.side, best, taker.price)) || best < taker.floor) {
                return false;
            }
            final Ord maker = level(sym, opposite, best).get(0);
            if (mode != SelfTradePrevention.OFF && maker.account == taker.account) {
                if (mode == SelfTradePrevention.CANCEL_INCOMING) {
                    return true;
                }
                removeWithCancel(maker, CancelReason.SELF_TRADE_PREVENTION, r);
                if (mode == SelfTradePrevention.CANCEL_BOTH) {
                    return true;
                }
                continue;
            }
            final long qty = Math.min(taker.leaves, maker.leaves);
            taker.leaves -= qty;
            taker.cum += qty;
            maker.leaves -= qty;
            maker.cum += qty;
            touch(r, maker);
            final Fill f = r.addFill();
            f.tradeId = ++lastTradeId;
            f.price = maker.price;
            f.quantity = qty;
            f.takerOrderId = taker.id;
            f.takerAccount = taker.account;
            f.takerClientOrderId = taker.clientId;
            f.takerSide = taker.side;
            f.takerLeavesQuantity = taker.leaves;
            f.takerCumulativeQuantity = taker.cum;
            f.makerOrderId = maker.id;
            f.makerAccount = maker.account;
            f.makerClientOrderId = maker.clientId;
            f.makerLeavesQuantity = maker.leaves;
            f.makerCumulativeQuantity = maker.cum;
            sym.referencePrice = maker.price;
            settle(sym, taker, maker, qty, maker.price);
            if (maker.leaves == 0) {
                maker.filledOut = true;
                sym.orders.remove(maker);
            }
            if (taker.leaves == 0) {
                taker.filledOut = true;
            }
        }
        return false;
    }

    /** After matching: the taker's remainder is cancelled for self-trade, rests, or is cancelled as unfilled. */
    private void finishTaker(final Sym sym, final Ord o, final boolean stoppedBySelfTrade, final boolean mayRest,
                             final Result r) {
        if (o.leaves > 0) {
            if (stoppedBySelfTrade) {
                addCancel(r, o, o.leaves, 0, CancelReason.SELF_TRADE_PREVENTION);
                o.leaves = 0;
            } else if (mayRest) {
                o.seq = ++lastSeq;
                sym.orders.add(o);
                touch(r, o);
            } else {
                addCancel(r, o, o.leaves, 0, CancelReason.UNFILLED_REMAINDER);
                o.leaves = 0;
            }
        }
        // A resting taker keeps what its leaves need; one that does not rest has leaves 0 and so keeps nothing.
        releaseExcess(sym, o);
    }

    /** The fill-or-kill walk: the same path matching would take, changing nothing. */
    private boolean canFillCompletely(final Sym sym, final Ord taker, final boolean hasLimit, final boolean budget) {
        final SelfTradePrevention mode = selfTradeModeInForce(taker.account);
        final Side opposite = taker.side.opposite();
        long needed = taker.leaves;
        BigInteger cost = BigInteger.ZERO;
        walk:
        for (final long price : levelPrices(sym, opposite)) {
            if ((hasLimit && worseThanLimit(taker.side, price, taker.price)) || price < taker.floor) {
                break;
            }
            for (final Ord maker : level(sym, opposite, price)) {
                if (mode != SelfTradePrevention.OFF && maker.account == taker.account) {
                    if (mode == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    break walk;
                }
                final long take = Math.min(needed, maker.leaves);
                needed -= take;
                cost = cost.add(big(price).multiply(big(take)));
                if (needed == 0) {
                    break walk;
                }
            }
        }
        if (needed > 0) {
            return false;
        }
        if (!budget) {
            return true;
        }
        final int cmp = cost.compareTo(big(taker.price));
        return taker.side == Side.BUY ? cmp <= 0 : cmp >= 0;
    }

    /** OFF when the check is switched off, so a switched-off check means everyone trades with themselves. */
    private SelfTradePrevention selfTradeModeInForce(final long account) {
        return on(RiskCheck.SELF_TRADE_PREVENTION) ? accounts.get(account).selfTradePrevention : SelfTradePrevention.OFF;
    }

    private static boolean worseThanLimit(final Side takerSide, final long levelPrice, final long limit) {
        return takerSide == Side.BUY ? levelPrice > limit : levelPrice < limit;
    }

    private boolean wouldCross(final Sym sym, final Side side, final long price) {
        final long best = bestPrice(sym, side.opposite());
        if (best == NO_PRICE) {
            return false;
        }
        return side == Side.BUY ? price >= best : price <= best;
    }

    // ------------------------------------------------------------------ book and result helpers

    private void removeWithCancel(final Ord o, final CancelReason reason, final Result r) {
        touch(r, o);
        symbols.get(o.symbol).orders.remove(o);
        addCancel(r, o, o.leaves, 0, reason);
        o.leaves = 0;
        release(symbols.get(o.symbol), o, o.held);
    }

    private static void touch(final Result r, final Ord o) {
        r.levelChange(o.symbol, o.side, o.price);
    }

    private static void addCancel(final Result r, final Ord o, final long quantity, final long leavesAfter,
                                  final CancelReason reason) {
        final Cancel x = r.addCancel();
        x.orderId = o.id;
        x.account = o.account;
        x.clientOrderId = o.clientId;
        x.symbol = o.symbol;
        x.side = o.side;
        x.price = o.price;
        x.quantity = quantity;
        x.leavesQuantity = leavesAfter;
        x.cumulativeQuantity = o.cum;
        x.reason = reason;
    }

    /** The subject fields of an accepted order command: the order's state now. */
    private void describe(final Result r, final Ord o) {
        final boolean resting = symbols.get(o.symbol).orders.contains(o);
        r.orderId = o.id;
        r.account = o.account;
        r.clientOrderId = o.clientId;
        r.symbol = o.symbol;
        r.side = o.side;
        r.orderType = OrderType.LIMIT;
        r.timeInForce = o.tif;
        r.price = o.price;
        r.quantity = o.quantity;
        r.leavesQuantity = resting ? o.leaves : 0;
        r.cumulativeQuantity = o.cum;
        if (resting) {
            r.orderStatus = o.cum == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
        } else {
            r.orderStatus = o.filledOut ? OrderStatus.FILLED : OrderStatus.CANCELLED;
        }
    }

    private static void admin(final Command c, final Result r, final int affected) {
        r.account = c.account;
        r.symbol = c.symbol;
        r.orderStatus = OrderStatus.NONE;
        r.affectedOrders = affected;
    }

    private static void reject(final Command c, final Result r, final RejectReason reason) {
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
        r.affectedOrders = 0;
    }

    /** By engine id when given (and only the account's own), else by (account, client id); null when unknown. */
    private Ord find(final Command c) {
        if (!accounts.containsKey(c.account)) {
            return null;
        }
        if (c.orderId != 0) {
            for (final Sym sym : symbols.values()) {
                for (final Ord o : sym.orders) {
                    if (o.id == c.orderId) {
                        return o.account == c.account ? o : null;
                    }
                }
            }
            return null;
        }
        return findByClientId(c.account, c.clientOrderId);
    }

    private Ord findByClientId(final long account, final long clientId) {
        for (final Sym sym : symbols.values()) {
            for (final Ord o : sym.orders) {
                if (o.account == account && o.clientId == clientId) {
                    return o;
                }
            }
        }
        return null;
    }

    /** The account's resting orders (in one symbol, or all when symbol is 0) in engine-id order. */
    private List<Ord> ordersOf(final long account, final int symbol) {
        final List<Ord> out = new ArrayList<>();
        for (final Sym sym : symbols.values()) {
            if (symbol != Command.ALL_SYMBOLS && sym.id != symbol) {
                continue;
            }
            for (final Ord o : sym.orders) {
                if (o.account == account) {
                    out.add(o);
                }
            }
        }
        out.sort(Comparator.comparingLong(o -> o.id));
        return out;
    }

    /** Distinct prices on one side, best first. */
    private static List<Long> levelPrices(final Sym sym, final Side side) {
        final TreeSet<Long> prices = side == Side.BUY ? new TreeSet<>(Comparator.reverseOrder()) : new TreeSet<>();
        for (final Ord o : sym.orders) {
            if (o.side == side) {
                prices.add(o.price);
            }
        }
        return new ArrayList<>(prices);
    }

    private static long bestPrice(final Sym sym, final Side side) {
        long best = NO_PRICE;
        for (final Ord o : sym.orders) {
            if (o.side == side && (best == NO_PRICE || (side == Side.BUY ? o.price > best : o.price < best))) {
                best = o.price;
            }
        }
        return best;
    }

    /** The queue at one price, oldest first. */
    private static List<Ord> level(final Sym sym, final Side side, final long price) {
        final List<Ord> out = new ArrayList<>();
        for (final Ord o : sym.orders) {
            if (o.side == side && o.price == price) {
                out.add(o);
            }
        }
        out.sort(Comparator.comparingLong(o -> o.seq));
        return out;
    }

    private boolean outsideBand(final Sym sym, final long price) {
        if (sym.bandBasisPoints <= 0 || sym.referencePrice <= 0) {
            return false;
        }
        final BigInteger distance = big(price).subtract(big(sym.referencePrice)).abs().multiply(TEN_THOUSAND);
        return distance.compareTo(big(sym.referencePrice).multiply(big(sym.bandBasisPoints))) > 0;
    }

    private boolean on(final RiskCheck check) {
        return (riskChecks & check.bit()) != 0;
    }

    private static boolean validQuantity(final long q) {
        return q >= 1 && q <= Command.MAX_QUANTITY;
    }

    private static boolean validPrice(final long p) {
        return p >= 1 && p <= Command.MAX_PRICE;
    }

    private static BigInteger big(final long v) {
        return BigInteger.valueOf(v);
    }

    // ------------------------------------------------------------------ queries

    private Sym sym(final int symbol) {
        final Sym sym = symbols.get(symbol);
        if (sym == null) {
            throw new IllegalArgumentException("unknown symbol " + symbol);
        }
        return sym;
    }

    public long bestBid(final int symbol) {
        return bestPrice(sym(symbol), Side.BUY);
    }

    public long bestAsk(final int symbol) {
        return bestPrice(sym(symbol), Side.SELL);
    }

    public int levelCount(final int symbol, final Side side) {
        return levelPrices(sym(symbol), side).size();
    }

    /** Price of the level at depth (0 = best). */
    public long levelPrice(final int symbol, final Side side, final int depth) {
        return levelPrices(sym(symbol), side).get(depth);
    }

    public long levelQuantity(final int symbol, final Side side, final int depth) {
        long qty = 0;
        for (final Ord o : level(sym(symbol), side, levelPrice(symbol, side, depth))) {
            qty += o.leaves;
        }
        return qty;
    }

    public int levelOrderCount(final int symbol, final Side side, final int depth) {
        return level(sym(symbol), side, levelPrice(symbol, side, depth)).size();
    }

    /** Resting orders of one symbol, both sides. */
    public int restingOrders(final int symbol) {
        return sym(symbol).orders.size();
    }

    /** Configured asset ids, ascending. */
    public List<Integer> assetIds() {
        return new ArrayList<>(assets.keySet());
    }

    /** Ids of every account that exists, ascending. */
    public List<Long> accountIds() {
        return new ArrayList<>(accounts.keySet());
    }

    private Balance peek(final long account, final int asset) {
        final Acct acct = accounts.get(account);
        final Balance b = acct == null ? null : acct.balances.get(asset);
        return b == null ? new Balance() : b;
    }

    public long available(final long account, final int asset) {
        return peek(account, asset).available;
    }

    public long held(final long account, final int asset) {
        return peek(account, asset).held;
    }

    public BigInteger feesCollected(final int asset) {
        return fees.get(asset);
    }

    public BigInteger deposited(final int asset) {
        return deposited.get(asset);
    }

    public BigInteger withdrawn(final int asset) {
        return withdrawn.get(asset);
    }

    /** Deposited minus withdrawn plus adjusted: what the asset's balances and fees must add up to. */
    public BigInteger netDeposits(final int asset) {
        return deposited.get(asset).subtract(withdrawn.get(asset)).add(adjusted.get(asset));
    }

    /** The account's self-trade mode, or null for an account that does not exist (yet). */
    public SelfTradePrevention selfTradePrevention(final long account) {
        final Acct acct = accounts.get(account);
        return acct == null ? null : acct.selfTradePrevention;
    }
}
