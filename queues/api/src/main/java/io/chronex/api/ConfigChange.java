package io.chronex.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What differs between two configurations of one data directory, spelled out for people, and which of it the engine
 * cannot apply under live books and history. One rule for the engine (which refuses at start, and answers a change
 * record in the journal) and for every reader that follows the journal's configuration.
 *
 * <p>Applicable: adding symbols and accounts; an existing symbol's price band and reference price; an account's limits
 * and self-trade prevention; the risk checks, createAccountsOnFirstUse and the default account. Not: removing a symbol
 * or an account (history and resting orders name them), changing a symbol's name, scales, tick, lot, assets or fees
 * (resting orders and holds were priced with them), and any change to the assets (balances are kept per asset).
 */
public final class ConfigChange {
    private final EngineConfig from;
    private final EngineConfig to;
    private final List<String> differences = new ArrayList<>();
    private final List<String> refusals = new ArrayList<>();

    private ConfigChange(final EngineConfig from, final EngineConfig to) {
        this.from = from;
        this.to = to;
    }

    /** The change from {@code from} (the journal's) to {@code to}. */
    public static ConfigChange between(final EngineConfig from, final EngineConfig to) {
        final ConfigChange change = new ConfigChange(from, to);
        change.compareSettings();
        change.compareAssets();
        change.compareSymbols();
        change.compareAccounts();
        return change;
    }

    /** Nothing differs. */
    public boolean isEmpty() {
        return differences.isEmpty();
    }

    /** Every difference, one line each, in the order settings, assets, symbols, accounts. */
    public List<String> differences() {
        return List.copyOf(differences);
    }

    /** The differences the engine cannot apply, with why; empty when the change is applicable. */
    public List<String> refusals() {
        return List.copyOf(refusals);
    }

    public boolean applicable() {
        return refusals.isEmpty();
    }

    /**
     * The engine's configuration {@code current} (the one recorded, plus what commands changed since: reference prices,
     * account limits, accounts created on first use) with this change made; only what the change touches is replaced.
     */
    public EngineConfig applyTo(final EngineConfig current) {
        if (!applicable()) {
            throw new IllegalStateException("not applicable: " + refusals);
        }
        final List<SymbolSpec> symbols = new ArrayList<>(current.symbols());
        for (final SymbolSpec next : to.symbols()) {
            final SymbolSpec before = symbol(from.symbols(), next.id());
            final int at = indexOfSymbol(symbols, next.id());
            if (before == null && at < 0) {
                symbols.add(next);
            } else if (before != null && at >= 0 && !before.equals(next)) {
                final SymbolSpec now = symbols.get(at);
                symbols.set(at, new SymbolSpec(now.id(), now.name(), now.priceScale(), now.tickSize(), now.lotSize(),
                    next.priceBandBasisPoints(), before.referencePrice() != next.referencePrice() ? next.referencePrice()
                    : now.referencePrice(), now.baseAsset(), now.quoteAsset(), now.baseScale(), now.quoteScale(), now.takerFee(),
                    now.makerFee()));
            }
        }
        final List<AccountSpec> accounts = new ArrayList<>(current.accounts());
        for (final AccountSpec next : to.accounts()) {
            if (next.equals(account(from.accounts(), next.id()))) {
                continue;
            }
            final int at = indexOfAccount(accounts, next.id());
            if (at < 0) {
                accounts.add(next);
            } else {
                accounts.set(at, next);
            }
        }
        return new EngineConfig(symbols, accounts, to.riskChecks(), to.createAccountsOnFirstUse(), to.defaultAccount(),
            current.assets());
    }

    private void compareSettings() {
        if (from.riskChecks() != to.riskChecks()) {
            differences.add("riskChecks: " + RiskCheck.names(from.riskChecks()) + " -> " + RiskCheck.names(to.riskChecks()));
        }
        if (from.createAccountsOnFirstUse() != to.createAccountsOnFirstUse()) {
            differences.add("createAccountsOnFirstUse: " + from.createAccountsOnFirstUse() + " -> " + to.createAccountsOnFirstUse());
        }
        if (!from.defaultAccount().equals(to.defaultAccount())) {
            differences.add("defaultAccount: " + limits(from.defaultAccount()) + " -> " + limits(to.defaultAccount()));
        }
    }

    private void compareAssets() {
        for (final AssetSpec before : from.assets()) {
            final AssetSpec after = to.asset(before.id());
            if (after == null) {
                refuse("asset " + before.code() + " (" + before.id() + ") removed");
            } else if (!after.equals(before)) {
                refuse("asset " + before.id() + ": " + before.code() + " " + before.decimals() + " decimals -> " + after.code() + " "
                    + after.decimals() + " decimals");
            }
        }
        for (final AssetSpec after : to.assets()) {
            if (from.asset(after.id()) == null) {
                refuse("asset " + after.code() + " (" + after.id() + ") added");
            }
        }
        if (!refusals.isEmpty()) {
            refusals.add("the assets cannot change in a data directory (balances are kept per asset): start a new one");
        }
    }

