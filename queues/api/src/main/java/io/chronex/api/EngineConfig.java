package io.chronex.api;

import java.util.List;

/**
 * Everything the engine starts from: symbols, accounts, which risk checks run, and whether unknown
 * accounts are created on first use (with the limits of {@code defaultAccount}, id ignored).
 */
public record EngineConfig(List<SymbolSpec> symbols, List<AccountSpec> accounts, int riskChecks,
                           boolean createAccountsOnFirstUse, AccountSpec defaultAccount) {
    public EngineConfig {
        symbols = List.copyOf(symbols);
        accounts = List.copyOf(accounts);
        if (defaultAccount == null) {
            defaultAccount = AccountSpec.unlimited(0);
        }
    }

    /** The exchange-core benchmark setup: the given symbols, every risk check off, accounts created on first use. */
    public static EngineConfig noRiskChecks(final SymbolSpec... symbols) {
        return new EngineConfig(List.of(symbols), List.of(), 0, true, AccountSpec.unlimited(0));
    }

    public boolean isOn(final RiskCheck check) {
        return (riskChecks & check.bit()) != 0;
    }
}
