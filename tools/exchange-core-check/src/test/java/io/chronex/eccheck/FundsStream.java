package io.chronex.eccheck;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.OrderStatus;
import io.chronex.api.OrderType;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded random stream of what exchange-core's EXCHANGE mode and our engine both do: deposits and
 * withdrawals (some too large, some repeated), GTC, IOC and FOK_BUDGET orders on both sides (some unpayable,
 * some with a bad reserve price, some asks below the fee), MOVE (a bid never above its reserve price, where
 * exchange-core refuses and we would hold more), CANCEL and REDUCE, mostly of live orders, sometimes of dead
 * or other users' ones. It learns which orders live from our engine's results, which the test has just
 * checked against exchange-core's.
 */
final class FundsStream {
    /** A live order as the stream needs it. */
    private record Live(long uid, int symbol, Side side, long price, long reserve) {
    }

    private final SplittableRandom random;
    private final long[] users;
    private final List<SymbolSpec> symbols;
    private final int[] assets;
    private final long[] mid;
    private final List<Long> liveIds = new ArrayList<>();
    private final Map<Long, Integer> liveIndex = new HashMap<>();
    private final Map<Long, Live> live = new HashMap<>();
    /** Per user, the references of its applied deposits: a repeat must name one of them. */
    private final Map<Long, List<Long>> applied = new HashMap<>();
    private long nextOrderId = 1;
    private long nextReference = 1;
    private long pendingReference;
    private long pendingUser;

    FundsStream(final long seed, final long[] users, final List<SymbolSpec> symbols, final int[] assets) {
        this.random = new SplittableRandom(seed);
        this.users = users.clone();
        this.symbols = symbols;
        this.assets = assets.clone();
        this.mid = new long[symbols.size()];
        for (int i = 0; i < mid.length; i++) {
            mid[i] = 80 + random.nextInt(60);
        }
    }

    /** A starting deposit for user of asset: some users get little, so orders run out of funds. */
    Command initialDeposit(final Command c, final long uid, final int asset, final boolean quote) {
        final long perOrder = quote ? 20_000 : 2_000;
        final long amount = random.nextInt(5) == 0 ? 1 + random.nextLong(perOrder * 2) : perOrder * (5 + random.nextLong(200));
        return deposit(c, uid, asset, amount);
    }

    private Command deposit(final Command c, final long uid, final int asset, final long amount) {
        c.money(CommandType.DEPOSIT, uid, asset, amount, nextReference);
        pendingReference = nextReference++;
        pendingUser = uid;
        return c;
    }

    /** The next command of the stream. */
    Command next(final Command c) {
        pendingReference = 0;
        final int roll = random.nextInt(1000);
        if (roll < 40) {
            final int asset = assets[random.nextInt(assets.length)];
            return deposit(c, user(), asset, 1 + random.nextLong(asset == assets[0] ? 400_000 : 40_000));
        }
        if (roll < 55) {
            final int asset = assets[random.nextInt(assets.length)];
            return c.money(CommandType.WITHDRAW, user(), asset, 1 + random.nextLong(asset == assets[0] ? 600_000 : 60_000),
                nextReference++);
        }
        if (roll < 60) {
            return repeatedDeposit(c);
        }
        if (roll < 440) {
            return order(c, TimeInForce.GTC);
        }
        if (roll < 520) {
            return order(c, TimeInForce.IOC);
        }
        if (roll < 560) {
            return budgetOrder(c);
        }
        if (roll < 570) {
            return invalidOrder(c);
        }
        if (liveIds.isEmpty() || roll >= 975) {
            return amendDeadOrForeign(c);
        }
        final long id = liveIds.get(random.nextInt(liveIds.size()));
        final Live o = live.get(id);
        if (roll < 780) {
            c.move(o.uid, id, movePrice(o, spec(o.symbol)));
        } else if (roll < 870) {
            c.cancel(o.uid, id);
        } else {
            // Now and then 0, which both refuse.
            c.reduce(o.uid, id, random.nextInt(200) == 0 ? 0 : 1 + random.nextInt(8));
        }
        c.symbol = o.symbol;
        return c;
    }

    private long user() {
        return users[random.nextInt(users.length)];
    }

    private Command repeatedDeposit(final Command c) {
        final long uid = user();
        final List<Long> refs = applied.get(uid);
        if (refs == null) {
            return deposit(c, uid, assets[0], 1 + random.nextInt(1000));
        }
        // The last one (exchange-core: ALREADY_APPLIED_SAME) or any earlier one (ALREADY_APPLIED_MANY).
        final long reference = random.nextBoolean() ? refs.get(refs.size() - 1) : refs.get(random.nextInt(refs.size()));
        return c.money(CommandType.DEPOSIT, uid, assets[random.nextInt(assets.length)], 1 + random.nextInt(1000), reference);
    }

    private int symbolIndex() {
        final int s = random.nextInt(symbols.size());
        // The mid price wanders, so books move and resting orders end up on either side of it.
        mid[s] = Math.max(20, mid[s] + random.nextInt(5) - 2);
        return s;
    }

    private long quantity() {
        return random.nextInt(10) == 0 ? 1 + random.nextInt(60) : 1 + random.nextInt(12);
    }

