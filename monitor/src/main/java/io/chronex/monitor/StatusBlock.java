package io.chronex.monitor;

import io.chronex.api.RejectReason;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.CommandType;
import io.chronex.queues.FailedEventsFile;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.LedgerStatusFile;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.queues.QueueGap;
import io.chronex.queues.book.Books;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/** The terminal face of the monitor: one compact text block from the model and the processes' status. */
public final class StatusBlock {
    /**
     * A gateway found under the data directory: its id, process status, failed events (null when it
     * has no file), and its published sessions ({@code gateways/N/sessions}) now and at the previous
     * block (either null when there was no file), for the counts in the interval.
     */
    public record GatewayView(int id, ProcessStatus status, FailedEventsFile.Snapshot failed, GatewaySessionsFile.Snapshot sessions,
                              GatewaySessionsFile.Snapshot sessionsBefore) {
        /** Without sessions (as before the gateway published them). */
        public GatewayView(final int id, final ProcessStatus status, final FailedEventsFile.Snapshot failed) {
            this(id, status, failed, null, null);
        }
    }

    /**
     * Everything the block shows besides the model. {@code intervalSeconds} is 0 for a single read
     * (--once), which shows totals only; {@code symbols} may be empty (ids are shown then);
     * {@code alertP99Nanos} 0 turns the hop p99 alert off; {@code snapshotCheck} is null until a snapshot was checked;
     * {@code cluster} is null unless the monitor was given --cluster; {@code publisher} is null when no market-data
     * publisher ever ran on the data directory (no DATA/marketdata/status); {@code money} is null when the data directory has
     * no ledger file (DATA/ledger: an engine without assets, or none on this host).
     */
    public record View(Path dataDir, Instant now, double intervalSeconds, long backlogAgeNanos, long alertBacklogNanos,
                       ProcessStatus engine, List<GatewayView> gateways, Map<Integer, SymbolSpec> symbols, long unreadableEvents,
                       long alertP99Nanos, SnapshotCheck.Outcome snapshotCheck, Storage.Reading storage, List<QueueGap> damage,
                       ClusterView.Snapshot cluster, PublisherView publisher, MoneyView money) {
        /** Without the engine's money totals. */
        public View(final Path dataDir, final Instant now, final double intervalSeconds, final long backlogAgeNanos,
                    final long alertBacklogNanos, final ProcessStatus engine, final List<GatewayView> gateways,
                    final Map<Integer, SymbolSpec> symbols, final long unreadableEvents, final long alertP99Nanos,
                    final SnapshotCheck.Outcome snapshotCheck, final Storage.Reading storage, final List<QueueGap> damage,
                    final ClusterView.Snapshot cluster, final PublisherView publisher) {
            this(dataDir, now, intervalSeconds, backlogAgeNanos, alertBacklogNanos, engine, gateways, symbols, unreadableEvents,
                alertP99Nanos, snapshotCheck, storage, damage, cluster, publisher, null);
        }

        /** Without a market-data publisher. */
        public View(final Path dataDir, final Instant now, final double intervalSeconds, final long backlogAgeNanos,
                    final long alertBacklogNanos, final ProcessStatus engine, final List<GatewayView> gateways,
                    final Map<Integer, SymbolSpec> symbols, final long unreadableEvents, final long alertP99Nanos,
                    final SnapshotCheck.Outcome snapshotCheck, final Storage.Reading storage, final List<QueueGap> damage,
                    final ClusterView.Snapshot cluster) {
            this(dataDir, now, intervalSeconds, backlogAgeNanos, alertBacklogNanos, engine, gateways, symbols, unreadableEvents,
                alertP99Nanos, snapshotCheck, storage, damage, cluster, null);
        }

        /** Without a cluster (single host). */
        public View(final Path dataDir, final Instant now, final double intervalSeconds, final long backlogAgeNanos,
                    final long alertBacklogNanos, final ProcessStatus engine, final List<GatewayView> gateways,
                    final Map<Integer, SymbolSpec> symbols, final long unreadableEvents, final long alertP99Nanos,
                    final SnapshotCheck.Outcome snapshotCheck, final Storage.Reading storage, final List<QueueGap> damage) {
            this(dataDir, now, intervalSeconds, backlogAgeNanos, alertBacklogNanos, engine, gateways, symbols, unreadableEvents,
                alertP99Nanos, snapshotCheck, storage, damage, null);
        }

        /** Without the filesystem's reading or damage found in the queues. */
        public View(final Path dataDir, final Instant now, final double intervalSeconds, final long backlogAgeNanos,
                    final long alertBacklogNanos, final ProcessStatus engine, final List<GatewayView> gateways,
                    final Map<Integer, SymbolSpec> symbols, final long unreadableEvents, final long alertP99Nanos,
                    final SnapshotCheck.Outcome snapshotCheck) {
            this(dataDir, now, intervalSeconds, backlogAgeNanos, alertBacklogNanos, engine, gateways, symbols, unreadableEvents,
                alertP99Nanos, snapshotCheck, null, List.of());
        }

        /** Without the hop p99 alert or a snapshot check. */
        public View(final Path dataDir, final Instant now, final double intervalSeconds, final long backlogAgeNanos,
                    final long alertBacklogNanos, final ProcessStatus engine, final List<GatewayView> gateways,
                    final Map<Integer, SymbolSpec> symbols, final long unreadableEvents) {
            this(dataDir, now, intervalSeconds, backlogAgeNanos, alertBacklogNanos, engine, gateways, symbols, unreadableEvents, 0);
        }

        /** Without a snapshot check. */
        public View(final Path dataDir, final Instant now, final double intervalSeconds, final long backlogAgeNanos,
                    final long alertBacklogNanos, final ProcessStatus engine, final List<GatewayView> gateways,
                    final Map<Integer, SymbolSpec> symbols, final long unreadableEvents, final long alertP99Nanos) {
            this(dataDir, now, intervalSeconds, backlogAgeNanos, alertBacklogNanos, engine, gateways, symbols, unreadableEvents,
                alertP99Nanos, null);
        }
    }

