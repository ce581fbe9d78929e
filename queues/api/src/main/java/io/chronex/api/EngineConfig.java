package io.chronex.api;

import java.util.List;

/**
 * Everything the engine starts from: symbols, accounts, the assets they hold, which risk checks run,
 * and whether unknown accounts are created on first use (with the limits of {@code defaultAccount}, id ignored).
 */
public record EngineConfig(List<SymbolSpec> symbols, List<AccountSpec> accounts, int riskChecks,
                           boolean createAccountsOnFirstUse, AccountSpec defaultAccount, List<AssetSpec> assets) {
    /** A configuration without assets: no account holds money and trading moves none. */
    public EngineConfig(final List<SymbolSpec> symbols, final List<AccountSpec> accounts, final int riskChecks,
                        final boolean createAccountsOnFirstUse, final AccountSpec defaultAccount) {
        this(symbols, accounts, riskChecks, createAccountsOnFirstUse, defaultAccount, List.of());
    }

    public EngineConfig {
        symbols = List.copyOf(symbols);
        accounts = List.copyOf(accounts);
        assets = List.copyOf(assets);
        if (defaultAccount == null) {
            defaultAccount = AccountSpec.unlimited(0);
        }
        for (int i = 0; i < assets.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (assets.get(i).id() == assets.get(j).id() || assets.get(i).code().equals(assets.get(j).code())) {
                    throw new IllegalArgumentException("asset " + assets.get(i).code() + " (id " + assets.get(i).id()
                        + ") is configured twice");
                }
            }
        }
        for (final SymbolSpec symbol : symbols) {
            // The parameter, not asset(id): a compact constructor assigns the record's fields only after its body.
            if (symbol.hasAssets() && (find(assets, symbol.baseAsset()) == null || find(assets, symbol.quoteAsset()) == null)) {
                throw new IllegalArgumentException("symbol " + symbol.name() + " names an asset that is not configured");
            }
        }
    }

    /** The asset with this id, or null. */
    public AssetSpec asset(final int id) {
        return find(assets, id);
    }

    private static AssetSpec find(final List<AssetSpec> assets, final int id) {
        for (final AssetSpec asset : assets) {
            if (asset.id() == id) {
                return asset;
            }
        }
        return null;
    }

    /** The asset with this code, or null. */
    public AssetSpec asset(final String code) {
        for (final AssetSpec asset : assets) {
            if (asset.code().equals(code)) {
                return asset;
            }
        }
        return null;
    }

    /** The exchange-core benchmark setup: the given symbols, every risk check off, accounts created on first use. */
    public static EngineConfig noRiskChecks(final SymbolSpec... symbols) {
        return new EngineConfig(List.of(symbols), List.of(), 0, true, AccountSpec.unlimited(0));
    }

    public boolean isOn(final RiskCheck check) {
        return (riskChecks & check.bit()) != 0;
    }
}
