package io.chronex.engine.process;

import io.chronex.engine.api.AccountSpec;
import io.chronex.engine.api.EngineConfig;
import io.chronex.engine.api.RiskCheck;
import io.chronex.engine.api.SelfTradePrevention;
import io.chronex.engine.api.SymbolSpec;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the engine's YAML configuration (symbols, accounts, risk checks). Every mistake is reported
 * as "file:line: reason" before anything starts; unknown keys are errors, not silently ignored.
 * The format is documented in docs/operating.md and shown by config/*.yaml.
 */
public final class EngineConfigFile {
    /** A configuration mistake, with the file and line it is on. */
    public static final class ConfigException extends Exception {
        private static final long serialVersionUID = 1L;

        ConfigException(final String message) {
            super(message);
        }
    }

    private final Path file;

    private EngineConfigFile(final Path file) {
        this.file = file;
    }

    public static EngineConfig load(final Path file) throws ConfigException {
        return new EngineConfigFile(file).read();
    }

    private EngineConfig read() throws ConfigException {
        final Node root;
        try (Reader reader = Files.newBufferedReader(file)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).compose(reader);
        } catch (final MarkedYAMLException e) {
            throw new ConfigException(file + ":" + (e.getProblemMark().getLine() + 1) + ": not valid YAML: " + e.getProblem());
        } catch (final IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
        if (root == null) {
            throw new ConfigException(file + ":1: empty configuration; it needs at least 'symbols'");
        }
        final Map<String, Node> top = mapping(root, Set.of("riskChecks", "createAccountsOnFirstUse", "defaultAccount", "symbols", "accounts"));
        if (!top.containsKey("symbols")) {
            throw error(root, "'symbols' is missing: the engine needs at least one symbol");
        }
        final int riskChecks = top.containsKey("riskChecks") ? riskChecks(top.get("riskChecks")) : RiskCheck.all();
        final boolean createAccounts = top.containsKey("createAccountsOnFirstUse") && bool(top.get("createAccountsOnFirstUse"));
        final AccountSpec defaultAccount = top.containsKey("defaultAccount") ? account(top.get("defaultAccount"), false) : AccountSpec.unlimited(0);
        final List<SymbolSpec> symbols = new ArrayList<>();
        for (final Node node : sequence(top.get("symbols"))) {
            final SymbolSpec symbol = symbol(node);
            for (final SymbolSpec other : symbols) {
                if (other.id() == symbol.id()) {
                    throw error(node, "symbol id " + symbol.id() + " is configured twice");
                }
            }
            symbols.add(symbol);
        }
        if (symbols.isEmpty()) {
            throw error(top.get("symbols"), "'symbols' is empty: the engine needs at least one symbol");
        }
        final List<AccountSpec> accounts = new ArrayList<>();
        if (top.containsKey("accounts")) {
            for (final Node node : sequence(top.get("accounts"))) {
                final AccountSpec account = account(node, true);
                for (final AccountSpec other : accounts) {
                    if (other.id() == account.id()) {
                        throw error(node, "account id " + account.id() + " is configured twice");
                    }
                }
                accounts.add(account);
            }
        }
        return new EngineConfig(symbols, accounts, riskChecks, createAccounts, defaultAccount);
    }

    private SymbolSpec symbol(final Node node) throws ConfigException {
        final Map<String, Node> m = mapping(node, Set.of("id", "name", "priceScale", "tickSize", "lotSize", "priceBandBasisPoints", "referencePrice"));
        final long id = required(node, m, "id");
        if (id < 1 || id > Integer.MAX_VALUE) {
            throw error(m.get("id"), "symbol id must be 1.." + Integer.MAX_VALUE + " (0 means 'every symbol')");
        }
        final String name = m.containsKey("name") ? scalar(m.get("name")) : "S" + id;
        try {
            return new SymbolSpec((int) id, name, optional(m, "priceScale", 1), optional(m, "tickSize", 1), optional(m, "lotSize", 1),
                optional(m, "priceBandBasisPoints", 0), optional(m, "referencePrice", 0));
        } catch (final IllegalArgumentException e) {
            throw error(node, e.getMessage());
        }
    }