    /** Operator commands shown in the block, newest first (the model keeps {@link OperatorCommands#KEPT}). */
    static final int OPERATOR_SHOWN = 3;

    private StatusBlock() {
    }

    /** The block's lines, ending with a newline. */
    public static String render(final MonitorModel model, final View view) {
        final StringBuilder out = new StringBuilder(4096);
        for (final Consumer<StringBuilder> part : parts(model, view)) {
            part.accept(out);
        }
        return out.toString();
    }

    /**
     * The block as parts that append its lines in order, each a small piece of the work (a hop's percentiles are
     * a walk over its histograms), for a caller that pauses between them so as not to hold a shared CPU for long
     * (Monitor). Running them all is {@link #render}.
     */
    static List<Consumer<StringBuilder>> parts(final MonitorModel model, final View view) {
        final List<Consumer<StringBuilder>> parts = new ArrayList<>();
        parts.add(out -> {
            line(out, "chronex monitor  %s  %s  %s", view.now(), view.dataDir(),
                view.intervalSeconds() == 0 ? "(one read: everything in the queues)" : String.format(Locale.ROOT, "every %.1f s",
                    view.intervalSeconds()));
            final List<String> alerts = alerts(model, view);
            line(out, "alerts   %s", alerts.isEmpty() ? "none" : String.join("; ", alerts));
        });
        parts.add(out -> processes(out, model, view));
        parts.add(out -> flow(out, model, view));
        parts.add(out -> latencyHeader(out, model, view.intervalSeconds()));
        for (final HopLatencies.Hop hop : HopLatencies.Hop.values()) {
            parts.add(out -> latency(out, model, hop, view.intervalSeconds()));
        }
        parts.add(out -> books(out, model, view));
        parts.add(out -> money(out, view.money()));
        return parts;
    }

