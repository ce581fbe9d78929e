package io.chronex.engine.reference;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.OrderType;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded, realistic-ish command streams touching every command, order flavour and reject reason:
 * three symbols with different ticks, lots and bands around drifting mid prices (so orders cross
 * often and books stay a few dozen levels deep), eight configured accounts with assorted limits and
 * every self-trade mode, and a sprinkling of bad input. Two of the symbols are paid for in three
 * assets: every account is funded at the start, and deposits, withdrawals and adjustments keep
 * balances near what a handful of orders needs, so that under FUNDS some orders are refused and
 * most are not. Amendments mostly target live orders, and money commands read balances, from the
 * reference engine.
 */
public final class RandomCommandStream {
    /**
     * Symbols: plain, without assets; tick 5 / lot 10 with a 5% band, ETH against USD; tick 25 with a
     * 20% band, BTC against USD.
     */
    public static final int PLAIN = 1;
    public static final int TICKED = 2;
    public static final int COARSE = 3;
    /** Asset ids. */
    public static final int USD = 1;
    public static final int ETH = 2;
    public static final int BTC = 3;
    public static final int[] ASSETS = {USD, ETH, BTC};
    /** What a typical deposit of each asset is worth a multiple of: a few orders' holds. */
    private static final long[] MONEY_SCALE = {0, 200_000, 1_000, 5};
    private static final int INITIAL_DEPOSITS = 8 * ASSETS.length;
    private static final int UNKNOWN_SYMBOL = 77;
    private static final int[] SYMBOLS = {PLAIN, TICKED, COARSE};
    private static final long[] TICK = {0, 1, 5, 25};
    private static final long[] LOT = {0, 1, 10, 1};

    private final SplittableRandom random;
    private final ReferenceEngine reference;
    private final long[] mid = {0, 1_000, 1_000, 10_000};
    private long nextClientOrderId = 1;
    private long nextReference = 1;
    private int initialDeposits;

    public RandomCommandStream(final long seed, final ReferenceEngine reference) {
        this.random = new SplittableRandom(seed);
        this.reference = reference;
    }

    /** The configuration streams are generated for; riskChecks and account creation vary by stream. */
    public static EngineConfig config(final int riskChecks, final boolean createAccountsOnFirstUse) {
        // Scales and fees that make every term of the settlement formulas matter: an ETH lot is 10
        // units of ETH, a TICKED price tick 3 cents per lot; maker and taker fees differ, and
        // COARSE's taker fee is more than its price tick is worth.
        return new EngineConfig(
            List.of(SymbolSpec.plain(PLAIN),
                new SymbolSpec(TICKED, "TICKED", 100, 5, 10, 500, 1_000).withAssets(ETH, USD, 10, 3, 7, 2),
                new SymbolSpec(COARSE, "COARSE", 100, 25, 1, 2_000, 10_000).withAssets(BTC, USD, 1, 1, 40, 15)),
            List.of(AccountSpec.unlimited(1),
                new AccountSpec(2, 0, 0, 0, SelfTradePrevention.CANCEL_RESTING),
                new AccountSpec(3, 0, 0, 0, SelfTradePrevention.CANCEL_INCOMING),
                new AccountSpec(4, 0, 0, 0, SelfTradePrevention.CANCEL_BOTH),
                new AccountSpec(5, 150, 0, 0, SelfTradePrevention.OFF),
                new AccountSpec(6, 0, 2_000_000, 0, SelfTradePrevention.CANCEL_RESTING),
                new AccountSpec(7, 0, 0, 12, SelfTradePrevention.OFF),
                new AccountSpec(8, 0, 0, 0, SelfTradePrevention.OFF)),
            riskChecks, createAccountsOnFirstUse, new AccountSpec(0, 0, 0, 40, SelfTradePrevention.CANCEL_BOTH),
            List.of(new AssetSpec(USD, "USD", 2), new AssetSpec(ETH, "ETH", 6), new AssetSpec(BTC, "BTC", 8)));
    }

    public static EngineConfig riskOn(final boolean createAccountsOnFirstUse) {
        return config(RiskCheck.all(), createAccountsOnFirstUse);
    }

