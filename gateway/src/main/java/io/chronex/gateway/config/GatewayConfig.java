package io.chronex.gateway.config;

import io.chronex.api.AssetSpec;
import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.runtime.Args;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.runtime.StorageGuard;
import io.chronex.runtime.tls.TlsIdentity;
import io.chronex.queues.EngineConfigFile;
import org.yaml.snakeyaml.nodes.Node;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A gateway's configuration (config/gateway.yaml): where it listens, its CompID, limits, and the
 * FIX sessions it serves, each bound to one account. Symbols come from the engine's own file, so
 * the two can never disagree about names, price scales and ticks; so do the assets accounts hold
 * (empty when the engine's file has none), which a CollateralInquiry asks the balances of. With a
 * {@code tls} identity the FIX port speaks TLS only.
 */
public record GatewayConfig(String compId, String bind, int port, Path engineConfigFile, List<Symbol> symbols,
                            int maxMessageLength, int maxConnections, int maxUnauthenticatedPerAddress, int logonTimeoutSeconds,
                            int throttlePerSecond, List<Session> sessions, int writeStallSeconds, long storageReserve,
                            int sendingTimeToleranceSeconds, boolean validateUnusedFields, int marketDataMaxBacklog,
                            int marketDataMaxSubscriptions, List<AssetSpec> assets, TlsIdentity tls) {
    /** How far a client's SendingTime may be from the gateway's clock unless the file says otherwise (as QuickFIX/J's MaxLatency). */
    public static final int DEFAULT_SENDING_TIME_TOLERANCE_SECONDS = 120;

    /**
     * A tradable symbol as the gateway sees it: its FIX name, how a decimal price becomes ticks, and the assets its
     * orders are paid in (null when it has none), for the texts of funds rejects.
     */
    public record Symbol(int id, String name, int priceDecimals, long tickSize, long lotSize, AssetSpec base, AssetSpec quote) {
        /** A symbol without assets. */
        public Symbol(final int id, final String name, final int priceDecimals, final long tickSize, final long lotSize) {
            this(id, name, priceDecimals, tickSize, lotSize, null, null);
        }
    }

    /** Messages waiting for a session's socket beyond which its market-data subscriptions get no X until it catches up. */
    public static final int DEFAULT_MARKET_DATA_MAX_BACKLOG = 2000;

    /** Live market-data subscriptions (one per symbol of a request) one session may hold; a V beyond it gets a Y. */
    public static final int DEFAULT_MARKET_DATA_MAX_SUBSCRIPTIONS = 100;

    /**
     * One FIX session: the client's SenderCompID, its password (or null), the gateway serving it, its account, and
     * whether it may subscribe to market data.
     */
    public record Session(String senderCompId, String password, int gateway, long account, boolean cancelOnDisconnect,
                          int throttlePerSecond, boolean marketData) {
    }

    /** The sessions a given gateway serves. */
    public List<Session> sessionsOf(final int gatewayId) {
        final List<Session> mine = new ArrayList<>();
        for (final Session s : sessions) {
            if (s.gateway() == gatewayId) {
                mine.add(s);
            }
        }
        return mine;
    }

    public static GatewayConfig load(final Path file) throws ConfigException {
        final ConfigYaml yaml = new ConfigYaml(file);
        final Node root = yaml.root("at least 'engineConfig' and 'sessions'");
        final Map<String, Node> top = yaml.mapping(root, Set.of("compId", "bind", "port", "engineConfig", "maxMessageLength",
            "maxConnections", "maxUnauthenticatedPerAddress", "logonTimeoutSeconds", "throttlePerSecond", "sessions",
            "writeStallSeconds", "storageReserve", "sendingTimeToleranceSeconds", "validateUnusedFields", "marketDataMaxBacklog",
            "marketDataMaxSubscriptions", "tls"));
        final String compId = yaml.optionalString(top, "compId", "CHRONEX");
        checkCompId(yaml, top.getOrDefault("compId", root), compId);
        final String bind = yaml.optionalString(top, "bind", "127.0.0.1");
        try {
            // Found out now, at its line, rather than when the listening socket is opened after the data directory.
            InetAddress.getByName(bind);
        } catch (final UnknownHostException e) {
            throw yaml.error(top.get("bind"), "bind '" + bind + "' is not an address to listen on: " + e.getMessage());
        }
        final long port = yaml.optional(top, "port", 9880);
        if (port < 0 || port > 65535) {
            throw yaml.error(top.get("port"), "port must be 0..65535 (0: any free port, printed at start)");
        }
        if (!top.containsKey("engineConfig")) {
            throw yaml.error(root, "'engineConfig' is missing: the gateway reads the symbols from the engine's configuration file");
        }
        final Path engineFile = file.toAbsolutePath().getParent().resolve(yaml.scalar(top.get("engineConfig"))).normalize();
        final EngineConfig engine;
        try {
            engine = EngineConfigFile.load(engineFile);
        } catch (final ConfigException e) {
            throw yaml.error(top.get("engineConfig"), "engineConfig is not usable: " + e.getMessage());
        }
        final List<Symbol> symbols = symbols(yaml, top.get("engineConfig"), engine);
        final int maxLength = (int) yaml.bounded(top, "maxMessageLength", 4096, 256, 1 << 20);
        final int maxConnections = (int) yaml.bounded(top, "maxConnections", 64, 1, 100_000);
        final int perAddress = (int) yaml.bounded(top, "maxUnauthenticatedPerAddress", 8, 1, 100_000);
        final int logonTimeout = (int) yaml.bounded(top, "logonTimeoutSeconds", 10, 1, 3600);
        final int throttle = (int) yaml.bounded(top, "throttlePerSecond", 0, 0, 100_000_000);
        // A client whose socket takes none of our output for this long is cut (it gets the rest by resend).
        final int writeStall = (int) yaml.bounded(top, "writeStallSeconds", 30, 1, 3600);
        final long storageReserve = storageReserve(yaml, top);
        // 0 switches the check off (a replay of old traffic, a test clock); FIX 4.4 test case 2 (SendingTime accuracy) asks for one.
        final int sendingTimeTolerance = (int) yaml.bounded(top, "sendingTimeToleranceSeconds", DEFAULT_SENDING_TIME_TOLERANCE_SECONDS,
            0, 86_400);
        final boolean validateUnused = !top.containsKey("validateUnusedFields") || yaml.bool(top.get("validateUnusedFields"));
        final int mdBacklog = (int) yaml.bounded(top, "marketDataMaxBacklog", DEFAULT_MARKET_DATA_MAX_BACKLOG, 1, 10_000_000);
        // Each subscription costs memory and work on every event of its symbol: a client looping V with new MDReqIDs is bounded.
        final int mdSubscriptions = (int) yaml.bounded(top, "marketDataMaxSubscriptions", DEFAULT_MARKET_DATA_MAX_SUBSCRIPTIONS, 1,
            100_000);
        // Checked here, at its line, so a wrong password or an expired certificate stops the gateway before it creates anything.
        final TlsIdentity tls = top.containsKey("tls") ? TlsIdentity.fromYaml(yaml, top.get("tls"), file.toAbsolutePath().getParent())
            : null;
        if (!top.containsKey("sessions")) {
            throw yaml.error(root, "'sessions' is missing: list the FIX sessions (senderCompId, account) this gateway accepts");
        }
        final List<Session> sessions = new ArrayList<>();
        final Set<String> names = new HashSet<>();
        final Set<Long> accounts = new HashSet<>();
        for (final Node node : yaml.sequence(top.get("sessions"))) {
            final Map<String, Node> m = yaml.mapping(node, Set.of("senderCompId", "password", "gateway", "account",
                "cancelOnDisconnect", "throttlePerSecond", "marketData", "unlistedAccount"));
            if (!m.containsKey("senderCompId")) {
                throw yaml.error(node, "'senderCompId' is missing");
            }
            final String sender = yaml.scalar(m.get("senderCompId"));
            checkCompId(yaml, m.get("senderCompId"), sender);
            if (!names.add(sender)) {
                throw yaml.error(node, "session " + sender + " is configured twice");
            }
            final long account = yaml.required(node, m, "account");
            if (account < 1) {
                throw yaml.error(m.get("account"), "account must be 1.." + Long.MAX_VALUE + ", found " + account);
            }
            // unlistedAccount: true for an account created while the exchange runs (bin/admin limits), which the engine's
            // file, pinned to the data directory, cannot list.
            final boolean unlisted = m.containsKey("unlistedAccount") && yaml.bool(m.get("unlistedAccount"));
            if (!unlisted && !engine.createAccountsOnFirstUse() && engine.accounts().stream().noneMatch(a -> a.id() == account)) {
                throw yaml.error(m.get("account"), "account " + account + " is not one of the engine's accounts (" + engineFile
                    + " lists " + engine.accounts().stream().map(a -> Long.toString(a.id())).collect(Collectors.joining(", "))
                    + ", and does not create accounts on first use): every order of this session would be rejected (for an account"
                    + " created with bin/admin while the exchange runs, say unlistedAccount: true)");
            }
            if (!accounts.add(account)) {
                throw yaml.error(m.get("account"), "account " + account
                    + " already belongs to another session (each account has exactly one"
                    + " session, so every execution report has exactly one place to go)");
            }
            final long gateway = yaml.optional(m, "gateway", 1);
            if (gateway < 1 || gateway > 999) {
                throw yaml.error(m.get("gateway"), "gateway must be 1..999");
            }
            final long sessionThrottle = m.containsKey("throttlePerSecond")
                ? yaml.bounded(m, "throttlePerSecond", 0, 0, 100_000_000) : throttle;
            sessions.add(new Session(sender, m.containsKey("password") ? yaml.scalar(m.get("password")) : null, (int) gateway,
                account, m.containsKey("cancelOnDisconnect") && yaml.bool(m.get("cancelOnDisconnect")), (int) sessionThrottle,
                !m.containsKey("marketData") || yaml.bool(m.get("marketData"))));
        }
        return new GatewayConfig(compId, bind, (int) port, engineFile, List.copyOf(symbols), maxLength, maxConnections,
            perAddress, logonTimeout, throttle, List.copyOf(sessions), writeStall, storageReserve, sendingTimeTolerance, validateUnused,
            mdBacklog, mdSubscriptions, engine.assets(), tls);
    }

    private static List<Symbol> symbols(final ConfigYaml yaml, final Node at, final EngineConfig engine) throws ConfigException {
        final List<Symbol> symbols = new ArrayList<>();
        for (final SymbolSpec s : engine.symbols()) {
            final int decimals = s.priceDecimals();
            if (decimals < 0) {
                throw yaml.error(at, "symbol " + s.name() + " has priceScale " + s.priceScale()
                    + "; a FIX gateway needs a power of ten (1, 10, 100, ...) to turn decimal prices into ticks");
            }
            symbols.add(new Symbol(s.id(), s.name(), decimals, s.tickSize(), s.lotSize(), engine.asset(s.baseAsset()),
                engine.asset(s.quoteAsset())));
        }
        return symbols;
    }

    /** storageReserve: 256MiB (bin/gateway --storage-reserve wins over it). */
    private static long storageReserve(final ConfigYaml yaml, final Map<String, Node> top) throws ConfigException {
        if (!top.containsKey("storageReserve")) {
            return StorageGuard.DEFAULT_RESERVE;
        }
        try {
            return StorageGuard.parseSize(yaml.scalar(top.get("storageReserve")));
        } catch (final Args.UsageException e) {
            throw yaml.error(top.get("storageReserve"), "storageReserve: " + e.getMessage());
        }
    }


    private static void checkCompId(final ConfigYaml yaml, final Node node, final String id) throws ConfigException {
        if (id.isEmpty() || id.length() > 32) {
            throw yaml.error(node, "a CompID must be 1..32 characters");
        }
        for (int i = 0; i < id.length(); i++) {
            final char c = id.charAt(i);
            if (c <= ' ' || c > '~' || c == '=') {
                throw yaml.error(node, "CompID '" + id + "' may only hold printable ASCII without spaces or '='");
            }
        }
    }
}