    /** The alerts now, in the words the block and the page show them; empty when all is well. */
    static List<String> alerts(final MonitorModel model, final View view) {
        final List<String> alerts = new ArrayList<>();
        if (view.backlogAgeNanos() > view.alertBacklogNanos()) {
            alerts.add(String.format(Locale.ROOT, "BACKLOG AGE %.3f s > %.3f s", view.backlogAgeNanos() / 1e9,
                view.alertBacklogNanos() / 1e9));
        }
        if (view.engine().state() == ProcessStatus.State.GONE) {
            alerts.add((view.engine().via() == null ? "ENGINE GONE" : "BRIDGE GONE") + " (pid " + view.engine().pid() + ")");
        } else if (!view.engine().alive() && model.backlog().count() > 0) {
            alerts.add((view.engine().via() == null ? "ENGINE" : "BRIDGE") + " NOT RUNNING with " + model.backlog().count()
                + " commands waiting");
        }
        for (final GatewayView g : view.gateways()) {
            if (g.status().state() == ProcessStatus.State.GONE) {
                alerts.add("GATEWAY " + g.id() + " GONE (pid " + g.status().pid() + ")");
            }
        }
        final PublisherView publisher = view.publisher();
        if (publisher != null && (publisher.state() == PublisherView.State.GONE || publisher.state() == PublisherView.State.STUCK)) {
            alerts.add("MARKET-DATA PUBLISHER " + publisher.describe());
        }
        if (view.cluster() != null) {
            alerts.addAll(view.cluster().alerts());
        }
        if (view.money() != null) {
            alerts.addAll(view.money().alerts());
        }
        if (view.snapshotCheck() != null && !view.snapshotCheck().equal()) {
            alerts.add("BOOKS DIFFER FROM THE ENGINE'S SNAPSHOT after journal index " + hex(view.snapshotCheck().journalIndex()));
        }
        if (view.unreadableEvents() > 0) {
            alerts.add(view.unreadableEvents() + " events excerpts could not be decoded");
        }
        for (final QueueGap gap : view.damage()) {
            alerts.add("QUEUE DAMAGED: " + gap.describe());
        }
        if (view.storage() != null && view.storage().low()) {
            alerts.add("STORAGE LOW: " + view.storage().describe());
        } else if (view.storage() != null && view.storage().fillingSoon()) {
            alerts.add("STORAGE FILLING: " + view.storage().describe());
        } else if (view.storage() != null && view.storage().problem() != null) {
            alerts.add("STORAGE UNKNOWN: " + view.storage().problem());
        }
        // Over the last interval only: a --once block has none (its one histogram is the whole history, start-up included).
        if (view.alertP99Nanos() > 0 && view.intervalSeconds() > 0) {
            final StringBuilder slow = new StringBuilder();
            for (final HopLatencies.Hop hop : HopLatencies.Hop.values()) {
                final Histogram h = model.latencies().interval(hop);
                final long p99 = h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99);
                if (p99 > view.alertP99Nanos()) {
                    slow.append(slow.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.3f ms (n %d)", hop.label, p99 / 1e6,
                        h.getTotalCount()));
                }
            }
            if (slow.length() > 0) {
                alerts.add(String.format(Locale.ROOT, "HOP P99 > %s ms: %s", millis(view.alertP99Nanos()), slow));
            }
        }
        return alerts;
    }

    /** What the engine did in the last interval: progressing, idle or STALLED; with one read, how far it answered. */
    static String engineProgress(final MonitorModel model, final View view) {
        if (view.intervalSeconds() == 0) {
            return "answered up to journal index " + hex(model.backlog().lastAnswered());
        } else if (model.lastIntervalEvents() > 0) {
            return "progressing (" + model.lastIntervalEvents() + " results in the interval)";
        }
        return model.backlog().count() > 0 ? "STALLED (no result in the interval, commands waiting)" : "idle (nothing waiting)";
    }

    private static void processes(final StringBuilder out, final MonitorModel model, final View view) {
        line(out, "engine   %s, %s", view.engine().describe(), engineProgress(model, view));
        if (view.storage() != null) {
            line(out, "storage  %s", view.storage().describe());
        }
        cluster(out, view.cluster());
        for (final GatewayView g : view.gateways()) {
            final FailedEventsFile.Snapshot failed = g.failed();
            line(out, "gateway %d  %s, %d commands appended%s, failed events %s, %s", g.id(), g.status().describe(),
                model.commandsFromGateway(g.id()),
                view.intervalSeconds() == 0 ? "" : " (" + model.lastIntervalCommandsFromGateway(g.id()) + " in the interval)",
                failedEvents(failed), sessionsSummary(g) + marketDataSummary(g));
            sessions(out, g, view.intervalSeconds() > 0);
        }
        publisher(out, view.publisher());
    }

    /**
     * The market-data publisher (DATA/marketdata/status), when one ever ran here: alive or not, its rate, what it sent,
     * and its lag behind the engine as it measured it at its last heartbeat.
     */
    private static void publisher(final StringBuilder out, final PublisherView p) {
        if (p == null) {
            return;
        }
        if (p.state() == PublisherView.State.UNREADABLE) {
            line(out, "mdfeed   %s", p.describe());
            return;
        }
        final MarketDataStatusFile.Snapshot s = p.status();
        line(out, "mdfeed   %s, %s, %d incrementals (seq %d), %d snapshots", p.describe(), p.rate(), s.incrementals(), s.lastSeq(),
            s.snapshots());
        line(out, "         %s; last events index read %s, last published %s; back-pressure %d, given up %d, no subscriber %d",
            publisherLag(s), hex(s.lastEventsIndex()), s.lastSentIndex() < 0 ? "none" : hex(s.lastSentIndex()), s.backPressured(),
            s.givenUp(), s.notConnected());
    }

    /** "lag 3 events, 85 us" as the publisher measured it. */
    static String publisherLag(final MarketDataStatusFile.Snapshot s) {
        return "lag " + s.lagEvents() + " events, " + s.lagMicros() + " us";
    }

    /**
     * ", market data 3 subscriptions (1 stale), 2 slow-subscriber episodes"; nothing when the file cannot be read or no
     * session asked for market data since the gateway started.
     */
    static String marketDataSummary(final GatewayView g) {
        final GatewaySessionsFile.Snapshot s = g.sessions();
        if (s == null || s.problem() != null) {
            return "";
        }
        long subscriptions = 0;
        long stale = 0;
        long episodes = 0;
        for (final GatewaySessionsFile.Session session : s.sessions()) {
            subscriptions += session.marketData().subscriptions();
            stale += session.marketData().stale() ? session.marketData().subscriptions() : 0;
            episodes += session.marketData().staleEpisodes();
        }
        if (subscriptions == 0 && episodes == 0 && !s.sessions().stream().anyMatch(x -> x.marketData().snapshots() > 0)) {
            return ""; // no session of this gateway run ever asked for market data: nothing worth a place on the line
        }
        return ", market data " + subscriptions + " subscriptions" + (stale > 0 ? " (" + stale + " stale)" : "") + ", " + episodes
            + " slow-subscriber episodes";
    }

    /** With --cluster: who leads, in which term, at which commit position, then one line per member (bin/cluster-status's). */
    private static void cluster(final StringBuilder out, final ClusterView.Snapshot cluster) {
        if (cluster == null) {
            return;
        }
        line(out, "cluster  %s", clusterSummary(cluster));
        for (final ClusterView.Member m : cluster.members()) {
            line(out, "  %s", ClusterView.line(cluster, m));
        }
    }

    /** "leader 1 in term 3, commit position 1234, 3/3 members up" or "NO LEADER, 1/3 members up": the block's and page's words. */
    static String clusterSummary(final ClusterView.Snapshot cluster) {
        final ClusterView.Member leader = cluster.leader();
        final String members = cluster.up() + "/" + cluster.members().size() + " members up" + cluster.where();
        return leader == null ? "NO LEADER, " + members
            : "leader " + leader.id() + " in term " + leader.leadershipTermId() + ", commit position " + leader.commitPosition() + ", "
            + members;
    }

    /** "sessions 1/2 logged on", or why there is nothing to say. */
    private static String sessionsSummary(final GatewayView g) {
        final GatewaySessionsFile.Snapshot s = g.sessions();
        if (s == null) {
            return "sessions ? (no sessions file)";
        }
        if (s.problem() != null) {
            return "sessions ? (" + s.problem() + ")";
        }
        final String summary = "sessions " + s.loggedOn() + "/" + s.sessions().size() + " logged on";
        // A gateway that is not running does not update its file: what it says is how the gateway left it.
        return g.status().alive() ? summary : summary + " when it stopped";
    }

    /** One line per logged-on session of a running gateway: counts since the gateway started, and in the interval. */
    private static void sessions(final StringBuilder out, final GatewayView g, final boolean live) {
        final GatewaySessionsFile.Snapshot s = g.sessions();
        if (s == null || s.problem() != null || !g.status().alive()) {
            return;
        }
        final GatewaySessionsFile.Snapshot before = g.sessionsBefore();
        // Counts are of one gateway run: only a file of the same run gives an interval.
        final boolean sameRun = live && before != null && before.problem() == null && before.writerPid() == s.writerPid()
            && before.writtenEpochMillis() == s.writtenEpochMillis() && before.sessions().size() == s.sessions().size();
        for (int i = 0; i < s.sessions().size(); i++) {
            final GatewaySessionsFile.Session session = s.sessions().get(i);
            if (!session.loggedOn()) {
                continue;
            }
            final GatewaySessionsFile.Session was = sameRun ? before.sessions().get(i) : null;
            final boolean delta = was != null && was.senderCompId().equals(session.senderCompId());
            line(out, "  session %-12s in %d%s, out %d%s; last MsgSeqNum in %d, out %d; logged on %s%s", session.senderCompId() + "->"
                    + session.targetCompId(), session.messagesIn(), delta ? " (" + (session.messagesIn() - was.messagesIn()) + ")" : "",
                session.messagesOut(), delta ? " (" + (session.messagesOut() - was.messagesOut()) + ")" : "",
                session.lastInboundSeqNum(), session.lastOutboundSeqNum(),
                session.lastLogonEpochMillis() == 0 ? "?" : Instant.ofEpochMilli(session.lastLogonEpochMillis()).toString(),
                sessionMarketData(session.marketData()));
        }
    }

    /** "; market data 2 subscriptions, STALE, 1 slow-subscriber episodes, W 3, X 120" for a session that used it; else nothing. */
    private static String sessionMarketData(final GatewaySessionsFile.MarketData md) {
        if (md.subscriptions() == 0 && md.snapshots() == 0 && md.staleEpisodes() == 0) {
            return "";
        }
        return "; market data " + md.subscriptions() + " subscriptions" + (md.stale() ? ", STALE" : "") + ", " + md.staleEpisodes()
            + " slow-subscriber episodes, W " + md.snapshots() + ", X " + md.incrementals();
    }

    /** "0", the count with the last one's index and reason, or "? (why)" when the file cannot be read. */
    static String failedEvents(final FailedEventsFile.Snapshot failed) {
        if (failed == null || failed.count() == 0) {
            return "0";
        }
        return failed.unreadable() ? "? (" + failed.reason() + ")"
            : failed.count() + " (last at events index " + hex(failed.lastEventsIndex()) + ": " + failed.reason() + ")";
    }

    private static void flow(final StringBuilder out, final MonitorModel model, final View view) {
        if (view.intervalSeconds() == 0) {
            line(out, "flow     commands in %d, events out %d", model.commands(), model.events());
        } else {
            line(out, "flow     in %,.0f commands/s, out %,.0f events/s over the interval; totals: %d in, %d out",
                model.lastIntervalCommands() / view.intervalSeconds(), model.lastIntervalEvents() / view.intervalSeconds(),
                model.commands(), model.events());
        }
        line(out, "backlog  %d commands (journal read up to %s, last answered %s), oldest waiting %s",
            model.backlog().count(), hex(model.backlog().lastJournalIndex()), hex(model.backlog().lastAnswered()),
            view.backlogAgeNanos() < 0 ? "? (no timestamp)" : String.format(Locale.ROOT, "%.3f ms", view.backlogAgeNanos() / 1e6));
        final Counters c = model.counters();
        final StringBuilder rejects = new StringBuilder();
        for (final RejectReason reason : RejectReason.values()) {
            if (reason != RejectReason.NONE && c.rejects(reason) > 0) {
                rejects.append(rejects.length() == 0 ? "" : ", ").append(reason).append(' ').append(c.rejects(reason));
            }
        }
        line(out, "results  accepted %d, rejected %d%s", c.accepted(), c.rejectsTotal(), rejects.length() == 0 ? "" : ": " + rejects);
        c.trading().forEach((symbol, t) -> {
            final Counters.Trade last = t.lastTrade();
            line(out, "trades   %-8s %d trades, volume %d, notional %s; last %s", name(view, symbol), t.trades, t.volume,
                notional(view, symbol, t.notional()), last == null ? "-" : last.quantity() + "@" + price(view, symbol, last.price())
                    + (last.eventsIndex() < 0 ? "" : " (events " + hex(last.eventsIndex()) + ")"));
        });
        operator(out, model.operator(), view);
    }

    /** Counts by type and the last few, newest first, with the engine's answer; "none" when there were none. */
    private static void operator(final StringBuilder out, final OperatorCommands operator, final View view) {
        if (operator.total() == 0) {
            line(out, "operator none");
            return;
        }
        final StringBuilder counts = new StringBuilder();
        operator.counts().forEach((type, n) -> counts.append(counts.length() == 0 ? "" : ", ").append(type).append(' ').append(n));
        line(out, "operator %d commands: %s", operator.total(), counts);
        final List<OperatorCommands.Entry> last = operator.last();
        for (int i = last.size() - 1; i >= Math.max(0, last.size() - OPERATOR_SHOWN); i--) {
            final OperatorCommands.Entry e = last.get(i);
            line(out, "  %s %s%s: %s", hex(e.journalIndex()), e.type(), subject(view, e),
                e.answer() == null ? "no answer yet" : e.answer());
        }
    }

    /** What an operator command was about: symbol or "every symbol", account, price. */
    static String subject(final View view, final OperatorCommands.Entry e) {
        final StringBuilder sb = new StringBuilder();
        if (e.symbol() != 0) {
            sb.append(' ').append(name(view, e.symbol()));
        } else if (e.type() == CommandType.HALT || e.type() == CommandType.RESUME || e.type() == CommandType.END_OF_DAY) {
            sb.append(" every symbol");
        }
        if (e.account() != 0) {
            sb.append(" account ").append(e.account());
        }
        if (e.type() == CommandType.SET_REFERENCE_PRICE) {
            sb.append(" price ").append(price(view, e.symbol(), e.price()));
        }
        return sb.toString();
    }

    /** Price × quantity in the symbol's price units × lots when its price scale is a power of ten, else in ticks × lots. */
    static String notional(final View view, final int symbol, final BigInteger ticksTimesLots) {
        final int digits = decimalDigits(view, symbol);
        return digits < 0 ? ticksTimesLots.toString() : new BigDecimal(ticksTimesLots, digits).toPlainString();
    }

    private static void latencyHeader(final StringBuilder out, final MonitorModel model, final double intervalSeconds) {
        if (intervalSeconds == 0) {
            line(out, "latency  µs, everything read   %8s %9s %9s %9s %9s %9s", "n", "p50", "p90", "p99", "p99.9", "max");
        } else {
            // Group labels over their columns, then the columns: the last minute took the place of the interval's p90 and the
            // since-start p50, so a line stays about 130 characters.
            line(out, "%-10s%48s |%39s |%29s", "latency", "last interval", "last " + window(model.latencies(), intervalSeconds),
                "since start");
            line(out, "  %-8s%8s%10s%10s%10s%10s |%9s%10s%10s%10s |%9s%10s%10s", "µs", "n", "p50", "p99", "p99.9", "max", "n", "p50",
                "p99", "max", "n", "p99", "max");
        }
    }

    private static void latency(final StringBuilder out, final MonitorModel model, final HopLatencies.Hop hop,
                                final double intervalSeconds) {
        final HopLatencies latencies = model.latencies();
        final Histogram all = latencies.sinceStart(hop);
        if (intervalSeconds == 0) {
            line(out, "  %-8s %21s %8d %9.2f %9.2f %9.2f %9.2f %9.2f", hop.label, "", all.getTotalCount(), us(all, 50), us(all, 90),
                us(all, 99), us(all, 99.9), all.getMaxValue() / 1e3);
        } else {
            final Histogram h = latencies.interval(hop);
            final Histogram minute = latencies.lastMinute(hop);
            line(out, "  %-8s%8d%10.2f%10.2f%10.2f%10.2f |%9d%10.2f%10.2f%10.2f |%9d%10.2f%10.2f", hop.label, h.getTotalCount(),
                us(h, 50), us(h, 99), us(h, 99.9), h.getMaxValue() / 1e3, minute.getTotalCount(), us(minute, 50), us(minute, 99),
                minute.getMaxValue() / 1e3, all.getTotalCount(), us(all, 99), all.getMaxValue() / 1e3);
        }
    }

    private static void books(final StringBuilder out, final MonitorModel model, final View view) {
        final int[] symbols = model.books().symbols();
        if (symbols.length == 0) {
            line(out, "books    (no level seen yet)");
            return;
        }
        line(out, "books    %-8s %28s %28s %8s %8s", "symbol", "best bid qty@price (orders)", "best ask qty@price (orders)",
            "bid lvls", "ask lvls");
        for (final int symbol : symbols) {
            final Books.Book book = model.books().book(symbol);
            line(out, "         %-8s %28s %28s %8d %8d", name(view, symbol), best(view, symbol, book, Side.BUY),
                best(view, symbol, book, Side.SELL), book.levels(Side.BUY).size(), book.levels(Side.SELL).size());
        }
        line(out, "         %s", snapshotCheck(view));
    }

    /** Per asset what came in and went out, what open orders hold and the fees, as the engine's ledger had them. */
    private static void money(final StringBuilder out, final MoneyView money) {
        if (money == null) {
            return;
        }
        line(out, "money    %s", money.describe());
        if (money.ledger().problem() != null) {
            return;
        }
        line(out, "         %-8s %22s %22s %22s %22s %22s %22s", "asset", "deposited", "withdrawn", "adjusted", "held", "fees",
            "available");
        for (final LedgerStatusFile.Asset a : money.ledger().assets()) {
            line(out, "         %-8s %22s %22s %22s %22s %22s %22s", a.code(), a.format(a.deposited()), a.format(a.withdrawn()),
                a.format(a.adjusted()), a.format(a.held()), a.format(a.fees()), a.format(a.available()));
        }
    }

    /** The books checked against the engine's newest snapshot: the words the block and the page show. */
    static String snapshotCheck(final View view) {
        final SnapshotCheck.Outcome check = view.snapshotCheck();
        return check == null ? "not checked against an engine snapshot yet (none found, or its command not read yet)"
            : "checked against the engine's snapshot after journal index " + hex(check.journalIndex()) + ": " + check.detail();
    }

    private static String best(final View view, final int symbol, final Books.Book book, final Side side) {
        final Books.Levels levels = book.levels(side);
        return levels.size() == 0 ? "-" : levels.quantity(0) + "@" + price(view, symbol, levels.price(0)) + " (" + levels.orders(0) + ")";
    }

    /** A price in the symbol's units when the configuration gives a power-of-ten price scale, else in ticks as carried. */
    static String price(final View view, final int symbol, final long price) {
        final SymbolSpec spec = view.symbols().get(symbol);
        return spec == null ? Long.toString(price) : spec.formatPrice(price);
    }

    /** The decimal places of the symbol's price scale when it is a power of ten; -1 when it is not or is not known. */
    private static int decimalDigits(final View view, final int symbol) {
        final SymbolSpec spec = view.symbols().get(symbol);
        return spec == null ? -1 : spec.priceDecimals();
    }

    /** How far back the last-minute window reaches now: its intervals so far × the interval ("60 s" once full at 1 s). */
    static String window(final HopLatencies latencies, final double intervalSeconds) {
        return String.format(Locale.ROOT, "%.0f s", latencies.windowFilled() * intervalSeconds);
    }

    private static String millis(final long nanos) {
        return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString();
    }

    /** The symbol's name from the configuration, or #id. */
    static String name(final View view, final int symbol) {
        final SymbolSpec spec = view.symbols().get(symbol);
        return spec == null || spec.name() == null || spec.name().isBlank() ? "#" + symbol : spec.name();
    }

    private static double us(final Histogram h, final double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e3;
    }

    /** Chronicle indices read best in hex (cycle in the high bits, sequence in the low). */
    static String hex(final long index) {
        return index < 0 ? "-" : "0x" + Long.toHexString(index);
    }

    private static void line(final StringBuilder out, final String format, final Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
