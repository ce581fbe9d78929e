package io.chronex.queues;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
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
 * Reads the engine's YAML configuration (assets, symbols, accounts, risk checks). Every mistake is reported
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
            Set.of("riskChecks", "createAccountsOnFirstUse", "defaultAccount", "assets", "symbols", "accounts"));
        if (!top.containsKey("symbols")) {
            throw yaml.error(root, "'symbols' is missing: the engine needs at least one symbol");
        }
        final int riskChecks = top.containsKey("riskChecks") ? riskChecks(top.get("riskChecks")) : RiskCheck.all();
        final boolean createAccounts = top.containsKey("createAccountsOnFirstUse") && yaml.bool(top.get("createAccountsOnFirstUse"));
        final AccountSpec defaultAccount = top.containsKey("defaultAccount") ? account(top.get("defaultAccount"), false)
            : AccountSpec.unlimited(0);
        final List<AssetSpec> assets = new ArrayList<>();
        if (top.containsKey("assets")) {
            for (final Node node : yaml.sequence(top.get("assets"))) {
                final AssetSpec asset = asset(node);
                for (final AssetSpec other : assets) {
                    if (other.id() == asset.id() || other.code().equals(asset.code())) {
                        throw yaml.error(node, "asset " + asset.code() + " (id " + asset.id() + ") is configured twice");
                    }
                }
                assets.add(asset);
            }
        }
        final List<SymbolSpec> symbols = new ArrayList<>();
        for (final Node node : yaml.sequence(top.get("symbols"))) {
            final SymbolSpec symbol = symbol(node, assets);
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
        return new EngineConfig(symbols, accounts, riskChecks, createAccounts, defaultAccount, assets);
    }

    private AssetSpec asset(final Node node) throws ConfigException {
        final Map<String, Node> m = yaml.mapping(node, Set.of("id", "code", "decimals"));
        final long id = yaml.required(node, m, "id");
        if (id < 1 || id > Integer.MAX_VALUE) {
            throw yaml.error(m.get("id"), "asset id must be 1.." + Integer.MAX_VALUE);
        }
        if (!m.containsKey("code")) {
            throw yaml.error(node, "'code' is missing (the asset's name, e.g. USD)");
        }
        final String code = yaml.scalar(m.get("code"));
        if (!code.matches("[A-Za-z0-9_.-]{1,16}")) {
            throw yaml.error(m.get("code"), "asset code '" + code + "' must be 1-16 letters, digits, '_', '.' or '-'");
        }
        final long decimals = yaml.optional(m, "decimals", 0);
        if (decimals < 0 || decimals > AssetSpec.MAX_DECIMALS) {
            throw yaml.error(m.get("decimals"), "decimals must be 0.." + AssetSpec.MAX_DECIMALS);
        }
        return new AssetSpec((int) id, code, (int) decimals);
    }

    private SymbolSpec symbol(final Node node, final List<AssetSpec> assets) throws ConfigException {
        final Map<String, Node> m = yaml.mapping(node,
            Set.of("id", "name", "priceScale", "tickSize", "lotSize", "priceBandBasisPoints", "referencePrice",
                "baseAsset", "quoteAsset", "baseScale", "quoteScale", "takerFee", "makerFee"));
        final long id = yaml.required(node, m, "id");
        if (id < 1 || id > Integer.MAX_VALUE) {
            throw yaml.error(m.get("id"), "symbol id must be 1.." + Integer.MAX_VALUE + " (0 means 'every symbol')");
        }
        final String name = m.containsKey("name") ? yaml.scalar(m.get("name")) : "S" + id;
        if (m.containsKey("baseAsset") != m.containsKey("quoteAsset")) {
            throw yaml.error(node, "name both 'baseAsset' and 'quoteAsset', or neither");
        }
        try {
            return new SymbolSpec((int) id, name, yaml.optional(m, "priceScale", 1), yaml.optional(m, "tickSize", 1),
                yaml.optional(m, "lotSize", 1),
                yaml.optional(m, "priceBandBasisPoints", 0), yaml.optional(m, "referencePrice", 0),
                assetId(m.get("baseAsset"), assets), assetId(m.get("quoteAsset"), assets),
                yaml.optional(m, "baseScale", 1), yaml.optional(m, "quoteScale", 1),
                yaml.optional(m, "takerFee", 0), yaml.optional(m, "makerFee", 0));
        } catch (final IllegalArgumentException e) {
            throw yaml.error(node, e.getMessage());
        }
    }

    /** The id of the asset a symbol names by code; 0 when not named. */
    private int assetId(final Node node, final List<AssetSpec> assets) throws ConfigException {
        if (node == null) {
            return 0;
        }
        final String code = yaml.scalar(node);
        for (final AssetSpec asset : assets) {
            if (asset.code().equals(code)) {
                return asset.id();
            }
        }
        throw yaml.error(node, "asset '" + code + "' is not one of the configured 'assets'");
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