    /** Fills command with the next command of the stream. */
    public Command next(final Command c) {
        if (initialDeposits < INITIAL_DEPOSITS) {
            // Fund the configured accounts before they trade.
            final int asset = ASSETS[initialDeposits % ASSETS.length];
            final long account = 1 + initialDeposits / ASSETS.length;
            initialDeposits++;
            return c.money(CommandType.DEPOSIT, account, asset, MONEY_SCALE[asset] * (5 + random.nextInt(20)), nextReference++);
        }
        if (random.nextInt(50) == 0) {
            drift();
        }
        if (random.nextInt(20) == 0) {
            return random.nextInt(8) == 0 ? balance(c) : money(c);
        }
        final List<ReferenceEngine.Order> live = reference.liveOrders();
        if (live.size() > 300 && random.nextBoolean()) {
            // Keep books a realistic size: a few hundred resting orders across three symbols.
            final ReferenceEngine.Order target = live.get(random.nextInt(live.size()));
            return c.cancel(target.account(), target.clientOrderId());
        }
        final int roll = random.nextInt(1000);
        if (roll < 600) {
            return newOrder(c);
        }
        if (roll < 930 && !live.isEmpty() && random.nextInt(10) != 0) {
            final ReferenceEngine.Order target = live.get(random.nextInt(live.size()));
            return amend(c, target, roll);
        }
        if (roll < 930) {
            // An amendment of an order that is not there, or is not ours.
            final long account = account();
            return switch (random.nextInt(4)) {
                case 0 -> c.cancel(account, nextClientOrderId + 1_000);
                case 1 -> c.reduce(account, random.nextLong(1, nextClientOrderId + 1), 1);
                case 2 -> c.move(account, random.nextLong(1, nextClientOrderId + 1), mid[PLAIN]);
                default -> c.replace(account, random.nextLong(1, nextClientOrderId + 1), 0, mid[PLAIN], 5);
            };
        }
        return admin(c);
    }

    private void drift() {
        for (final int symbol : SYMBOLS) {
            final long step = TICK[symbol] * (random.nextInt(5) - 2);
            mid[symbol] = Math.max(50 * TICK[symbol], mid[symbol] + step);
        }
    }

    private long account() {
        final int roll = random.nextInt(100);
        if (roll < 90) {
            return 1 + random.nextInt(8);
        }
        return roll < 98 ? 9 + random.nextInt(2) : 99;
    }

    private int symbol() {
        return random.nextInt(200) == 0 ? UNKNOWN_SYMBOL : SYMBOLS[random.nextInt(SYMBOLS.length)];
    }

    private long priceNear(final int symbol) {
        final long tick = symbol == UNKNOWN_SYMBOL ? 1 : TICK[symbol];
        final long base = symbol == UNKNOWN_SYMBOL ? 1_000 : mid[symbol];
        final int roll = random.nextInt(1000);
        if (roll < 8) {
            return switch (roll % 4) {
                case 0 -> 0;
                case 1 -> -base;
                case 2 -> Command.MAX_PRICE + 1;
                default -> Command.MAX_PRICE;
            };
        }
        if (roll < 30 && tick > 1) {
            return base + 1 + random.nextLong(tick - 1);
        }
        if (roll < 45) {
            return base + tick * (random.nextInt(400) - 200);
        }
        return base + tick * (random.nextInt(25) - 12);
    }

    /** Mostly passive, a few ticks behind the mid, so books build up; one in five may take. */
    private long priceFor(final int symbol, final Side side) {
        if (side != null && symbol != UNKNOWN_SYMBOL && random.nextInt(300) == 0) {
            // Far below the book: at a price whose value may not pay a fee.
            return 1 + random.nextLong(3 * TICK[symbol]);
        }
        final long price = priceNear(symbol);
        if (side == null || symbol == UNKNOWN_SYMBOL || price < 1 || price >= Command.MAX_PRICE || random.nextInt(5) == 0) {
            return price;
        }
        final long behind = TICK[symbol] * (1 + random.nextInt(20));
        return Math.max(TICK[symbol], side == Side.BUY ? Math.min(price, mid[symbol] - behind) : Math.max(price, mid[symbol] + behind));
    }

    private long quantityFor(final int symbol) {
        final long lot = symbol == UNKNOWN_SYMBOL ? 1 : LOT[symbol];
        final int roll = random.nextInt(1000);
        if (roll < 6) {
            return switch (roll % 3) {
                case 0 -> 0;
                case 1 -> -lot;
                default -> Command.MAX_QUANTITY + 1;
            };
        }
        if (roll < 30 && lot > 1) {
            return lot * (1 + random.nextInt(20)) + 1 + random.nextInt((int) lot - 1);
        }
        if (roll < 33) {
            return lot * (50 + random.nextInt(100));
        }
        return lot * (1 + random.nextInt(20));
    }