    private AccountSpec account(final Node node, final boolean needsId) throws ConfigException {
        final Map<String, Node> m = mapping(node, Set.of("id", "maxOrderQuantity", "maxOrderNotional", "maxOpenOrders", "selfTradePrevention"));
        final long id = needsId ? required(node, m, "id") : 0;
        final long maxOpen = optional(m, "maxOpenOrders", 0);
        if (maxOpen > Integer.MAX_VALUE) {
            throw error(m.get("maxOpenOrders"), "maxOpenOrders is too large");
        }
        SelfTradePrevention stp = SelfTradePrevention.OFF;
        if (m.containsKey("selfTradePrevention")) {
            final String value = scalar(m.get("selfTradePrevention"));
            try {
                stp = SelfTradePrevention.valueOf(value);
            } catch (final IllegalArgumentException e) {
                throw error(m.get("selfTradePrevention"), "selfTradePrevention '" + value + "' is not one of " + List.of(SelfTradePrevention.values()));
            }
        }
        try {
            return new AccountSpec(id, optional(m, "maxOrderQuantity", 0), optional(m, "maxOrderNotional", 0), (int) maxOpen, stp);
        } catch (final IllegalArgumentException e) {
            throw error(node, e.getMessage());
        }
    }

    private int riskChecks(final Node node) throws ConfigException {
        if (node instanceof ScalarNode) {
            final String value = scalar(node);
            if (value.equals("all")) {
                return RiskCheck.all();
            }
            if (value.equals("none")) {
                return 0;
            }
            throw error(node, "riskChecks must be 'all', 'none' or a list of " + List.of(RiskCheck.values()));
        }
        int bits = 0;
        for (final Node item : sequence(node)) {
            final String value = scalar(item);
            try {
                bits |= RiskCheck.valueOf(value).bit();
            } catch (final IllegalArgumentException e) {
                throw error(item, "unknown risk check '" + value + "'; known: " + List.of(RiskCheck.values()));
            }
        }
        return bits;
    }

    private Map<String, Node> mapping(final Node node, final Set<String> allowed) throws ConfigException {
        if (!(node instanceof MappingNode mapping)) {
            throw error(node, "expected a mapping of " + allowed);
        }
        final Map<String, Node> values = new LinkedHashMap<>();
        for (final NodeTuple tuple : mapping.getValue()) {
            final String key = scalar(tuple.getKeyNode());
            if (!allowed.contains(key)) {
                throw error(tuple.getKeyNode(), "unknown key '" + key + "'; expected one of " + allowed);
            }
            if (values.put(key, tuple.getValueNode()) != null) {
                throw error(tuple.getKeyNode(), "'" + key + "' is given twice");
            }
        }
        return values;
    }

    private List<Node> sequence(final Node node) throws ConfigException {
        if (!(node instanceof SequenceNode sequence)) {
            throw error(node, "expected a list");
        }
        return sequence.getValue();
    }

    private String scalar(final Node node) throws ConfigException {
        if (!(node instanceof ScalarNode scalar)) {
            throw error(node, "expected a single value");
        }
        return scalar.getValue();
    }

    private boolean bool(final Node node) throws ConfigException {
        final String value = scalar(node);
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        throw error(node, "expected true or false, found '" + value + "'");
    }

    private long number(final Node node, final String key) throws ConfigException {
        final String value = scalar(node).replace("_", "");
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw error(node, key + " must be a whole number (prices and quantities are ticks and lots), found '" + scalar(node) + "'");
        }
    }

    private long required(final Node owner, final Map<String, Node> m, final String key) throws ConfigException {
        if (!m.containsKey(key)) {
            throw error(owner, "'" + key + "' is missing");
        }
        return number(m.get(key), key);
    }

    private long optional(final Map<String, Node> m, final String key, final long fallback) throws ConfigException {
        return m.containsKey(key) ? number(m.get(key), key) : fallback;
    }

    private ConfigException error(final Node node, final String reason) {
        return new ConfigException(file + ":" + (node.getStartMark().getLine() + 1) + ": " + reason);
    }
}
