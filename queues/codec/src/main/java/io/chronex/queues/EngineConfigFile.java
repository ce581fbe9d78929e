package io.chronex.queues;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
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
import java.util.regex.Pattern;

/**
 * Reads the engine's YAML configuration (assets, symbols, accounts, risk checks). Every mistake is reported
 * as "file:line: reason" before anything starts; unknown keys are errors, not silently ignored.
 * The format is documented in docs/operating.md and shown by config/*.yaml.
 */
public final class EngineConfigFile {
    /** What a symbol may be called: it travels in FIX Symbol (55), in logs and in command lines. */
    private static final Pattern SYMBOL_NAME = Pattern.compile("[A-Za-z0-9_./-]{1,32}");
    /** A price band of 10,000 % is already no band; more is a typo. */
    static final long MAX_BAND_BASIS_POINTS = 1_000_000;

    private final ConfigYaml yaml;

    private EngineConfigFile(final ConfigYaml yaml) {
        this.yaml = yaml;
    }

    public static EngineConfig load(final Path file) throws ConfigException {
        return new EngineConfigFile(new ConfigYaml(file)).read();
    }

    /** A configuration that is not a file (the journal's records), by the same rules; errors name {@code name}. */
    public static EngineConfig parse(final String name, final byte[] document) throws ConfigException {
        return new EngineConfigFile(new ConfigYaml(name, document)).read();
    }

    /**
     * The configuration as this format writes it, one canonical text per configuration (every field, in a fixed order),
     * which {@link #parse} reads back equal: what the journal records and bin/audit config prints.
     */
    public static String text(final EngineConfig config) {
        final StringBuilder out = new StringBuilder(256 + 200 * (config.symbols().size() + config.accounts().size()));
        out.append("riskChecks: ").append(RiskCheck.names(config.riskChecks())).append('\n');
        out.append("createAccountsOnFirstUse: ").append(config.createAccountsOnFirstUse()).append('\n');
        out.append("defaultAccount: ").append(limits(config.defaultAccount(), false)).append('\n');
        out.append("assets:").append(config.assets().isEmpty() ? " []\n" : "\n");
        for (final AssetSpec asset : config.assets()) {
            out.append("  - {id: ").append(asset.id()).append(", code: \"").append(asset.code()).append("\", decimals: ")
                .append(asset.decimals()).append("}\n");
        }
        out.append("symbols:\n");
        for (final SymbolSpec s : config.symbols()) {
            out.append("  - {id: ").append(s.id()).append(", name: \"").append(s.name()).append("\", priceScale: ")
                .append(s.priceScale())
                .append(", tickSize: ").append(s.tickSize()).append(", lotSize: ").append(s.lotSize())
                .append(", priceBandBasisPoints: ").append(s.priceBandBasisPoints())
                .append(", referencePrice: ").append(s.referencePrice());
            if (s.hasAssets()) {
                out.append(", baseAsset: \"").append(config.asset(s.baseAsset()).code()).append("\", quoteAsset: \"")
                    .append(config.asset(s.quoteAsset()).code()).append('"');
            }
            out.append(", baseScale: ").append(s.baseScale()).append(", quoteScale: ").append(s.quoteScale())
                .append(", takerFee: ").append(s.takerFee()).append(", makerFee: ").append(s.makerFee()).append("}\n");
        }
        out.append("accounts:").append(config.accounts().isEmpty() ? " []\n" : "\n");
        for (final AccountSpec account : config.accounts()) {
            out.append("  - ").append(limits(account, true)).append('\n');
        }
        return out.toString();
    }

    private static String limits(final AccountSpec a, final boolean withId) {
        return "{" + (withId ? "id: " + a.id() + ", " : "") + "maxOrderQuantity: " + a.maxOrderQuantity() + ", maxOrderNotional: "
            + a.maxOrderNotional() + ", maxOpenOrders: " + a.maxOpenOrders() + ", selfTradePrevention: " + a.selfTradePrevention() + "}";
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
                if (other.name().equalsIgnoreCase(symbol.name())) { // the tools look names up ignoring case
                    throw yaml.error(node, "symbol name " + symbol.name() + " is symbol " + other.id()
                        + "'s too: a FIX order's Symbol (55) must name one symbol");
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
        if (!SYMBOL_NAME.matcher(name).matches() || !name.matches(".*[A-Za-z].*")) {
            // FIX carries it as Symbol (55): a space, '=' or a control character there would split or corrupt the field; a
            // name of digits alone would read as another symbol's id in the tools.
            throw yaml.error(m.get("name"), "symbol name '" + printable(name) + "' must be 1-32 letters, digits, '_', '.', '/' or '-',"
                + " with a letter");
        }
        if (m.containsKey("baseAsset") != m.containsKey("quoteAsset")) {
            throw yaml.error(node, "name both 'baseAsset' and 'quoteAsset', or neither");
        }
        try {
            // Bounds that keep every product the engine forms (price x quantity x scale, band x reference) within what its
            // overflow-checked arithmetic is written for.
            return new SymbolSpec((int) id, name, yaml.bounded(m, "priceScale", 1, 1, Command.MAX_PRICE),
                yaml.bounded(m, "tickSize", 1, 1, Command.MAX_PRICE), yaml.bounded(m, "lotSize", 1, 1, Command.MAX_QUANTITY),
                yaml.bounded(m, "priceBandBasisPoints", 0, 0, MAX_BAND_BASIS_POINTS),
                yaml.bounded(m, "referencePrice", 0, 0, Command.MAX_PRICE),
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
        if (needsId && id < 1) {
            throw yaml.error(m.get("id"), "account id must be 1.." + Long.MAX_VALUE + ", found " + id);
        }
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
            return new AccountSpec(id, yaml.bounded(m, "maxOrderQuantity", 0, 0, Command.MAX_QUANTITY),
                yaml.bounded(m, "maxOrderNotional", 0, 0, Long.MAX_VALUE),
                (int) maxOpen, stp);
        } catch (final IllegalArgumentException e) {
            throw yaml.error(node, e.getMessage());
        }
    }

    /** A name as it can be shown in one line: control characters as \\uXXXX. */
    private static String printable(final String name) {
        final StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            final char c = name.charAt(i);
            out.append(c < 0x20 || c == 0x7f ? String.format("\\u%04X", (int) c) : String.valueOf(c));
        }
        return out.toString();
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