    private Command newOrder(final Command c) {
        final long account = account();
        final int symbol = symbol();
        final int typeRoll = random.nextInt(100);
        final OrderType type = typeRoll < 3 ? OrderType.MARKET : typeRoll < 99 ? OrderType.LIMIT : null;
        final int tifRoll = random.nextInt(100);
        final TimeInForce tif = tifRoll < 45 ? TimeInForce.GTC : tifRoll < 65 ? TimeInForce.DAY : tifRoll < 80 ? TimeInForce.IOC
            : tifRoll < 89 ? TimeInForce.FOK : tifRoll < 99 ? TimeInForce.FOK_BUDGET : null;
        final Side side = random.nextInt(300) == 0 ? null : random.nextBoolean() ? Side.BUY : Side.SELL;
        long clientOrderId = nextClientOrderId++;
        final List<ReferenceEngine.Order> live = reference.liveOrders();
        final int idRoll = random.nextInt(200);
        if (idRoll < 4 && !live.isEmpty()) {
            final ReferenceEngine.Order other = live.get(random.nextInt(live.size()));
            c.newOrder(other.account(), other.symbol(), other.clientOrderId(), side, type, tif, priceNear(other.symbol()),
                quantityFor(other.symbol()));
            return c;
        }
        if (idRoll == 4) {
            clientOrderId = 0;
        }
        final long quantity = quantityFor(symbol);
        long price = priceFor(symbol, side);
        if (tif == TimeInForce.FOK_BUDGET && symbol != UNKNOWN_SYMBOL) {
            // A budget around what the quantity costs near the mid: some pass, some do not.
            price = Math.max(1, Math.abs(quantity) * (mid[symbol] + TICK[symbol] * (random.nextInt(9) - 4)));
        }
        if (side == Side.SELL && tif == TimeInForce.FOK_BUDGET && random.nextInt(10) == 0) {
            // A budget whose proceeds could not pay the taker fee.
            price = 1 + random.nextInt(60);
        }
        c.newOrder(account, symbol, clientOrderId, side, type, tif, price, quantity);
        c.postOnly = random.nextInt(10) == 0;
        c.reservePrice = reservePrice(symbol, side, type, tif, price);
        return c;
    }

    /** Mostly none; for some bids one at or above the limit, and now and then one that is not allowed. */
    private long reservePrice(final int symbol, final Side side, final OrderType type, final TimeInForce tif, final long price) {
        final int roll = random.nextInt(100);
        if (side != Side.BUY || symbol == UNKNOWN_SYMBOL) {
            // Asks carry none; one that does shows whether it is ignored.
            return roll == 0 ? price + 1 : 0;
        }
        if (tif == TimeInForce.FOK_BUDGET) {
            return roll < 30 ? price : roll < 33 ? price + 1 : 0;
        }
        if (type == OrderType.MARKET) {
            return roll < 5 ? mid[symbol] : 0;
        }
        if (roll < 20) {
            return price + TICK[symbol] * random.nextInt(12);
        }
        return roll < 23 ? price - TICK[symbol] : 0;
    }

    private Command amend(final Command c, final ReferenceEngine.Order target, final int roll) {
        final long account = random.nextInt(40) == 0 ? 1 + random.nextInt(8) : target.account();
        final int symbol = target.symbol();
        if (roll < 640) {
            c.cancel(account, target.clientOrderId());
        } else if (roll < 740) {
            final long newId = switch (random.nextInt(10)) {
                case 0, 1, 2, 3, 4 -> 0;
                case 5 -> reference.liveOrders().get(random.nextInt(reference.liveOrders().size())).clientOrderId();
                default -> nextClientOrderId++;
            };
            final long quantity = random.nextInt(8) == 0 ? Math.max(1, target.cumulative()) : quantityFor(symbol);
            final long price = random.nextInt(3) == 0 ? target.price() : priceFor(symbol, target.side());
            c.replace(account, target.clientOrderId(), newId, price, quantity);
        } else if (roll < 790) {
            c.reduce(account, target.clientOrderId(), random.nextInt(30) == 0 ? 0 : 1
                + random.nextInt((int) Math.min(30, target.leaves() + 3)));
        } else {
            c.move(account, target.clientOrderId(), random.nextInt(4) == 0 ? target.price() : priceFor(symbol, target.side()));
        }
        if (random.nextInt(4) == 0) {
            // Address it by engine id instead.
            c.orderId = target.orderId();
            c.clientOrderId = 0;
        }
        return c;
    }

