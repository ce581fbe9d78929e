package io.chronex.engine.reference.spec;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Cancel;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Fill;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded stream of realistic commands for the differential test: three symbols with different
 * tick, lot and band settings, eight accounts covering every self-trade mode and limit, prices
 * clustered around a drifting mid so orders cross often, amendments aimed mostly at live orders,
 * every admin command, a small share of bad input, and a smaller share of valid extremes (prices
 * and quantities at the limits, fill-or-kill orders sized exactly at the edge of what the book
 * holds, client ids of orders that have just gone).
 *
 * <p>Money: the second and third symbols are paid for in assets (the third with scales and a fee at
 * their configured maximum, so holds at extreme prices saturate), the first moves none. Accounts are
 * funded at the start and topped up now and then; account 4 is kept poor, so its orders, moves and
 * replaces meet INSUFFICIENT_FUNDS. Deposits, withdrawals and adjustments come good and bad (refused,
 * duplicate, non-positive references, unknown assets and accounts, amounts at and past a long), and
 * orders are sized to use exactly what an account has, or one unit more, from the balance a money
 * command's result has just reported.
 *
 * <p>The stream learns which orders are live from the results it is shown ({@link #observe}), never
 * from either engine's internals, so it drives both the same way.
 */
public final class SpecCommandStream {
    /**
     * Symbol ids are unsorted and one is negative (only 0 is reserved), so "every symbol in ascending
     * id" means something. Ticks 1, 5, 25; lots 1, 10, 1; no band, a 5% band, and a 10% band that is
     * inactive until the first trade or reference price.
     */
    static final int[] SYMBOLS = {2, 65_539, -4};
    static final long[] TICK = {1, 5, 25};
    static final long[] LOT = {1, 10, 1};
    private static final long[] BAND_BASIS_POINTS = {0, 500, 1_000};
    /** Mids start on a multiple of 1024 ticks, where a paged price ladder turns a page. */
    private static final long[] START_MID = {10_240, 51_200, 102_400};
    /** Orders each symbol should hold by default, roughly: more than this and cancels get likelier. */
    static final int USUAL_LIVE_PER_SYMBOL = 110;

    /**
     * Accounts: the first five are configured; 0, Long.MAX_VALUE and -6 appear on first use (or
     * through SET_ACCOUNT_LIMITS when first use is off). Ids are opaque longs: nothing reserves 0.
     */
    static final long[] ACCOUNTS = {1, 2, 3, 4, 5, 0, Long.MAX_VALUE, -6};
    /** Client ids per account start here and step by CLIENT_ID_STEP, reaching both ends of a long. */
    private static final long[] CLIENT_ID_BASE = {1, 1, 1, 1, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE};
    private static final long[] CLIENT_ID_STEP = {1, 1, 1, 1, 1, -1, -1, 1};
    static final long NEVER_AN_ACCOUNT = 9;
    static final int[] UNKNOWN_SYMBOLS = {3, -2, Integer.MAX_VALUE};
    private static final int DEAD_KEPT = 64;

    /** USD (cents), BTC, ETH, and XTRA, which no symbol trades: deposits and withdrawals only. */
    static final int USD = 1;
    static final int BTC = 2;
    static final int ETH = 3;
    static final int XTRA = 7;
    static final int[] ASSETS = {USD, BTC, ETH, XTRA};
    static final int[] UNKNOWN_ASSETS = {0, 4, -1, Integer.MAX_VALUE};
    /** Per symbol: base and quote asset (0: none), scales and fees. The third is at the configured maxima. */
    private static final int[] BASE = {0, BTC, ETH};
    private static final int[] QUOTE = {0, USD, USD};
    private static final long[] BASE_SCALE = {1, 1_000, SymbolSpec.MAX_SCALE};
    private static final long[] QUOTE_SCALE = {1, 1, 1_000_000};
    private static final long[] TAKER_FEE = {0, 10, SymbolSpec.MAX_SCALE};
    private static final long[] MAKER_FEE = {0, 3, 250_000_000};
    /** A typical amount of each asset (index as ASSETS) that orders use: deposits are sized from it. */
    private static final long[] TYPICAL = {1_000_000_000_000_000L, 10_000_000_000L, 1_000_000_000_000_000L, 1_000_000};
    /** The poor account: funded with little, never topped up by a rejection. */
    private static final int POOR = 3;
    /** Accounts money commands name that orders never do: created by a deposit when accounts come on first use. */
    private static final long[] MONEY_ONLY_ACCOUNTS = {11, -12};
    private static final int REFERENCES_KEPT = 32;

    /** A live order as the results describe it. */
    private static final class Live {
        long orderId;
        long account;
        long clientId;
        int symbolIndex;
        Side side;
        long price;
        long quantity;
        long cum;

        long leaves() {
            return quantity - cum;
        }
    }

    /** An order that has left the book: its ids are worth reusing and aiming at. */
    private record Dead(long orderId, long account, long clientId) {
    }

    private final SplittableRandom rnd;
    private final int targetLivePerSymbol;
    private final int riskChecks;
    private final EngineConfig config;
    private final long[] mid = START_MID.clone();
    /** Each symbol's reference price as the results tell it: the configured one, then trades and SET_REFERENCE_PRICE. */
    private final long[] referencePrice = {0, START_MID[1], 0};
    private final long[] clientIdsIssued = new long[ACCOUNTS.length];
    private final boolean[] killSwitch = new boolean[ACCOUNTS.length];
    private final boolean[] halted = new boolean[SYMBOLS.length];

    /** Live orders for O(1) random picks: a list plus each order's index in it (looked up, never iterated). */
    private final List<Live> live = new ArrayList<>();
    private final Map<Long, Integer> liveIndex = new HashMap<>();
    private final Dead[] dead = new Dead[DEAD_KEPT];
    private int deadCount;

    /** Deposits that fund the accounts before anything else: account index, asset, amount. */
    private final ArrayDeque<long[]> funding = new ArrayDeque<>();
    /** A deposit owed to an account whose order was refused for want of funds: account, asset, amount; null when none. */
    private long[] topUp;
    private long nextReference = 1;
    private final long[] appliedReferences = new long[REFERENCES_KEPT];
    private int appliedCount;
    /** The balance the last result reported (a money command's, or an INSUFFICIENT_FUNDS refusal's), valid for one command. */
    private boolean balanceFresh;
    private long balanceAccount;
    private int balanceAsset;
    private long balanceAvailable;

    /**
     * A plan over several commands: learn a balance, set it to exactly what an order will hold (or one
     * less), place the order, maybe try to move or replace it for more; or fill an account's XTRA up to
     * Long.MAX_VALUE and back.
     */
    private int planStep;
    private static final int PLAN_NONE = 0;
    private static final int PLAN_EXACT_PROBED = 1;
    private static final int PLAN_EXACT_SET = 2;
    private static final int PLAN_EXACT_PLACED = 3;
    private static final int PLAN_EXACT_AMEND = 4;
    private static final int PLAN_MAX_FILLED = 5;
    /** Deposited - withdrawn + adjusted of XTRA, from the results: XTRA is never traded, so this is all of it. */
    private long xtraTotal;
    private final Command planOrder = new Command();
    private int planAccount;
    private int planSymbol;
    private long planHold;
    private boolean planOneMore;
    private long planTarget;
    /** How the planned orders came out: accepted using every unit available; refused one unit short. */
    private int exactAccepted;
    private int exactOneShort;
    private int amendRefused;

    /**
     * @param riskChecks bits of {@link RiskCheck}
     * @param createAccountsOnFirstUse when false, the last three accounts exist only once SET_ACCOUNT_LIMITS creates them
     */
    public SpecCommandStream(final long seed, final int riskChecks, final boolean createAccountsOnFirstUse) {
        this(seed, riskChecks, createAccountsOnFirstUse, USUAL_LIVE_PER_SYMBOL);
    }

    /** @param targetLivePerSymbol roughly how many orders each symbol's book settles at */
    public SpecCommandStream(final long seed, final int riskChecks, final boolean createAccountsOnFirstUse,
                             final int targetLivePerSymbol) {
        rnd = new SplittableRandom(seed);
        this.targetLivePerSymbol = targetLivePerSymbol;
        this.riskChecks = riskChecks;
        config = new EngineConfig(
            List.of(new SymbolSpec(SYMBOLS[0], "ONE", 100, TICK[0], LOT[0], BAND_BASIS_POINTS[0], 0),
                new SymbolSpec(SYMBOLS[1], "FIVE", 100, TICK[1], LOT[1], BAND_BASIS_POINTS[1], START_MID[1])
                    .withAssets(BASE[1], QUOTE[1], BASE_SCALE[1], QUOTE_SCALE[1], TAKER_FEE[1], MAKER_FEE[1]),
                new SymbolSpec(SYMBOLS[2], "QUARTER", 100, TICK[2], LOT[2], BAND_BASIS_POINTS[2], 0)
                    .withAssets(BASE[2], QUOTE[2], BASE_SCALE[2], QUOTE_SCALE[2], TAKER_FEE[2], MAKER_FEE[2])),
            List.of(new AccountSpec(1, 0, 0, 0, SelfTradePrevention.OFF),
                new AccountSpec(2, 400, 0, 0, SelfTradePrevention.CANCEL_RESTING),
                new AccountSpec(3, 0, 20_000_000, 40, SelfTradePrevention.CANCEL_INCOMING),
                new AccountSpec(4, 2_000, 0, 8, SelfTradePrevention.CANCEL_BOTH),
                new AccountSpec(5, 0, 0, 0, SelfTradePrevention.CANCEL_RESTING)),
            riskChecks, createAccountsOnFirstUse,
            new AccountSpec(0, 300, 0, 60, SelfTradePrevention.CANCEL_BOTH),
            List.of(new AssetSpec(USD, "USD", 2), new AssetSpec(BTC, "BTC", 8), new AssetSpec(ETH, "ETH", 18),
                new AssetSpec(XTRA, "XTRA", 0)));
        for (int a = 0; a < ACCOUNTS.length; a++) {
            for (int i = 0; i < ASSETS.length; i++) {
                funding.add(new long[] {a, ASSETS[i], a == POOR ? TYPICAL[i] / 1_000_000_000 : TYPICAL[i] * 10});
            }
        }
    }

    /** How the exactly-funded orders came out, for the coverage check: accepted, refused one unit short, amendments refused. */
    int[] exactFundsOutcomes() {
        return new int[] {exactAccepted, exactOneShort, amendRefused};
    }

    public EngineConfig config() {
        return config;
    }

    static int symbolIndex(final int symbol) {
        for (int i = 0; i < SYMBOLS.length; i++) {
            if (SYMBOLS[i] == symbol) {
                return i;
            }
        }
        return -1;
    }

    private static int accountIndex(final long account) {
        for (int i = 0; i < ACCOUNTS.length; i++) {
            if (ACCOUNTS[i] == account) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ generating

    /** Fills {@code c} with the next command. */
    public void next(final Command c) {
        final boolean fresh = balanceFresh;
        balanceFresh = false;
        if (!funding.isEmpty()) {
            final long[] f = funding.poll();
            c.money(CommandType.DEPOSIT, ACCOUNTS[(int) f[0]], (int) f[1], f[2], nextReference++);
            return;
        }
        if (planStep != PLAN_NONE && planned(c, fresh)) {
            return;
        }
        if (topUp != null) {
            c.money(CommandType.DEPOSIT, topUp[0], (int) topUp[1], topUp[2], nextReference++);
            topUp = null;
            return;
        }
        driftMids();
        // Halts and kill switches are lifted soon, or they would block most of the stream.
        for (int i = 0; i < SYMBOLS.length; i++) {
            if (halted[i] && rnd.nextInt(150) == 0) {
                c.symbolCommand(CommandType.RESUME, SYMBOLS[i]);
                return;
            }
        }
        for (int i = 0; i < ACCOUNTS.length; i++) {
            if (killSwitch[i] && rnd.nextInt(150) == 0) {
                c.accountCommand(CommandType.KILL_SWITCH_OFF, ACCOUNTS[i]);
                return;
            }
        }
        final int roll = rnd.nextInt(1000);
        // Cancels grow likelier as the books fill, so the books settle instead of growing without bound.
        final int cancelShare = Math.min(260, 60 * USUAL_LIVE_PER_SYMBOL / targetLivePerSymbol
            + live.size() * 70 / (targetLivePerSymbol * SYMBOLS.length));
        if (roll < 25) {
            badInput(c);
        } else if (roll < 35) {
            admin(c);
        } else if (roll < 62) {
            money(c);
        } else if (roll < 65) {
            balance(c);
        } else if (roll < 65 + cancelShare) {
            cancel(c);
        } else if (roll < 65 + cancelShare + 70) {
            replace(c);
        } else if (roll < 65 + cancelShare + 120) {
            reduce(c);
        } else if (roll < 65 + cancelShare + 190) {
            move(c);
        } else {
            newOrder(c);
        }
        if (rnd.nextInt(50) == 0) {
            addNoise(c);
        }
    }

    private void driftMids() {
        for (int s = 0; s < SYMBOLS.length; s++) {
            if (rnd.nextInt(40) == 0) {
                mid[s] = Math.max(TICK[s] * 50, mid[s] + TICK[s] * (rnd.nextBoolean() ? 1 : -1));
            }
        }
    }

    private boolean riskOn(final RiskCheck check) {
        return (riskChecks & check.bit()) != 0;
    }

    private int randomAccount() {
        return rnd.nextInt(ACCOUNTS.length);
    }

    private long freshClientId(final int accountIndex) {
        return CLIENT_ID_BASE[accountIndex] + CLIENT_ID_STEP[accountIndex] * clientIdsIssued[accountIndex]++;
    }

    /** The highest price on the symbol's tick that is still a valid price. */
    private static long maxPriceOnTick(final int s) {
        return Command.MAX_PRICE / TICK[s] * TICK[s];
    }

    /** A price near the symbol's mid: mostly a few ticks on the passive side, sometimes through the spread. */
    private long priceNear(final int s, final Side side) {
        // Deeper books come from fewer orders crossing: up to 3 ticks through the mid usually, 1 for deep books.
        final long through = targetLivePerSymbol > USUAL_LIVE_PER_SYMBOL ? 1 : 3;
        final long ticksAway = (long) Math.floor(Math.abs(rnd.nextDouble() + rnd.nextDouble() + rnd.nextDouble() - 1.5) * 14) - through;
        final long price = Math.max(TICK[s], side == Side.BUY ? mid[s] - ticksAway * TICK[s] : mid[s] + ticksAway * TICK[s]);
        // Without the tick check, off-tick prices are legal and must work like any other.
        return !riskOn(RiskCheck.TICK_AND_LOT) && TICK[s] > 1 && rnd.nextInt(4) == 0 ? price + rnd.nextLong(TICK[s]) : price;
    }

    private long quantity(final int s) {
        final int roll = rnd.nextInt(100);
        final long lots;
        if (roll < 70) {
            lots = 1 + rnd.nextInt(20);
        } else if (roll < 95) {
            lots = 20 + rnd.nextInt(80);
        } else {
            lots = 100 + rnd.nextInt(400);
        }
        final long qty = lots * LOT[s];
        return !riskOn(RiskCheck.TICK_AND_LOT) && LOT[s] > 1 && rnd.nextInt(4) == 0 ? qty + rnd.nextLong(LOT[s]) : qty;
    }

    private void newOrder(final Command c) {
        final int a = randomAccount();
        final int s = rnd.nextInt(SYMBOLS.length);
        final Side side = rnd.nextBoolean() ? Side.BUY : Side.SELL;
        final long qty = quantity(s);
        final long id = freshClientId(a);
        final int flavour = rnd.nextInt(1000);
        if (flavour < 480) {
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.GTC, priceNear(s, side), qty);
        } else if (flavour < 600) {
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.DAY, priceNear(s, side), qty);
        } else if (flavour < 680) {
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.IOC, priceNear(s, side), qty);
        } else if (flavour < 730) {
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.FOK, priceNear(s, side), qty);
        } else if (flavour < 780) {
            // A budget around what the quantity would cost near the mid, so some fit and some do not.
            final long budget = Math.max(1, qty * mid[s] + (rnd.nextInt(41) - 20) * qty * TICK[s] / 4);
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.FOK_BUDGET, budget, qty);
        } else if (flavour < 830) {
            final TimeInForce tif = switch (rnd.nextInt(4)) {
                case 0 -> TimeInForce.GTC;
                case 1 -> TimeInForce.DAY;
                case 2 -> TimeInForce.FOK;
                default -> TimeInForce.IOC;
            };
            // Market orders ignore price; give them an arbitrary one (sometimes 0 or negative) to show it is ignored.
            // Now and then one is larger than the whole opposite side, so its remainder is cancelled.
            final long marketQty = rnd.nextInt(30) == 0 ? 3_000 * LOT[s] : Math.max(LOT[s], qty / 4 / LOT[s] * LOT[s]);
            final long price = switch (rnd.nextInt(4)) {
                case 0 -> 0;
                case 1 -> -rnd.nextInt(1000);
                default -> priceNear(s, side);
            };
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.MARKET, tif, price, marketQty);
        } else if (flavour < 920) {
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT,
                rnd.nextBoolean() ? TimeInForce.GTC : TimeInForce.DAY, priceNear(s, side), qty);
            c.postOnly = true;
        } else if (flavour < 935) {
            bandEdgeOrder(c, s, side, a, id, qty);
        } else if (flavour < 950) {
            // Far from the mid: outside the band where there is one, a deep level where there is not.
            final long far = mid[s] + (side == Side.BUY ? -1 : 1) * (mid[s] / 12 / TICK[s]) * TICK[s];
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.GTC, far, qty);
        } else if (flavour < 975) {
            fillOrKillAtTheEdge(c, s, side, a, id);
        } else {
            extremeOrder(c, s, side, a, id, qty);
        }
        if (side == Side.SELL && s > 0 && rnd.nextInt(60) == 0) {
            askAtTheFee(c, s);
        }
        if (rnd.nextInt(10) == 0) {
            reservePrice(c, s);
        }
        if (rnd.nextInt(16) == 0) {
            // The client id of an order of this account that has gone: free again, unless taken since.
            final Dead d = recentDead(ACCOUNTS[a]);
            if (d != null) {
                c.clientOrderId = d.clientId;
            }
        }
    }

    /**
     * An ask whose price (or budget) times the quote scale is exactly the taker fee, or a unit or tick
     * below it: the lowest ask whose proceeds can pay the fee, and the highest that cannot.
     */
    private void askAtTheFee(final Command c, final int s) {
        c.orderType = OrderType.LIMIT;
        if (rnd.nextBoolean()) {
            c.timeInForce = TimeInForce.FOK_BUDGET;
            c.postOnly = false;
            final long edge = (TAKER_FEE[s] + QUOTE_SCALE[s] - 1) / QUOTE_SCALE[s];
            c.price = edge - rnd.nextInt(2);
        } else {
            c.price = feeEdgePrice(s) - rnd.nextInt(2) * TICK[s];
        }
    }

    /**
     * A reserve price: mostly valid on limit bids (at or above the limit, up to MAX_PRICE), sometimes
     * below the limit, on a market or budget order, past MAX_PRICE or negative; on asks and symbols
     * without assets it means nothing.
     */
    private void reservePrice(final Command c, final int s) {
        c.reservePrice = switch (rnd.nextInt(10)) {
            case 0, 1, 2, 3 -> c.price + rnd.nextInt(6) * TICK[s];
            case 4 -> c.price - TICK[s];
            case 5 -> Command.MAX_PRICE;
            case 6 -> Long.MAX_VALUE;
            case 7 -> -1;
            default -> c.price;
        };
    }

    /**
     * A price on the tick at the edge of the band around the reference price, just inside or one tick
     * outside; null when the symbol has no active band. The band's edge itself is allowed.
     */
    private Long bandEdgePrice(final int s) {
        final long ref = referencePrice[s];
        if (BAND_BASIS_POINTS[s] == 0 || ref <= 0 || ref > Command.MAX_PRICE / 10) {
            return null;
        }
        final long reach = ref * BAND_BASIS_POINTS[s] / 10_000;
        final boolean upper = rnd.nextBoolean();
        final boolean inside = rnd.nextBoolean();
        final long price;
        if (upper) {
            final long edge = (ref + reach) / TICK[s] * TICK[s];
            price = inside ? edge : edge + TICK[s];
        } else {
            final long edge = (ref - reach + TICK[s] - 1) / TICK[s] * TICK[s];
            price = inside ? edge : edge - TICK[s];
        }
        return price >= 1 ? price : null;
    }

    private void bandEdgeOrder(final Command c, final int s, final Side side, final int a, final long id, final long qty) {
        final Long edge = bandEdgePrice(s);
        final long price = edge == null ? priceNear(s, side) : edge;
        // Through the book it would sweep to the edge, so then it is an IOC; on the passive side it rests.
        final boolean aggressive = side == Side.BUY ? price > mid[s] : price < mid[s];
        c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, aggressive ? TimeInForce.IOC : TimeInForce.GTC,
            price, qty);
    }

    /** Valid but extreme: prices at 1 tick or MAX_PRICE, quantities at MAX_QUANTITY; products far past a long. */
    private void extremeOrder(final Command c, final int s, final Side side, final int a, final long id, final long qty) {
        final long lowest = TICK[s];
        final long highest = maxPriceOnTick(s);
        final long maxQty = Command.MAX_QUANTITY / LOT[s] * LOT[s];
        switch (rnd.nextInt(5)) {
            // Passive at the far end: rests on a page of its own, or is outside the band. Sometimes big
            // enough that its price x quantity alone overflows a long, for FOK_BUDGET walks to reach.
            case 0, 1 -> c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.GTC,
                side == Side.BUY ? lowest : highest, rnd.nextBoolean() ? qty : (10_000 + rnd.nextInt(10_000)) * LOT[s]);
            // Notional far past a long: rejected by a notional limit, else killed for want of quantity.
            case 3 -> c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.FOK,
                side == Side.BUY ? highest : lowest, maxQty);
            // Aggressive with an extreme limit: a capped sweep; price x quantity overflows for big ones.
            case 2 -> c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.IOC,
                side == Side.BUY ? highest : lowest, qty);
            default -> {
                final TimeInForce tif = switch (rnd.nextInt(3)) {
                    case 0 -> TimeInForce.IOC;
                    case 1 -> TimeInForce.FOK;
                    default -> TimeInForce.FOK_BUDGET;
                };
                final long price = tif == TimeInForce.FOK_BUDGET ? (rnd.nextBoolean() ? Command.MAX_PRICE : 1) : priceNear(s, side);
                c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, tif, price, maxQty);
            }
        }
    }

    /**
     * A FOK or FOK_BUDGET order sized from the book as the results describe it: exactly what a level
     * or the budget allows, or one lot or one unit of money past it. The account is one with no order
     * on the opposite side, so self-trade prevention does not blur the edge.
     */
    private void fillOrKillAtTheEdge(final Command c, final int s, final Side side, final int fallbackAccount, final long fallbackId) {
        final List<Live> opposite = new ArrayList<>();
        final boolean[] hasOpposite = new boolean[ACCOUNTS.length];
        for (final Live o : live) {
            if (o.symbolIndex == s && o.side != side) {
                opposite.add(o);
                final int ai = accountIndex(o.account);
                if (ai >= 0) {
                    hasOpposite[ai] = true;
                }
            }
        }
        int a = fallbackAccount;
        for (int tries = 0; tries < ACCOUNTS.length && hasOpposite[a]; tries++) {
            a = (a + 1) % ACCOUNTS.length;
        }
        final long id = a == fallbackAccount ? fallbackId : freshClientId(a);
        if (opposite.isEmpty()) {
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.FOK, priceNear(s, side), LOT[s]);
            return;
        }
        // Best first; equal prices in any order, since only the amounts and prices matter here.
        opposite.sort(side == Side.BUY ? Comparator.comparingLong((Live o) -> o.price)
            : Comparator.comparingLong((Live o) -> o.price).reversed());
        int upTo = rnd.nextInt(opposite.size());
        // A whole level or none of it: a limit at a price takes in every order there.
        while (upTo + 1 < opposite.size() && opposite.get(upTo + 1).price == opposite.get(upTo).price) {
            upTo++;
        }
        long qty = 0;
        long cost = 0;
        for (int i = 0; i <= upTo; i++) {
            final Live o = opposite.get(i);
            qty += o.leaves();
            cost = saturatingAdd(cost, saturatingMultiply(o.price, o.leaves()));
        }
        final long limit = opposite.get(upTo).price;
        final int nudge = rnd.nextInt(3) - 1;
        if (rnd.nextBoolean()) {
            // FOK at the limit where exactly this much rests (nudge > 0: one lot more than there is).
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.FOK, limit,
                Math.max(LOT[s], qty + nudge * LOT[s]));
        } else {
            // FOK_BUDGET whose budget is exactly the cost, or one unit either side of it.
            c.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.FOK_BUDGET,
                Math.min(Command.MAX_PRICE, Math.max(1, cost + nudge)), qty);
        }
    }

    private static long saturatingMultiply(final long a, final long b) {
        return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }

    private static long saturatingAdd(final long a, final long b) {
        final long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** A live order, or null when there is none. */
    private Live pickLive() {
        return live.isEmpty() ? null : live.get(rnd.nextInt(live.size()));
    }

    private Dead recentDead(final long account) {
        for (int tries = 0; tries < 8 && deadCount > 0; tries++) {
            final Dead d = dead[rnd.nextInt(Math.min(deadCount, DEAD_KEPT))];
            if (d.account == account) {
                return d;
            }
        }
        return null;
    }

    /**
     * Aims an amendment: mostly at a live order by client id, sometimes by engine id, at orders that
     * have gone, at ids never used, or at another account's order.
     */
    private void target(final Command c, final Live o) {
        final int roll = rnd.nextInt(100);
        if (o == null || roll < 3) {
            c.account = ACCOUNTS[randomAccount()];
            c.clientOrderId = 1_000_000 + rnd.nextInt(1000);
        } else if (roll < 6 && deadCount > 0) {
            final Dead d = dead[rnd.nextInt(Math.min(deadCount, DEAD_KEPT))];
            c.account = d.account;
            if (rnd.nextBoolean()) {
                c.orderId = d.orderId;
            } else {
                c.clientOrderId = d.clientId;
            }
        } else if (roll < 9) {
            // Another account naming this order, by engine id or by its client id: never its own to touch.
            c.account = o.account == ACCOUNTS[0] ? ACCOUNTS[1] : ACCOUNTS[0];
            if (rnd.nextBoolean()) {
                c.orderId = o.orderId;
            } else {
                c.clientOrderId = o.clientId;
            }
        } else if (roll < 11) {
            c.account = NEVER_AN_ACCOUNT;
            c.clientOrderId = o.clientId;
        } else if (roll < 28) {
            c.account = o.account;
            c.orderId = o.orderId;
            // The engine id wins over a client id that names nothing.
            c.clientOrderId = rnd.nextBoolean() ? 0 : 1_000_000 + rnd.nextInt(1000);
        } else {
            c.account = o.account;
            c.clientOrderId = o.clientId;
        }
    }

    private void cancel(final Command c) {
        c.clear();
        c.type = CommandType.CANCEL;
        target(c, pickLive());
    }

    private void reduce(final Command c) {
        final Live o = pickLive();
        c.clear();
        c.type = CommandType.REDUCE;
        target(c, o);
        final int s = o == null ? 0 : o.symbolIndex;
        final long leaves = o == null ? 10 : o.leaves();
        c.quantity = switch (rnd.nextInt(8)) {
            case 0, 1 -> leaves + rnd.nextInt(5) * LOT[s];
            case 2 -> Command.MAX_QUANTITY;
            default -> Math.max(1, leaves / (2 + rnd.nextInt(4)));
        };
    }

    private void move(final Command c) {
        final Live o = pickLive();
        c.clear();
        c.type = CommandType.MOVE;
        target(c, o);
        final int s = o == null ? 0 : o.symbolIndex;
        final int roll = rnd.nextInt(100);
        final Long edge = roll >= 12 && roll < 15 ? bandEdgePrice(s) : null;
        if (o != null && roll < 10) {
            c.price = o.price;
        } else if (roll < 12) {
            c.price = rnd.nextBoolean() ? TICK[s] : maxPriceOnTick(s);
        } else if (edge != null) {
            c.price = edge;
        } else {
            c.price = priceNear(s, rnd.nextBoolean() ? Side.BUY : Side.SELL);
        }
    }

    private void replace(final Command c) {
        final Live o = pickLive();
        c.clear();
        c.type = CommandType.REPLACE;
        target(c, o);
        final int s = o == null ? 0 : o.symbolIndex;
        final int ai = o == null ? 0 : Math.max(0, accountIndex(o.account));
        final int roll = rnd.nextInt(1000);
        final long quantity = o == null ? 10 : o.quantity;
        final long cum = o == null ? 0 : o.cum;
        final long price = o == null ? mid[s] : o.price;
        if (roll < 300) {
            // Same price, smaller or equal total: in place, keeping priority.
            c.price = price;
            c.quantity = Math.max(cum + LOT[s], quantity - rnd.nextInt(4) * LOT[s]);
        } else if (roll < 450) {
            // Same price, larger total: loses priority.
            c.price = price;
            c.quantity = quantity + (1 + rnd.nextInt(5)) * LOT[s];
        } else if (roll < 898) {
            c.price = priceNear(s, rnd.nextBoolean() ? Side.BUY : Side.SELL);
            c.quantity = Math.max(cum + LOT[s], quantity + (rnd.nextInt(9) - 4) * LOT[s]);
        } else if (roll < 900) {
            // Valid extremes: the largest quantity, or the far end of the price range.
            c.price = rnd.nextBoolean() ? price : maxPriceOnTick(s);
            c.quantity = rnd.nextBoolean() ? Command.MAX_QUANTITY / LOT[s] * LOT[s] : quantity;
        } else {
            // At or below what has filled: rejected, unless nothing has filled (then it is simply smaller).
            c.price = price;
            c.quantity = cum > 0 ? cum - rnd.nextInt(2) * LOT[s] : LOT[s];
            if (c.quantity <= 0) {
                c.quantity = cum;
            }
        }
        final int rename = rnd.nextInt(10);
        if (rename < 3) {
            c.newClientOrderId = freshClientId(ai);
        } else if (rename == 3 && o != null) {
            c.newClientOrderId = o.clientId;
        } else if (rename == 4 && o != null) {
            final Dead d = recentDead(o.account);
            if (d != null) {
                c.newClientOrderId = d.clientId;
            }
        }
    }

    // ------------------------------------------------------------------ money

    private static int assetIndex(final int asset) {
        for (int i = 0; i < ASSETS.length; i++) {
            if (ASSETS[i] == asset) {
                return i;
            }
        }
        return -1;
    }

    /** A BALANCE: mostly a known account and asset, sometimes an unknown one of either. */
    private void balance(final Command c) {
        c.clear().type = CommandType.BALANCE;
        c.account = rnd.nextInt(10) == 0 ? 424_242 : ACCOUNTS[randomAccount()];
        c.symbol = rnd.nextInt(10) == 0 ? 31_337 : ASSETS[rnd.nextInt(ASSETS.length)];
        c.clientOrderId = rnd.nextLong();
        c.quantity = rnd.nextLong();
    }

    /** A DEPOSIT, WITHDRAW or ADJUST, good or wrong in one way, or the start of a plan. */
    private void money(final Command c) {
        final int roll = rnd.nextInt(100);
        final int a = randomAccount();
        final int ai = rnd.nextInt(ASSETS.length);
        final int asset = ASSETS[ai];
        final long typical = a == POOR ? TYPICAL[ai] / 1_000_000_000 : TYPICAL[ai];
        final long reference = nextReference++;
        if (roll < 30) {
            c.money(CommandType.DEPOSIT, ACCOUNTS[a], asset, 1 + rnd.nextLong(Math.max(1, typical / 10)), reference);
        } else if (roll < 44) {
            // Small, so usually there; the poor account and new accounts are often refused.
            c.money(CommandType.WITHDRAW, ACCOUNTS[a], asset, 1 + rnd.nextLong(Math.max(1, typical / 1_000)), reference);
        } else if (roll < 47) {
            c.money(CommandType.WITHDRAW, ACCOUNTS[a], asset, rnd.nextBoolean() ? Long.MAX_VALUE : typical * 1_000, reference);
        } else if (roll < 57) {
            final long amount = switch (rnd.nextInt(12)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> -Long.MAX_VALUE;
                case 2 -> -typical * 1_000;
                default -> (rnd.nextBoolean() ? 1 : -1) * (1 + rnd.nextLong(Math.max(1, typical / 1_000)));
            };
            c.money(CommandType.ADJUST, ACCOUNTS[a], asset, amount, reference);
        } else if (roll < 63) {
            // A reference applied before, by this account or another, by any of the three.
            final long used = appliedCount == 0 ? reference : appliedReferences[rnd.nextInt(Math.min(appliedCount, REFERENCES_KEPT))];
            c.money(moneyType(), ACCOUNTS[a], asset, 1 + rnd.nextInt(100), used);
        } else if (roll < 67) {
            final long bad = switch (rnd.nextInt(3)) {
                case 0 -> 0;
                case 1 -> -reference;
                default -> Long.MIN_VALUE;
            };
            c.money(moneyType(), ACCOUNTS[a], asset, 1 + rnd.nextInt(100), bad);
        } else if (roll < 71) {
            c.money(moneyType(), ACCOUNTS[a], UNKNOWN_ASSETS[rnd.nextInt(UNKNOWN_ASSETS.length)], 1 + rnd.nextInt(100), reference);
        } else if (roll < 77) {
            final CommandType type = moneyType();
            final long amount = type == CommandType.ADJUST ? 0 : switch (rnd.nextInt(3)) {
                case 0 -> 0;
                case 1 -> -1 - rnd.nextInt(1000);
                default -> Long.MIN_VALUE;
            };
            c.money(type, ACCOUNTS[a], asset, amount, reference);
        } else if (roll < 81) {
            c.money(moneyType(), MONEY_ONLY_ACCOUNTS[rnd.nextInt(MONEY_ONLY_ACCOUNTS.length)], asset, 1 + rnd.nextInt(1000), reference);
        } else if (roll < 84) {
            // Onto a funded account's balance: past Long.MAX_VALUE, refused (a new account could take it).
            c.money(rnd.nextBoolean() ? CommandType.DEPOSIT : CommandType.ADJUST, ACCOUNTS[rnd.nextInt(3)], USD, Long.MAX_VALUE, reference);
        } else if (roll < 86) {
            // XTRA is never traded, so the results tell its total exactly: bring it to Long.MAX_VALUE (or one past),
            // then take it back out.
            final long room = Long.MAX_VALUE - xtraTotal;
            final boolean past = rnd.nextInt(3) == 0 || room == 0;
            planAccount = a;
            planTarget = room;
            planStep = PLAN_MAX_FILLED;
            c.money(rnd.nextBoolean() ? CommandType.DEPOSIT : CommandType.ADJUST, ACCOUNTS[a], XTRA, past ? room + 1 : room, reference);
        } else if (roll < 96 && riskOn(RiskCheck.FUNDS)) {
            startExactPlan(c, reference);
        } else {
            c.money(CommandType.DEPOSIT, ACCOUNTS[a], asset, 1 + rnd.nextLong(Math.max(1, typical)), reference);
        }
        // Now and then a reference at the top of the range: any positive long is one.
        if (rnd.nextInt(2_000) == 0 && c.clientOrderId > 0) {
            c.clientOrderId = Long.MAX_VALUE - rnd.nextInt(3);
        }
    }

    private CommandType moneyType() {
        return switch (rnd.nextInt(3)) {
            case 0 -> CommandType.DEPOSIT;
            case 1 -> CommandType.WITHDRAW;
            default -> CommandType.ADJUST;
        };
    }

    /**
     * Chooses an order in a symbol with assets and what it will hold, and sends a small deposit of the
     * asset it holds to learn the account's balance from the result.
     */
    private void startExactPlan(final Command c, final long reference) {
        final int a = rnd.nextInt(5);
        final int s = 1 + rnd.nextInt(2);
        final Side side = rnd.nextInt(3) == 0 ? Side.SELL : Side.BUY;
        final long qty = quantity(s);
        final long price = priceNear(s, side);
        final long id = freshClientId(a);
        final int kind = rnd.nextInt(4);
        if (side == Side.SELL) {
            planOrder.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, kind == 0 ? TimeInForce.IOC : TimeInForce.GTC,
                Math.max(price, feeEdgePrice(s)), qty);
            planHold = qty * BASE_SCALE[s];
        } else if (kind == 0) {
            final long budget = Math.max(1, qty * mid[s] + (rnd.nextInt(21) - 10) * TICK[s]);
            planOrder.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, TimeInForce.FOK_BUDGET, budget, qty);
            if (rnd.nextBoolean()) {
                planOrder.reservePrice = budget;
            }
            planHold = budget * QUOTE_SCALE[s] + qty * TAKER_FEE[s];
        } else {
            planOrder.newOrder(ACCOUNTS[a], SYMBOLS[s], id, side, OrderType.LIMIT, kind == 1 ? TimeInForce.DAY : TimeInForce.GTC,
                price, qty);
            final long holdPrice = kind == 3 ? price + rnd.nextInt(4) * TICK[s] : price;
            if (kind == 3) {
                planOrder.reservePrice = holdPrice;
            }
            planHold = qty * (holdPrice * QUOTE_SCALE[s] + TAKER_FEE[s]);
        }
        planAccount = a;
        planSymbol = s;
        planOneMore = rnd.nextBoolean();
        planStep = PLAN_EXACT_PROBED;
        c.money(CommandType.DEPOSIT, ACCOUNTS[a], side == Side.BUY ? QUOTE[s] : BASE[s], 1, reference);
    }

    /** The next command of a plan; false when the plan has gone off course (then it is dropped). */
    private boolean planned(final Command c, final boolean fresh) {
        final int step = planStep;
        planStep = PLAN_NONE;
        final boolean knowsBalance = fresh && balanceAccount == ACCOUNTS[planAccount];
        switch (step) {
            case PLAN_EXACT_PROBED -> {
                if (!knowsBalance) {
                    return false;
                }
                planTarget = planHold - (planOneMore ? 1 : 0);
                if (balanceAvailable == planTarget) {
                    c.copyFrom(planOrder);
                    planStep = PLAN_EXACT_PLACED;
                    return true;
                }
                final boolean down = balanceAvailable > planTarget;
                c.money(down ? CommandType.WITHDRAW : CommandType.DEPOSIT, ACCOUNTS[planAccount], balanceAsset,
                    Math.abs(balanceAvailable - planTarget), nextReference++);
                planStep = PLAN_EXACT_SET;
                return true;
            }
            case PLAN_EXACT_SET -> {
                if (!knowsBalance || balanceAvailable != planTarget) {
                    return false;
                }
                c.copyFrom(planOrder);
                planStep = PLAN_EXACT_PLACED;
                return true;
            }
            case PLAN_EXACT_AMEND -> {
                // The order used every unit: asking for more at a higher price or a larger quantity cannot be paid.
                final long step2 = (1 + rnd.nextInt(3)) * TICK[planSymbol];
                if (rnd.nextBoolean()) {
                    c.move(planOrder.account, planOrder.clientOrderId, planOrder.price + (planOrder.side == Side.BUY ? step2 : 0));
                } else {
                    c.replace(planOrder.account, planOrder.clientOrderId, 0, planOrder.price,
                        planOrder.quantity + LOT[planSymbol]);
                }
                return true;
            }
            case PLAN_MAX_FILLED -> {
                if (!knowsBalance || xtraTotal != Long.MAX_VALUE) {
                    return false;
                }
                // Take it back out (the whole balance, now and then), so the next deposit has room again.
                c.money(rnd.nextBoolean() ? CommandType.WITHDRAW : CommandType.ADJUST, ACCOUNTS[planAccount], XTRA,
                    rnd.nextInt(4) == 0 ? balanceAvailable : planTarget, nextReference++);
                if (c.type == CommandType.ADJUST) {
                    c.quantity = -c.quantity;
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** The lowest price on the tick at which an ask's proceeds pay the taker fee: price x quoteScale >= takerFee. */
    private static long feeEdgePrice(final int s) {
        final long atLeast = (TAKER_FEE[s] + QUOTE_SCALE[s] - 1) / QUOTE_SCALE[s];
        return Math.max(TICK[s], (atLeast + TICK[s] - 1) / TICK[s] * TICK[s]);
    }

    private void admin(final Command c) {
        final int roll = rnd.nextInt(100);
        final int s = rnd.nextInt(SYMBOLS.length);
        final int a = randomAccount();
        if (roll < 14) {
            c.massCancel(ACCOUNTS[a], rnd.nextInt(3) == 0 ? Command.ALL_SYMBOLS : SYMBOLS[s]);
        } else if (roll < 22) {
            c.accountCommand(CommandType.KILL_SWITCH_ON, ACCOUNTS[a]);
        } else if (roll < 30) {
            c.accountCommand(CommandType.KILL_SWITCH_OFF, ACCOUNTS[a]);
        } else if (roll < 36) {
            c.symbolCommand(CommandType.HALT, SYMBOLS[s]);
        } else if (roll < 44) {
            c.symbolCommand(CommandType.RESUME, SYMBOLS[s]);
        } else if (roll < 52) {
            c.symbolCommand(CommandType.END_OF_DAY, rnd.nextInt(3) == 0 ? Command.ALL_SYMBOLS : SYMBOLS[s]);
        } else if (roll < 66) {
            // Now and then at an end of the range, which puts nearly every limit price outside the band.
            final long price = rnd.nextInt(20) == 0 ? (rnd.nextBoolean() ? 1 : Command.MAX_PRICE)
                : mid[s] + (rnd.nextInt(21) - 10) * TICK[s];
            c.setReferencePrice(SYMBOLS[s], price);
        } else if (roll < 90) {
            final SelfTradePrevention[] modes = SelfTradePrevention.values();
            c.setAccountLimits(ACCOUNTS[a], rnd.nextInt(3) == 0 ? 0 : 300 + rnd.nextInt(3000),
                rnd.nextInt(3) == 0 ? 0 : 5_000_000 + rnd.nextInt(50_000_000),
                rnd.nextInt(3) == 0 ? 0 : 5 + rnd.nextInt(60), modes[rnd.nextInt(modes.length)]);
        } else {
            c.clear();
            c.type = CommandType.SNAPSHOT;
        }
    }

    /** A command that is wrong in one way; each kind maps to a reject reason the spec names. */
    private void badInput(final Command c) {
        final int kind = rnd.nextInt(26);
        final int s = rnd.nextInt(SYMBOLS.length);
        newOrder(c);
        final int cs = symbolIndex(c.symbol);
        if (kind < 18) {
            badNewOrder(c, kind, cs);
        } else {
            badOtherCommand(c, kind, s);
        }
    }

    /** A new order with one field wrong (kinds 0 to 17). */
    private void badNewOrder(final Command c, final int kind, final int cs) {
        switch (kind) {
            case 0 -> c.quantity = 0;
            case 1 -> c.quantity = rnd.nextBoolean() ? -LOT[cs] * (1 + rnd.nextInt(10)) : Long.MIN_VALUE;
            case 2 -> c.quantity = Command.MAX_QUANTITY + 1;
            case 3 -> {
                c.orderType = OrderType.LIMIT;
                c.timeInForce = TimeInForce.GTC;
                c.price = 0;
            }
            case 4 -> {
                c.orderType = OrderType.LIMIT;
                c.timeInForce = TimeInForce.GTC;
                c.price = rnd.nextBoolean() ? -5 : Long.MIN_VALUE;
            }
            case 5 -> {
                c.orderType = OrderType.LIMIT;
                c.timeInForce = rnd.nextBoolean() ? TimeInForce.GTC : TimeInForce.FOK_BUDGET;
                c.price = rnd.nextBoolean() ? Command.MAX_PRICE + 1 : Long.MAX_VALUE;
            }
            case 6 -> {
                final int t = 1 + rnd.nextInt(2);
                c.symbol = SYMBOLS[t];
                c.orderType = OrderType.LIMIT;
                c.timeInForce = TimeInForce.GTC;
                c.price = mid[t] + 1 + rnd.nextLong(TICK[t] - 1);
                c.quantity = LOT[t];
            }
            case 7 -> {
                c.symbol = SYMBOLS[1];
                c.quantity = (1 + rnd.nextInt(20)) * LOT[1] + 1 + rnd.nextInt(9);
            }
            case 8 -> c.symbol = rnd.nextInt(4) == 0 ? 0 : UNKNOWN_SYMBOLS[rnd.nextInt(UNKNOWN_SYMBOLS.length)];
            case 9 -> {
                final Live o = pickLive();
                if (o != null) {
                    c.account = o.account;
                    c.clientOrderId = o.clientId;
                }
            }
            case 10 -> c.side = null;
            case 11 -> c.orderType = null;
            case 12 -> c.timeInForce = null;
            case 13 -> c.clientOrderId = 0;
            case 14 -> c.type = null;
            case 15 -> {
                c.orderType = OrderType.MARKET;
                c.postOnly = true;
            }
            case 16 -> {
                c.orderType = OrderType.LIMIT;
                c.timeInForce = switch (rnd.nextInt(3)) {
                    case 0 -> TimeInForce.IOC;
                    case 1 -> TimeInForce.FOK;
                    default -> TimeInForce.FOK_BUDGET;
                };
                c.postOnly = true;
            }
            case 17 -> {
                c.orderType = OrderType.MARKET;
                c.timeInForce = TimeInForce.FOK_BUDGET;
            }
            default -> throw new IllegalArgumentException("kind " + kind);
        }
    }

    /** A wrong limits, reference-price, symbol or account command, or a bad reduce, move or replace (kinds 18 to 25). */
    private void badOtherCommand(final Command c, final int kind, final int s) {
        switch (kind) {
            case 18 -> c.setAccountLimits(ACCOUNTS[randomAccount()], rnd.nextInt(2) - 1, rnd.nextInt(2) - 1, -1 - rnd.nextInt(2),
                SelfTradePrevention.OFF);
            case 19 -> c.setAccountLimits(ACCOUNTS[randomAccount()], 0, 0, 0, null);
            case 20 -> c.setReferencePrice(rnd.nextBoolean() ? UNKNOWN_SYMBOLS[0] : SYMBOLS[s],
                rnd.nextBoolean() ? 0 : rnd.nextBoolean() ? -TICK[s] : Command.MAX_PRICE + 1);
            case 21 -> c.symbolCommand(switch (rnd.nextInt(4)) {
                case 0 -> CommandType.HALT;
                case 1 -> CommandType.RESUME;
                case 2 -> CommandType.SET_REFERENCE_PRICE;
                default -> CommandType.END_OF_DAY;
            }, UNKNOWN_SYMBOLS[rnd.nextInt(UNKNOWN_SYMBOLS.length)]);
            case 22 -> c.accountCommand(switch (rnd.nextInt(3)) {
                case 0 -> CommandType.KILL_SWITCH_ON;
                case 1 -> CommandType.KILL_SWITCH_OFF;
                default -> CommandType.MASS_CANCEL;
            }, NEVER_AN_ACCOUNT);
            case 23 -> {
                reduce(c);
                c.quantity = rnd.nextBoolean() ? 0 : Command.MAX_QUANTITY + 1;
            }
            case 24 -> {
                move(c);
                c.price = rnd.nextBoolean() ? 0 : Command.MAX_PRICE + 1;
            }
            default -> {
                // Replace: bad quantity, bad price, or renaming onto another live order of the same account.
                replace(c);
                switch (rnd.nextInt(3)) {
                    case 0 -> c.quantity = rnd.nextBoolean() ? 0 : Command.MAX_QUANTITY + 1;
                    case 1 -> c.price = rnd.nextBoolean() ? 0 : Command.MAX_PRICE + 1;
                    default -> {
                        final Live other = pickLive();
                        if (other != null) {
                            c.newClientOrderId = other.clientId;
                        }
                    }
                }
            }
        }
    }

    /**
     * Fields the command type does not use, set to something: the engine must ignore them, except
     * that a rejected command echoes the command's own fields and mass cancels and admin commands
     * echo account and symbol.
     */
    private void addNoise(final Command c) {
        if (c.type == null) {
            return;
        }
        switch (c.type) {
            case NEW_ORDER -> {
                c.newClientOrderId = 77;
                c.orderId = 1 + rnd.nextInt(1000);
            }
            case CANCEL -> {
                c.side = Side.SELL;
                c.price = 12_345;
                c.quantity = 7;
                c.timeInForce = TimeInForce.DAY;
            }
            case REDUCE -> {
                c.side = Side.BUY;
                c.price = 99;
                c.orderType = OrderType.MARKET;
            }
            case MOVE -> {
                c.quantity = 5;
                c.newClientOrderId = 4_242;
                c.timeInForce = TimeInForce.IOC;
            }
            case REPLACE -> {
                c.side = Side.SELL;
                c.orderType = OrderType.MARKET;
                c.timeInForce = TimeInForce.FOK;
                c.postOnly = true;
            }
            case HALT, RESUME, END_OF_DAY, SET_REFERENCE_PRICE, SNAPSHOT -> {
                c.account = ACCOUNTS[randomAccount()];
                c.clientOrderId = 5;
                c.quantity = 3;
                if (c.type != CommandType.SET_REFERENCE_PRICE) {
                    c.price = 1_000;
                }
            }
            case MASS_CANCEL, KILL_SWITCH_ON, KILL_SWITCH_OFF, SET_ACCOUNT_LIMITS -> {
                if (c.type != CommandType.MASS_CANCEL) {
                    c.symbol = SYMBOLS[rnd.nextInt(SYMBOLS.length)];
                }
                c.orderId = 3;
                c.price = 500;
                c.side = Side.BUY;
            }
            default -> { }
        }
    }

    // ------------------------------------------------------------------ learning from results

    /** Reads what a command did, to aim later commands at live orders and follow switches and halts. */
    public void observe(final Command c, final Result r) {
        observeMoney(c, r);
        if (r.isRejected()) {
            return;
        }
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill f = r.fill(i);
            if (f.makerLeavesQuantity == 0) {
                forget(f.makerOrderId);
            } else {
                final Live m = find(f.makerOrderId);
                if (m != null) {
                    m.cum = f.makerCumulativeQuantity;
                }
            }
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel x = r.cancel(i);
            if (x.leavesQuantity == 0) {
                forget(x.orderId);
            } else {
                // A reduce: the total drops by what was taken off.
                final Live o = find(x.orderId);
                if (o != null) {
                    o.quantity = x.cumulativeQuantity + x.leavesQuantity;
                }
            }
        }
        switch (r.commandType) {
            case NEW_ORDER, CANCEL, REPLACE, REDUCE, MOVE -> {
                if (r.orderStatus == OrderStatus.NEW || r.orderStatus == OrderStatus.PARTIALLY_FILLED) {
                    Live o = find(r.orderId);
                    if (o == null) {
                        o = new Live();
                        o.orderId = r.orderId;
                        remember(o, symbolIndex(r.symbol));
                    }
                    o.account = r.account;
                    o.clientId = r.clientOrderId;
                    o.side = r.side;
                    o.price = r.price;
                    o.quantity = r.quantity;
                    o.cum = r.cumulativeQuantity;
                } else {
                    forget(r.orderId);
                }
            }
            case KILL_SWITCH_ON, KILL_SWITCH_OFF -> {
                final int a = accountIndex(r.account);
                if (a >= 0) {
                    killSwitch[a] = r.commandType == CommandType.KILL_SWITCH_ON;
                }
            }
            case HALT, RESUME -> halted[symbolIndex(r.symbol)] = r.commandType == CommandType.HALT;
            case SET_REFERENCE_PRICE -> referencePrice[symbolIndex(r.symbol)] = r.price;
            default -> { }
        }
        // The mid follows trading a little, so prices stay where the books are. Every command that
        // trades is about one order, so the fills are in the subject's symbol. Far-away trades
        // (a sweep reaching an extreme resting order) are not followed.
        if (r.fillCount() > 0) {
            referencePrice[symbolIndex(r.symbol)] = r.fill(r.fillCount() - 1).price;
        }
        if (r.fillCount() > 0 && rnd.nextInt(8) == 0) {
            final int s = symbolIndex(r.symbol);
            final long price = r.fill(r.fillCount() - 1).price;
            if (price > mid[s] / 2 && price < mid[s] * 2) {
                mid[s] = price / TICK[s] * TICK[s];
            }
        }
    }

    /** Balances results report, how planned orders came out, references applied, and top-ups owed. */
    private void observeMoney(final Command c, final Result r) {
        final boolean money = c.type == CommandType.DEPOSIT || c.type == CommandType.WITHDRAW || c.type == CommandType.ADJUST;
        if (money && !r.isRejected()) {
            balanceFresh = true;
            balanceAccount = c.account;
            balanceAsset = c.symbol;
            balanceAvailable = r.balanceAvailable;
            appliedReferences[appliedCount++ % REFERENCES_KEPT] = c.clientOrderId;
            if (c.symbol == XTRA) {
                xtraTotal += c.type == CommandType.WITHDRAW ? -c.quantity : c.quantity;
            }
        }
        if (planStep == PLAN_EXACT_PLACED) {
            planStep = PLAN_NONE;
            if (!r.isRejected() && !planOneMore) {
                exactAccepted++;
                if (r.orderStatus == OrderStatus.NEW && rnd.nextBoolean()) {
                    planStep = PLAN_EXACT_AMEND;
                }
            } else if (r.rejectReason == RejectReason.INSUFFICIENT_FUNDS && planOneMore && r.fundsNeeded == planHold
                && r.balanceAvailable == planHold - 1) {
                exactOneShort++;
            }
            return;
        }
        if ((c.type == CommandType.MOVE || c.type == CommandType.REPLACE) && r.rejectReason == RejectReason.INSUFFICIENT_FUNDS) {
            amendRefused++;
        }
        final int s = symbolIndex(c.symbol);
        if (c.type == CommandType.NEW_ORDER && r.rejectReason == RejectReason.INSUFFICIENT_FUNDS && s > 0 && c.side != null
            && c.account != ACCOUNTS[POOR] && r.fundsNeeded < Long.MAX_VALUE / 100 && rnd.nextBoolean()) {
            topUp = new long[] {c.account, c.side == Side.BUY ? QUOTE[s] : BASE[s], r.fundsNeeded * (1 + rnd.nextInt(3))};
        }
    }

    private Live find(final long orderId) {
        final Integer i = liveIndex.get(orderId);
        return i == null ? null : live.get(i);
    }

    private void remember(final Live o, final int symbolIndex) {
        o.symbolIndex = symbolIndex;
        liveIndex.put(o.orderId, live.size());
        live.add(o);
    }

    private void forget(final long orderId) {
        final Integer i = liveIndex.remove(orderId);
        if (i == null) {
            return;
        }
        final Live gone = live.get(i);
        dead[deadCount++ % DEAD_KEPT] = new Dead(gone.orderId, gone.account, gone.clientId);
        final Live last = live.remove(live.size() - 1);
        if (last != gone) {
            live.set(i, last);
            liveIndex.put(last.orderId, i);
        }
    }
}
