package io.chronex.monitor;

import io.chronex.api.CommandType;
import io.chronex.api.RejectReason;
import io.chronex.api.Side;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.LedgerStatusFile;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.queues.book.Books;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The {@code /metrics} face of the monitor: Prometheus' text exposition format (version 0.0.4).
 * Names carry their unit (seconds, commands, lots); the hop, window, quantile, symbol, reason and
 * role are labels. Counters are totals since the monitor started reading (it reads both queues from
 * their beginning, so they are the queues' totals). Hop latency is a summary: quantiles over each window as the
 * monitor computes them, and for the since-start window (the only one that never shrinks, as a summary's count and sum
 * must not) its sum and count; each window's count is also a gauge, {@code chronex_hop_latency_results}.
 */
public final class MetricsText {
    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999, 1.0};

    private MetricsText() {
    }

    public static String render(final MonitorModel model, final StatusBlock.View view) {
        final StringBuilder out = new StringBuilder(8192);
        final double seconds = view.intervalSeconds();
        help(out, "chronex_up", "gauge", "1 when the process's pid file names a live process, 0 when it names a dead one or is missing");
        sample(out, "chronex_up", "role=\"engine\"", view.engine().alive() ? 1 : 0);
        for (final StatusBlock.GatewayView g : view.gateways()) {
            sample(out, "chronex_up", "role=\"gateway\",gateway=\"" + g.id() + "\"", g.status().alive() ? 1 : 0);
        }
        single(out, "chronex_commands_total", "counter", "commands read from the journal", model.commands());
        single(out, "chronex_events_total", "counter", "results read from the events queue", model.events());
        help(out, "chronex_gateway_commands_total", "counter", "commands a gateway appended to the journal");
        for (final StatusBlock.GatewayView g : view.gateways()) {
            sample(out, "chronex_gateway_commands_total", "gateway=\"" + g.id() + "\"", model.commandsFromGateway(g.id()));
        }
        help(out, "chronex_gateway_sessions_logged_on", "gauge", "FIX sessions logged on, by gateway (as its sessions file says)");
        for (final StatusBlock.GatewayView g : view.gateways()) {
            if (g.sessions() != null && g.sessions().problem() == null) {
                sample(out, "chronex_gateway_sessions_logged_on", "gateway=\"" + g.id() + "\"", g.sessions().loggedOn());
            }
        }
        help(out, "chronex_operator_commands_total", "counter", "operator commands (bin/admin) in the journal, by type");
        for (final Map.Entry<CommandType, Long> e : model.operator().counts().entrySet()) {
            sample(out, "chronex_operator_commands_total", "type=\"" + e.getKey().name() + "\"", e.getValue());
        }
        single(out, "chronex_commands_per_second", "gauge", "commands read per second over the last interval",
            seconds == 0 ? 0 : model.lastIntervalCommands() / seconds);
        single(out, "chronex_events_per_second", "gauge", "results read per second over the last interval",
            seconds == 0 ? 0 : model.lastIntervalEvents() / seconds);
        single(out, "chronex_backlog_commands", "gauge", "commands in the journal the engine has not answered", model.backlog().count());
        single(out, "chronex_backlog_age_seconds", "gauge", "how long the oldest unanswered command has waited (NaN: no timestamp)",
            view.backlogAgeNanos() < 0 ? Double.NaN : view.backlogAgeNanos() / 1e9);
        single(out, "chronex_alerts", "gauge", "alerts raised now (the page and the status block list them)",
            StatusBlock.alerts(model, view).size());
        if (view.storage() != null && view.storage().problem() == null) {
            single(out, "chronex_storage_free_bytes", "gauge", "free space on the data directory's filesystem",
                view.storage().usableBytes());
            single(out, "chronex_storage_reserve_bytes", "gauge", "the free space writers keep (below it gateways refuse new orders)",
                view.storage().reserveBytes());
        }
        single(out, "chronex_queue_damaged", "gauge", "stretches of the queues that cannot be read although the queue goes on",
            view.damage().size());
        gatewayMarketData(out, view);
        publisher(out, view.publisher());
        money(out, view.money());
        cluster(out, view.cluster());
        results(out, model, view);
        latency(out, model);
        books(out, model, view);
        return out.toString();
    }

    /**
     * With --cluster: whether a member leads, and per member (label {@code member}, its id) up, role (0 follower,
     * 1 candidate, 2 leader: Aeron's codes), leadership term, commit position, lag behind the leader, elections and
     * snapshots; a figure not known (a member down, a counter missing) is left out rather than given a false value.
     */
    private static void cluster(final StringBuilder out, final ClusterView.Snapshot cluster) {
        if (cluster == null) {
            return;
        }
        single(out, "chronex_cluster_has_leader", "gauge", "1 when a member up leads the cluster, 0 when none does",
            cluster.leader() == null ? 0 : 1);
        help(out, "chronex_cluster_member_up", "gauge", "1 when the member answers its status port (the monitor reads the members"
            + " over the network)");
        for (final ClusterView.Member m : cluster.members()) {
            sample(out, "chronex_cluster_member_up", member(m), m.up() ? 1 : 0);
        }
        help(out, "chronex_cluster_member_role", "gauge", "the member's role: 0 follower, 1 candidate, 2 leader");
        for (final ClusterView.Member m : cluster.members()) {
            if (m.up() && m.role() != null) {
                sample(out, "chronex_cluster_member_role", member(m), m.role().code());
            }
        }
        clusterGauge(out, cluster, "chronex_cluster_leadership_term", "the member's leadership term id",
            ClusterView.Member::leadershipTermId);
        clusterGauge(out, cluster, "chronex_cluster_commit_position", "the member's commit position in the log, in bytes",
            ClusterView.Member::commitPosition);
        clusterGauge(out, cluster, "chronex_cluster_lag_bytes", "the leader's commit position less the member's", cluster::lag);
        clusterGauge(out, cluster, "chronex_cluster_elections", "elections the member has taken part in since it started",
            ClusterView.Member::electionCount);
        clusterGauge(out, cluster, "chronex_cluster_snapshots", "cluster snapshots the member has taken since it started",
            ClusterView.Member::snapshotCount);
    }

    private static void clusterGauge(final StringBuilder out, final ClusterView.Snapshot cluster, final String name, final String help,
                                     final ToLongFunction<ClusterView.Member> figure) {
        help(out, name, "gauge", help);
        for (final ClusterView.Member m : cluster.members()) {
            final long value = figure.applyAsLong(m);
            if (m.up() && value != ClusterView.NONE) {
                sample(out, name, member(m), value);
            }
        }
    }

    private static String member(final ClusterView.Member m) {
        return "member=\"" + m.id() + "\"";
    }

    private static void results(final StringBuilder out, final MonitorModel model, final StatusBlock.View view) {
        final Counters c = model.counters();
        single(out, "chronex_accepted_total", "counter", "commands the engine accepted", c.accepted());
        help(out, "chronex_rejected_total", "counter", "commands the engine rejected, by reason");
        for (final RejectReason reason : RejectReason.values()) {
            if (reason != RejectReason.NONE) {
                sample(out, "chronex_rejected_total", "reason=\"" + reason.name() + "\"", c.rejects(reason));
            }
        }
        help(out, "chronex_trades_total", "counter", "trades, by symbol");
        for (final Map.Entry<Integer, Counters.SymbolTrading> e : c.trading().entrySet()) {
            sample(out, "chronex_trades_total", symbol(view, e.getKey()), e.getValue().trades);
        }
        help(out, "chronex_traded_lots_total", "counter", "traded quantity in lots, by symbol");
        for (final Map.Entry<Integer, Counters.SymbolTrading> e : c.trading().entrySet()) {
            sample(out, "chronex_traded_lots_total", symbol(view, e.getKey()), e.getValue().volume);
        }
        help(out, "chronex_traded_notional_total", "counter",
            "traded price x quantity, by symbol, in the symbol's price units x lots (ticks x lots without a power-of-ten scale)");
        for (final Map.Entry<Integer, Counters.SymbolTrading> e : c.trading().entrySet()) {
            out.append("chronex_traded_notional_total{").append(symbol(view, e.getKey())).append("} ")
                .append(StatusBlock.notional(view, e.getKey(), e.getValue().notional())).append('\n');
        }
    }

    /**
     * Each hop's latency over each window as a Prometheus summary: quantiles (1 = the max), then the window's sum and count,
     * so the family lints clean (a quantile label belongs to a summary, a _count suffix to a summary or histogram).
     */
    private static void latency(final StringBuilder out, final MonitorModel model) {
        help(out, "chronex_hop_latency_seconds", "summary",
            "hop latency over a window: interval (the last one), minute (the last minute) or start (since the monitor started);"
                + " quantile 1 is the max");
        for (final HopLatencies.Hop hop : HopLatencies.Hop.values()) {
            summary(out, hop, "interval", model.latencies().interval(hop));
            summary(out, hop, "minute", model.latencies().lastMinute(hop));
            summary(out, hop, "start", model.latencies().sinceStart(hop));
        }
        help(out, "chronex_hop_latency_results", "gauge", "results whose hop was recorded in the window (interval, minute, start)");
        for (final HopLatencies.Hop hop : HopLatencies.Hop.values()) {
            final String labels = "hop=\"" + hop.label + "\",window=\"";
            sample(out, "chronex_hop_latency_results", labels + "interval\"", model.latencies().interval(hop).getTotalCount());
            sample(out, "chronex_hop_latency_results", labels + "minute\"", model.latencies().lastMinute(hop).getTotalCount());
            sample(out, "chronex_hop_latency_results", labels + "start\"", model.latencies().sinceStart(hop).getTotalCount());
        }
    }

    private static void summary(final StringBuilder out, final HopLatencies.Hop hop, final String window, final Histogram h) {
        final String labels = "hop=\"" + hop.label + "\",window=\"" + window + "\"";
        for (final double q : QUANTILES) {
            final double nanos = h.getTotalCount() == 0 ? Double.NaN : q == 1.0 ? h.getMaxValue() : h.getValueAtPercentile(q * 100);
            sample(out, "chronex_hop_latency_seconds", labels + ",quantile=\"" + (q == 1.0 ? "1" : Double.toString(q)) + "\"",
                nanos / 1e9);
        }
        if (window.equals("start")) {
            // A summary's sum and count are counters to Prometheus: only the since-start window never goes down. The histogram
            // keeps no exact sum; its mean times the count is the sum of the values as it recorded them (3 digits).
            sample(out, "chronex_hop_latency_seconds_sum", labels, h.getTotalCount() == 0 ? 0 : h.getMean() * h.getTotalCount() / 1e9);
            sample(out, "chronex_hop_latency_seconds_count", labels, h.getTotalCount());
        }
    }

    /** Best prices in the symbol's units when the configuration gives them, else in ticks; absent when a side is empty. */
    private static void books(final StringBuilder out, final MonitorModel model, final StatusBlock.View view) {
        help(out, "chronex_book_best_price", "gauge", "best bid and ask price, by symbol and side");
        final int[] symbols = model.books().symbols();
        for (final int symbol : symbols) {
            for (final Side side : Side.values()) {
                final Books.Levels levels = model.books().book(symbol).levels(side);
                if (levels.size() > 0) {
                    out.append("chronex_book_best_price{").append(bookLabels(view, symbol, side)).append("} ")
                        .append(StatusBlock.price(view, symbol, levels.price(0))).append('\n');
                }
            }
        }
        // Each metric's samples in one group after its TYPE line, as the format requires.
        help(out, "chronex_book_levels", "gauge", "price levels, by symbol and side");
        for (final int symbol : symbols) {
            for (final Side side : Side.values()) {
                sample(out, "chronex_book_levels", bookLabels(view, symbol, side), model.books().book(symbol).levels(side).size());
            }
        }
    }

    private static String bookLabels(final StatusBlock.View view, final int symbol, final Side side) {
        return symbol(view, symbol) + ",side=\"" + (side == Side.BUY ? "bid" : "ask") + "\"";
    }

    private static String symbol(final StatusBlock.View view, final int symbol) {
        return "symbol=\"" + escape(StatusBlock.name(view, symbol)) + "\"";
    }

    /** A label value as the format requires: backslash, double quote and line feed escaped. */
    static String escape(final String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** Per gateway and session (label {@code session}, its SenderCompID): FIX market data as the gateway's sessions file says. */
    private static void gatewayMarketData(final StringBuilder out, final StatusBlock.View view) {
        // One family after another, each with all its samples: a family's lines must not be interleaved with another's.
        sessionMetric(out, view, "chronex_gateway_md_subscriptions", "gauge", "live FIX market-data subscriptions, by gateway and session",
            md -> md.subscriptions());
        sessionMetric(out, view, "chronex_gateway_md_stale", "gauge", "1 while a session's subscriptions are stale (it fell behind)",
            md -> md.stale() ? 1 : 0);
        sessionMetric(out, view, "chronex_gateway_md_stale_episodes_total", "counter", "slow-subscriber episodes since the gateway started",
            md -> md.staleEpisodes());
        sessionMetric(out, view, "chronex_gateway_md_snapshots_total", "counter",
            "MarketDataSnapshotFullRefresh (W) sent since the gateway started", md -> md.snapshots());
        sessionMetric(out, view, "chronex_gateway_md_incrementals_total", "counter",
            "MarketDataIncrementalRefresh (X) sent since the gateway started", md -> md.incrementals());
    }

    private static void sessionMetric(final StringBuilder out, final StatusBlock.View view, final String name, final String type,
                                      final String help, final ToDoubleFunction<GatewaySessionsFile.MarketData> value) {
        help(out, name, type, help);
        for (final StatusBlock.GatewayView g : view.gateways()) {
            if (g.sessions() == null || g.sessions().problem() != null) {
                continue;
            }
            for (final GatewaySessionsFile.Session s : g.sessions().sessions()) {
                final String labels = "gateway=\"" + g.id() + "\",session=\"" + escape(s.senderCompId()) + "\"";
                sample(out, name, labels, value.applyAsDouble(s.marketData()));
            }
        }
    }

    /**
     * The market-data publisher (DATA/marketdata/status), when one ever ran here: up, heartbeat age, rate, counters and its
     * lag behind the engine as it measured it; nothing but {@code chronex_marketdata_up 0} when the file cannot be read.
     */
    private static void publisher(final StringBuilder out, final PublisherView p) {
        if (p == null) {
            return;
        }
        single(out, "chronex_marketdata_up", "gauge", "1 when the market-data publisher runs and its heartbeat is recent",
            p.state() == PublisherView.State.ALIVE ? 1 : 0);
        if (p.state() == PublisherView.State.UNREADABLE) {
            return;
        }
        final MarketDataStatusFile.Snapshot s = p.status();
        single(out, "chronex_marketdata_heartbeat_age_seconds", "gauge", "how long ago the publisher last updated its status file",
            p.heartbeatAgeMillis() / 1e3);
        single(out, "chronex_marketdata_incrementals_per_second", "gauge", "incrementals sent per second between its last two heartbeats",
            p.incrementalsPerSecond());
        single(out, "chronex_marketdata_incrementals_total", "counter", "incrementals the publisher sent since it started",
            s.incrementals());
        single(out, "chronex_marketdata_snapshots_total", "counter", "snapshots the publisher sent since it started", s.snapshots());
        single(out, "chronex_marketdata_sequence", "gauge", "the last incremental sequence number sent", s.lastSeq());
        single(out, "chronex_marketdata_lag_events", "gauge", "events the publisher had not read yet, at its last heartbeat",
            s.lagEvents());
        single(out, "chronex_marketdata_lag_seconds", "gauge", "publish time minus engine append time of the last incremental sent",
            s.lagMicros() / 1e6);
        single(out, "chronex_marketdata_back_pressure_total", "counter", "incrementals refused by Aeron after 16 tries", s.backPressured());
        single(out, "chronex_marketdata_given_up_total", "counter", "incrementals given up after backPressureLimitMs", s.givenUp());
        single(out, "chronex_marketdata_no_subscriber_total", "counter", "messages sent with no subscriber connected", s.notConnected());
    }

    /**
     * The engine's ledger (DATA/ledger), per asset (label {@code asset}, its code) in the asset's units: counters for what
     * only grows (deposits, withdrawals, fees), gauges for the rest; nothing when there is no readable file.
     */
    private static void money(final StringBuilder out, final MoneyView money) {
        if (money == null || money.ledger().problem() != null) {
            return;
        }
        final List<LedgerStatusFile.Asset> assets = money.ledger().assets();
        moneyMetric(out, assets, "chronex_money_deposited_total", "counter", "deposited into accounts, in the asset's units",
            LedgerStatusFile.Asset::deposited);
        moneyMetric(out, assets, "chronex_money_withdrawn_total", "counter", "withdrawn from accounts, in the asset's units",
            LedgerStatusFile.Asset::withdrawn);
        moneyMetric(out, assets, "chronex_money_adjusted", "gauge", "the sum of adjustments (signed), in the asset's units",
            LedgerStatusFile.Asset::adjusted);
        moneyMetric(out, assets, "chronex_money_held", "gauge", "held by open orders over all accounts, in the asset's units",
            LedgerStatusFile.Asset::held);
        moneyMetric(out, assets, "chronex_money_fees_total", "counter", "trading fees collected, in the asset's units",
            LedgerStatusFile.Asset::fees);
        moneyMetric(out, assets, "chronex_money_available", "gauge", "what accounts can spend over all accounts, in the asset's units",
            LedgerStatusFile.Asset::available);
        single(out, "chronex_money_age_seconds", "gauge", "how long ago the engine last wrote its ledger totals", money.ageMillis() / 1e3);
    }

    private static void moneyMetric(final StringBuilder out, final List<LedgerStatusFile.Asset> assets, final String name,
                                    final String type, final String help, final ToLongFunction<LedgerStatusFile.Asset> amount) {
        help(out, name, type, help);
        for (final LedgerStatusFile.Asset a : assets) {
            // The exact decimal, not a double printed to 9 digits: 12000000000.01 USD must not read as 1.20000000e+10.
            out.append(name).append("{asset=\"").append(escape(a.code())).append("\"} ")
                .append(BigDecimal.valueOf(amount.applyAsLong(a), a.decimals()).toPlainString()).append('\n');
        }
    }

    /** A metric with one sample and no labels: its HELP and TYPE lines, then the sample. */
    private static void single(final StringBuilder out, final String name, final String type, final String help, final double value) {
        help(out, name, type, help);
        sample(out, name, "", value);
    }

    private static void help(final StringBuilder out, final String name, final String type, final String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(final StringBuilder out, final String name, final String labels, final double value) {
        out.append(name);
        if (!labels.isEmpty()) {
            out.append('{').append(labels).append('}');
        }
        out.append(' ');
        if (Double.isNaN(value)) {
            out.append("NaN");
        } else if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            out.append((long) value);
        } else {
            out.append(String.format(Locale.ROOT, "%.9g", value));
        }
        out.append('\n');
    }
}