    /** BALANCE of a configured or unknown account, in a known or unknown asset; its numbers are only echoed. */
    private Command balance(final Command c) {
        c.clear().type = CommandType.BALANCE;
        c.account = random.nextInt(20) == 0 ? 99 : account();
        c.symbol = random.nextInt(20) == 0 ? 9 : ASSETS[random.nextInt(ASSETS.length)];
        c.clientOrderId = 1 + random.nextInt(3);
        c.quantity = 3;
        return c;
    }

    /**
     * DEPOSIT, WITHDRAW or ADJUST: amounts of a few orders' worth, withdrawals and negative adjustments
     * often beyond what is available (so some are refused and balances stay near what trading needs),
     * and a sprinkling of unknown assets, bad and reused references, bad amounts and balances past a long.
     */
    private Command money(final Command c) {
        final int typeRoll = random.nextInt(100);
        final CommandType type = typeRoll < 45 ? CommandType.DEPOSIT : typeRoll < 80 ? CommandType.WITHDRAW : CommandType.ADJUST;
        final long account = account();
        final int asset = random.nextInt(60) == 0 ? (random.nextBoolean() ? 0 : 9) : ASSETS[random.nextInt(ASSETS.length)];
        final long scale = asset == 0 || asset == 9 ? 100 : MONEY_SCALE[asset];
        final long available = asset == 0 || asset == 9 ? 0 : reference.available(account, asset);
        final int amountRoll = random.nextInt(100);
        long amount;
        if (amountRoll < 2) {
            amount = amountRoll == 0 ? 0 : -scale;
        } else if (amountRoll < 3 && available > 0 && type != CommandType.WITHDRAW) {
            // Exactly one unit past what a long can hold.
            amount = Long.MAX_VALUE - available + 1;
        } else if (type == CommandType.DEPOSIT) {
            amount = scale * (1 + random.nextInt(20));
        } else if (type == CommandType.WITHDRAW) {
            amount = 1 + random.nextLong(available * 3 / 2 + scale);
        } else {
            amount = random.nextBoolean() ? scale * (1 + random.nextInt(5)) : -1 - random.nextLong(available * 3 / 2 + scale);
        }
        if (type == CommandType.ADJUST && amountRoll == 1) {
            amount = 0;
        }
        final int referenceRoll = random.nextInt(100);
        final long referenceId;
        if (referenceRoll < 3 && nextReference > 1) {
            referenceId = 1 + random.nextLong(nextReference - 1);
        } else if (referenceRoll < 5) {
            referenceId = referenceRoll == 3 ? 0 : -1 - random.nextInt(1000);
        } else {
            referenceId = nextReference++;
        }
        return c.money(type, account, asset, amount, referenceId);
    }

    private Command admin(final Command c) {
        final int kind = random.nextInt(100);
        if (kind < 8) {
            return c.massCancel(account(), random.nextInt(3) == 0 ? 0 : symbol());
        }
        if (kind < 11) {
            return c.accountCommand(CommandType.KILL_SWITCH_ON, account());
        }
        if (kind < 40) {
            return c.accountCommand(CommandType.KILL_SWITCH_OFF, account());
        }
        if (kind < 42) {
            return c.symbolCommand(CommandType.HALT, random.nextInt(20) == 0 ? 0 : symbol());
        }
        if (kind < 58) {
            return c.symbolCommand(CommandType.RESUME, symbol());
        }
        if (kind < 61) {
            return c.symbolCommand(CommandType.END_OF_DAY, random.nextBoolean() ? 0 : symbol());
        }
        if (kind < 76) {
            final int symbol = symbol();
            return c.setReferencePrice(symbol, random.nextInt(20) == 0 ? 0 : priceNear(symbol == UNKNOWN_SYMBOL ? PLAIN : symbol));
        }
        if (kind < 78) {
            return c.symbolCommand(CommandType.SNAPSHOT, 0);
        }
        if (kind < 97) {
            final SelfTradePrevention stp = random.nextInt(20) == 0 ? null
                : SelfTradePrevention.values()[random.nextInt(SelfTradePrevention.values().length)];
            return c.setAccountLimits(random.nextInt(10) == 0 ? 11 + random.nextInt(3) : account(),
                random.nextInt(3) == 0 ? 100 + random.nextInt(200) : random.nextInt(30) == 0 ? -1 : 0,
                random.nextInt(3) == 0 ? 500_000 + random.nextInt(2_000_000) : 0,
                random.nextInt(3) == 0 ? 5 + random.nextInt(20) : 0, stp);
        }
        return c.clear();
    }
}