    private void compareSymbols() {
        for (final SymbolSpec before : from.symbols()) {
            final SymbolSpec after = symbol(to.symbols(), before.id());
            if (after == null) {
                refuse("symbol " + before.name() + " (" + before.id() + ") removed: history and resting orders name it;"
                    + " keep it in the file (halt it with bin/admin to stop its trading)");
            } else if (!after.equals(before)) {
                compareSymbol(before, after);
            }
        }
        for (final SymbolSpec after : to.symbols()) {
            if (symbol(from.symbols(), after.id()) == null) {
                differences.add("symbol " + after.name() + " (" + after.id() + ") added");
            }
        }
    }

    private void compareSymbol(final SymbolSpec before, final SymbolSpec after) {
        final String name = "symbol " + before.name() + " (" + before.id() + ")";
        if (before.priceBandBasisPoints() != after.priceBandBasisPoints()) {
            differences.add(name + ": priceBandBasisPoints " + before.priceBandBasisPoints() + " -> " + after.priceBandBasisPoints());
        }
        if (before.referencePrice() != after.referencePrice()) {
            differences.add(name + ": referencePrice " + before.referencePrice() + " -> " + after.referencePrice());
        }
        final List<String> fixed = new ArrayList<>();
        field(fixed, "name", before.name(), after.name());
        field(fixed, "priceScale", before.priceScale(), after.priceScale());
        field(fixed, "tickSize", before.tickSize(), after.tickSize());
        field(fixed, "lotSize", before.lotSize(), after.lotSize());
        field(fixed, "baseAsset", before.baseAsset(), after.baseAsset());
        field(fixed, "quoteAsset", before.quoteAsset(), after.quoteAsset());
        field(fixed, "baseScale", before.baseScale(), after.baseScale());
        field(fixed, "quoteScale", before.quoteScale(), after.quoteScale());
        field(fixed, "takerFee", before.takerFee(), after.takerFee());
        field(fixed, "makerFee", before.makerFee(), after.makerFee());
        if (!fixed.isEmpty()) {
            refuse(name + ": " + String.join(", ", fixed) + ": resting orders and holds were priced with these;"
                + " list the instrument as a new symbol instead");
        }
    }

    private void compareAccounts() {
        for (final AccountSpec before : from.accounts()) {
            final AccountSpec after = account(to.accounts(), before.id());
            if (after == null) {
                refuse("account " + before.id() + " removed: history names it and it may hold orders and money; keep it in the file"
                    + " (bin/admin kill-switch-on stops its trading)");
            } else if (!after.equals(before)) {
                differences.add("account " + before.id() + ": " + limits(before) + " -> " + limits(after));
            }
        }
        for (final AccountSpec after : to.accounts()) {
            if (account(from.accounts(), after.id()) == null) {
                differences.add("account " + after.id() + " added: " + limits(after));
            }
        }
    }

    private void refuse(final String what) {
        differences.add(what);
        refusals.add(what);
    }

    private static void field(final List<String> out, final String name, final Object before, final Object after) {
        if (!Objects.equals(before, after)) {
            out.add(name + " " + before + " -> " + after);
        }
    }

    private static String limits(final AccountSpec a) {
        return "maxOrderQuantity " + a.maxOrderQuantity() + ", maxOrderNotional " + a.maxOrderNotional() + ", maxOpenOrders "
            + a.maxOpenOrders() + ", selfTradePrevention " + a.selfTradePrevention();
    }

    private static SymbolSpec symbol(final List<SymbolSpec> symbols, final int id) {
        final int at = indexOfSymbol(symbols, id);
        return at < 0 ? null : symbols.get(at);
    }

    private static int indexOfSymbol(final List<SymbolSpec> symbols, final int id) {
        return indexOf(symbols, s -> s.id() == id);
    }

    private static AccountSpec account(final List<AccountSpec> accounts, final long id) {
        final int at = indexOfAccount(accounts, id);
        return at < 0 ? null : accounts.get(at);
    }

    private static int indexOfAccount(final List<AccountSpec> accounts, final long id) {
        return indexOf(accounts, a -> a.id() == id);
    }

    private static <T> int indexOf(final List<T> list, final java.util.function.Predicate<T> which) {
        for (int i = 0; i < list.size(); i++) {
            if (which.test(list.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