    private Command order(final Command c, final TimeInForce tif) {
        final int s = symbolIndex();
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        // Mostly on its own side of the mid, sometimes across it (it takes).
        final int offset = random.nextInt(4) == 0 ? -random.nextInt(8) : random.nextInt(25);
        final long price = Math.max(1, side == Side.BUY ? mid[s] - offset : mid[s] + offset);
        c.newOrder(user(), symbols.get(s).id(), nextOrderId++, side, OrderType.LIMIT, tif, price, quantity());
        if (side == Side.BUY) {
            c.reservePrice = random.nextBoolean() ? price : price + 1 + random.nextInt(30);
        }
        return c;
    }

    /** FOK_BUDGET: a budget near what the quantity costs around the mid, so some fill and some are killed. */
    private Command budgetOrder(final Command c) {
        final int s = symbolIndex();
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final long quantity = quantity();
        final SymbolSpec spec = symbols.get(s);
        // An ask's budget pays the fee on its whole quantity here: ours refuses one that does not, exchange-core does not
        // (docs/engine.md, where we differ on purpose), so the stream leaves those out.
        final long floor = side == Side.SELL ? (spec.takerFee() + spec.quoteScale() - 1) / spec.quoteScale() : 1;
        final long perUnit = Math.max(floor, mid[s] + (side == Side.BUY ? 1 : -1) * (random.nextInt(20) - 5));
        c.newOrder(user(), symbols.get(s).id(), nextOrderId++, side, OrderType.LIMIT, TimeInForce.FOK_BUDGET, perUnit * quantity, quantity);
        if (side == Side.BUY) {
            c.reservePrice = c.price;
        }
        return c;
    }

    /** Orders both refuse before funds: an ask whose proceeds cannot pay the fee, a bid reserving below its price. */
    private Command invalidOrder(final Command c) {
        final int s = symbolIndex();
        final SymbolSpec spec = symbols.get(s);
        final int kind = random.nextInt(3);
        if (kind == 0) {
            final long belowFee = Math.max(1, (spec.takerFee() - 1) / spec.quoteScale());
            c.newOrder(user(), spec.id(), nextOrderId++, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 1 + random.nextLong(belowFee),
                quantity());
            return c;
        }
        final TimeInForce tif = kind == 1 ? TimeInForce.GTC : TimeInForce.FOK_BUDGET;
        final long price = kind == 1 ? mid[s] : mid[s] * 3;
        c.newOrder(user(), spec.id(), nextOrderId++, Side.BUY, OrderType.LIMIT, tif, price, quantity());
        c.reservePrice = price - 1 - random.nextInt(5);
        return c;
    }

    private long movePrice(final Live o, final SymbolSpec spec) {
        final long step = random.nextInt(25) - 12;
        if (o.side == Side.BUY) {
            return Math.max(1, Math.min(o.reserve, o.price + step));
        }
        // Not below the fee: ours refuses an ask moved there (its proceeds could not pay its fee), exchange-core moves it
        // (docs/engine.md, where we differ on purpose).
        return Math.max((spec.takerFee() + spec.quoteScale() - 1) / spec.quoteScale(), Math.max(1, o.price + step));
    }

    private SymbolSpec spec(final int id) {
        for (final SymbolSpec spec : symbols) {
            if (spec.id() == id) {
                return spec;
            }
        }
        throw new IllegalArgumentException("symbol " + id);
    }

    /** A MOVE, CANCEL or REDUCE of an order that is gone, never was, or is another user's. */
    private Command amendDeadOrForeign(final Command c) {
        final long id = 1 + random.nextLong(nextOrderId);
        final Live o = live.get(id);
        long uid = user();
        if (o != null && uid == o.uid) {
            uid = uid == users[0] ? users[1] : users[0];
        }
        final int symbol = o != null ? o.symbol : symbols.get(random.nextInt(symbols.size())).id();
        switch (random.nextInt(3)) {
            case 0 -> c.move(uid, id, o != null ? o.price : mid[0]);
            case 1 -> c.cancel(uid, id);
            default -> c.reduce(uid, id, 1);
        }
        c.symbol = symbol;
        return c;
    }

    /** Learns from our result (already checked equal to exchange-core's) which orders are live and which references applied. */
    void observe(final Command c, final Result r) {
        if (r.isRejected()) {
            return;
        }
        if (pendingReference != 0) {
            applied.computeIfAbsent(pendingUser, u -> new ArrayList<>()).add(pendingReference);
        }
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill f = r.fill(i);
            if (f.makerLeavesQuantity == 0) {
                remove(f.makerClientOrderId);
            }
        }
        switch (c.type) {
            case NEW_ORDER -> {
                if (resting(r.orderStatus)) {
                    add(c.clientOrderId, new Live(c.account, c.symbol, c.side, c.price, c.reservePrice));
                }
            }
            case MOVE, REDUCE -> {
                final Live o = live.get(c.clientOrderId);
                if (!resting(r.orderStatus)) {
                    remove(c.clientOrderId);
                } else if (o != null) {
                    live.put(c.clientOrderId, new Live(o.uid, o.symbol, o.side, r.price, o.reserve));
                }
            }
            case CANCEL -> remove(c.clientOrderId);
            default -> {
            }
        }
    }

    private static boolean resting(final OrderStatus status) {
        return status == OrderStatus.NEW || status == OrderStatus.PARTIALLY_FILLED;
    }

    private void add(final long id, final Live o) {
        live.put(id, o);
        liveIndex.put(id, liveIds.size());
        liveIds.add(id);
    }

    private void remove(final long id) {
        final Integer index = liveIndex.remove(id);
        if (index == null) {
            return;
        }
        live.remove(id);
        final long last = liveIds.remove(liveIds.size() - 1);
        if (last != id) {
            liveIds.set(index, last);
            liveIndex.put(last, index);
        }
    }
}
