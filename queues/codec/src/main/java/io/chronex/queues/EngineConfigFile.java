package io.chronex.queues;

import io.chronex.api.AccountSpec;
import io.chronex.api.EngineConfig;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.SymbolSpec;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.ConfigYaml.ConfigException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the engine's YAML configuration (symbols, accounts, risk checks). Every mistake is reported
 * as "file:line: reason" before anything starts; unknown keys are errors, not silently ignored.
 * The format is documented in docs/operating.md and shown by config/*.yaml.
 */
public final class EngineConfigFile {
    private final ConfigYaml yaml;

    private EngineConfigFile(final Path file) {
        this.yaml = new ConfigYaml(file);
    }

    public static EngineConfig load(final Path file) throws ConfigException {
        return new EngineConfigFile(file).read();
    }

    private EngineConfig read() throws ConfigException {
        final Node root = yaml.root("at least 'symbols'");
        final Map<String, Node> top = yaml.mapping(root,
            Set.of("riskChecks", "createAccountsOnFirstUse", "defaultAccount", "symbols", "accounts"));
        if (!top.containsKey("symbols")) {
            throw yaml.error(root, "'symbols' is missing: the engine needs at least one symbol");
        }
        final int riskChecks = top.containsKey("riskChecks") ? riskChecks(top.get("riskChecks")) : RiskCheck.all();
        final boolean createAccounts = top.containsKey("createAccountsOnFirstUse") && yaml.bool(top.get("createAccountsOnFirstUse"));
        final AccountSpec defaultAccount = top.containsKey("defaultAccount") ? account(top.get("defaultAccount"), false)
            : AccountSpec.unlimited(0);
        final List<SymbolSpec> symbols = new ArrayList<>();
        for (final Node node : yaml.sequence(top.get("symbols"))) {
            final SymbolSpec symbol = symbol(node);
            for (final SymbolSpec other : symbols) {
                if (other.id() == symbol.id()) {
                    throw yaml.error(node, "symbol id " + symbol.id() + " is configured twice");
                }
            }
            symbols.add(symbol);
        }
        if (symbols.isEmpty()) {
            throw yaml.error(top.get("symbols"), "'symbols' is empty: the engine needs at least one symbol");
        }
        final List<AccountSpec> accounts = new ArrayList<>();
        if (top.containsKey("accounts")) {
            for (final Node node : yaml.sequence(top.get("accounts"))) {
                final AccountSpec account = account(node, true);
                for (final AccountSpec other : accounts) {
                    if (other.id() == account.id()) {
                        throw yaml.error(node, "account id " + account.id() + " is configured twice");
                    }
                }
                accounts.add(account);
            }
        }
        return new EngineConfig(symbols, accounts, riskChecks, createAccounts, defaultAccount);
    }

    private SymbolSpec symbol(final Node node) throws ConfigException {
        final Map<String, Node> m = yaml.mapping(node,
            Set.of("id", "name", "priceScale", "tickSize", "lotSize", "priceBandBasisPoints", "referencePrice"));
        final long id = yaml.required(node, m, "id");
        if (id < 1 || id > Integer.MAX_VALUE) {
            throw yaml.error(m.get("id"), "symbol id must be 1.." + Integer.MAX_VALUE + " (0 means 'every symbol')");
        }
        final String name = m.containsKey("name") ? yaml.scalar(m.get("name")) : "S" + id;
        try {
            return new SymbolSpec((int) id, name, yaml.optional(m, "priceScale", 1), yaml.optional(m, "tickSize", 1),
                yaml.optional(m, "lotSize", 1),
                yaml.optional(m, "priceBandBasisPoints", 0), yaml.optional(m, "referencePrice", 0));
        } catch (final IllegalArgumentException e) {
            throw yaml.error(node, e.getMessage());
        }
    }

    private AccountSpec account(final Node node, final boolean needsId) throws ConfigException {
        final Map<String, Node> m = yaml.mapping(node,
            Set.of("id", "maxOrderQuantity", "maxOrderNotional", "maxOpenOrders", "selfTradePrevention"));
        final long id = needsId ? yaml.required(node, m, "id") : 0;
        final long maxOpen = yaml.optional(m, "maxOpenOrders", 0);
        if (maxOpen > Integer.MAX_VALUE) {
            throw yaml.error(m.get("maxOpenOrders"), "maxOpenOrders is too large");
        }
        SelfTradePrevention stp = SelfTradePrevention.OFF;
        if (m.containsKey("selfTradePrevention")) {
            final String value = yaml.scalar(m.get("selfTradePrevention"));
            try {
                stp = SelfTradePrevention.valueOf(value);
            } catch (final IllegalArgumentException e) {
                throw yaml.error(m.get("selfTradePrevention"), "selfTradePrevention '" + value + "' is not one of "
                    + List.of(SelfTradePrevention.values()));
            }
        }
        try {
            return new AccountSpec(id, yaml.optional(m, "maxOrderQuantity", 0), yaml.optional(m, "maxOrderNotional", 0),
                (int) maxOpen, stp);
        } catch (final IllegalArgumentException e) {
            throw yaml.error(node, e.getMessage());
        }
    }

    private int riskChecks(final Node node) throws ConfigException {
        if (node instanceof ScalarNode) {
            final String value = yaml.scalar(node);
            if (value.equals("all")) {
                return RiskCheck.all();
            }
            if (value.equals("none")) {
                return 0;
            }
            throw yaml.error(node, "riskChecks must be 'all', 'none' or a list of " + List.of(RiskCheck.values()));
        }
        int bits = 0;
        for (final Node item : yaml.sequence(node)) {
            final String value = yaml.scalar(item);
            try {
                bits |= RiskCheck.valueOf(value).bit();
            } catch (final IllegalArgumentException e) {
                throw yaml.error(item, "unknown risk check '" + value + "'; known: " + List.of(RiskCheck.values()));
            }
        }
        return bits;
    }
}
