package io.chronex.monitor;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chronex.api.CommandType;
import io.chronex.api.RejectReason;
import io.chronex.api.Side;
import io.chronex.queues.FailedEventsFile;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.LedgerStatusFile;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.queues.book.Books;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The page's and {@code /api/state}'s face of the monitor: the same figures as the status block
 * (alerts and engine progress are the block's own words), plus the percentile distribution per hop
 * and the recent history, as one JSON document per interval. Written with Jackson's streaming
 * generator: no reflection, and every string escaped as JSON requires.
 */
public final class StateJson {
    /**
     * The distribution's points: x = 1/(1-p), 10^(k/4) for k = 0..24, so p runs from 0 to 99.9999 %
     * at four points per decade of the log 1/(1-p) axis (the HdrHistogram plotting convention).
     */
    static final double[] PERCENTILES = new double[25];
    /** Book levels per side in the document: the page shows the top of the book, not all of it. */
    static final int DEPTH = 10;
    private static final JsonFactory JSON = new JsonFactory();
    private static final HopLatencies.Hop[] HOPS = HopLatencies.Hop.values();

    static {
        for (int k = 0; k < PERCENTILES.length; k++) {
            PERCENTILES[k] = 100.0 * (1.0 - Math.pow(10, -k / 4.0));
        }
    }

    private StateJson() {
    }

    /** The whole state as one JSON object. */
    public static String render(final MonitorModel model, final StatusBlock.View view, final History history) {
        final StringWriter text = new StringWriter(16_384);
        try (JsonGenerator g = JSON.createGenerator(text)) {
            g.writeStartObject();
            g.writeNumberField("time", view.now().toEpochMilli());
            g.writeStringField("dataDir", view.dataDir().toString());
            g.writeNumberField("intervalSeconds", view.intervalSeconds());
            g.writeArrayFieldStart("alerts");
            for (final String alert : StatusBlock.alerts(model, view)) {
                g.writeString(alert);
            }
            g.writeEndArray();
            processes(g, model, view);
            publisher(g, view.publisher());
            cluster(g, view.cluster());
            flow(g, model, view);
            results(g, model, view);
            operator(g, model, view);
            latency(g, model, view);
            books(g, model, view);
            money(g, view.money());
            history(g, history);
            alertHistory(g, history.alerts(), view.now().toEpochMilli());
            g.writeEndObject();
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return text.toString();
    }

    private static void processes(final JsonGenerator g, final MonitorModel model, final StatusBlock.View view) throws IOException {
        g.writeObjectFieldStart("engine");
        g.writeStringField("state", view.engine().state().name());
        g.writeNumberField("pid", view.engine().pid());
        g.writeStringField("status", view.engine().describe());
        g.writeStringField("progress", StatusBlock.engineProgress(model, view));
        g.writeStringField("lastAnswered", StatusBlock.hex(model.backlog().lastAnswered()));
        g.writeEndObject();
        if (view.storage() != null) {
            final Storage.Reading s = view.storage();
            g.writeObjectFieldStart("storage");
            g.writeStringField("status", s.describe());
            g.writeNumberField("totalBytes", s.totalBytes());
            g.writeNumberField("usableBytes", s.usableBytes());
            g.writeNumberField("reserveBytes", s.reserveBytes());
            g.writeNumberField("bytesPerSecond", s.bytesPerSecond());
            g.writeNumberField("secondsToReserve", s.secondsToReserve());
            g.writeEndObject();
        }
        g.writeArrayFieldStart("gateways");
        for (final StatusBlock.GatewayView gateway : view.gateways()) {
            g.writeStartObject();
            g.writeNumberField("id", gateway.id());
            g.writeStringField("state", gateway.status().state().name());
            g.writeNumberField("pid", gateway.status().pid());
            g.writeStringField("status", gateway.status().describe());
            g.writeNumberField("commands", model.commandsFromGateway(gateway.id()));
            g.writeNumberField("commandsInInterval", model.lastIntervalCommandsFromGateway(gateway.id()));
            final FailedEventsFile.Snapshot failed = gateway.failed();
            g.writeNumberField("failedEvents", failed == null ? 0 : failed.count());
            if (failed != null && failed.count() != 0) {
                g.writeStringField("lastFailure", StatusBlock.failedEvents(failed));
            }
            sessions(g, gateway.sessions());
            g.writeStringField("marketData", StatusBlock.marketDataSummary(gateway).replaceFirst("^, ", ""));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * {@code money}: the engine's ledger (DATA/ledger) when there is one: the block's words, the command it is after, and per
     * asset code, decimals and each total as a decimal string in the asset's units (exact: no binary fractions); absent
     * without a ledger file.
     */
    private static void money(final JsonGenerator g, final MoneyView money) throws IOException {
        if (money == null) {
            return;
        }
        final LedgerStatusFile.Snapshot ledger = money.ledger();
        g.writeObjectFieldStart("money");
        g.writeStringField("status", money.describe());
        g.writeBooleanField("readable", ledger.problem() == null);
        if (ledger.problem() == null) {
            g.writeStringField("lastJournalIndex", ledger.lastJournalIndex() < 0 ? null : StatusBlock.hex(ledger.lastJournalIndex()));
            g.writeNumberField("commands", ledger.commands());
            g.writeNumberField("ageMillis", money.ageMillis());
            g.writeArrayFieldStart("assets");
            for (final LedgerStatusFile.Asset a : ledger.assets()) {
                g.writeStartObject();
                g.writeStringField("code", a.code());
                g.writeNumberField("decimals", a.decimals());
                g.writeStringField("deposited", a.format(a.deposited()));
                g.writeStringField("withdrawn", a.format(a.withdrawn()));
                g.writeStringField("adjusted", a.format(a.adjusted()));
                g.writeStringField("held", a.format(a.held()));
                g.writeStringField("fees", a.format(a.fees()));
                g.writeStringField("available", a.format(a.available()));
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /**
     * {@code marketData}: the market-data publisher (DATA/marketdata/status) when one ever ran here: state, the block's
     * words, incrementals per second (null: not known), the counters and the lag it measured (events and µs); absent
     * when there is no status file.
     */
    private static void publisher(final JsonGenerator g, final PublisherView p) throws IOException {
        if (p == null) {
            return;
        }
        g.writeObjectFieldStart("marketData");
        g.writeStringField("state", p.state().name());
        g.writeStringField("status", p.describe());
        if (p.state() != PublisherView.State.UNREADABLE) {
            final MarketDataStatusFile.Snapshot s = p.status();
            g.writeNumberField("pid", s.pid());
            g.writeNumberField("heartbeatAgeMillis", p.heartbeatAgeMillis());
            if (Double.isNaN(p.incrementalsPerSecond())) {
                g.writeNullField("incrementalsPerSecond");
            } else {
                g.writeNumberField("incrementalsPerSecond", p.incrementalsPerSecond());
            }
            g.writeNumberField("incrementals", s.incrementals());
            g.writeNumberField("lastSeq", s.lastSeq());
            g.writeNumberField("snapshots", s.snapshots());
            g.writeStringField("lastEventsIndexRead", StatusBlock.hex(s.lastEventsIndex()));
            g.writeStringField("lastEventsIndexPublished", s.lastSentIndex() < 0 ? null : StatusBlock.hex(s.lastSentIndex()));
            g.writeNumberField("lagEvents", s.lagEvents());
            g.writeNumberField("lagMicros", s.lagMicros());
            g.writeNumberField("backPressured", s.backPressured());
            g.writeNumberField("givenUp", s.givenUp());
            g.writeNumberField("noSubscriber", s.notConnected());
        }
        g.writeEndObject();
    }

    /**
     * With --cluster: {@code cluster} with the summary line, the leader's id (-1: none), term and commit position, and each
     * member's liveness, role, states, term, commit position, lag behind the leader, elections and snapshots (-1: not known).
     */
    private static void cluster(final JsonGenerator g, final ClusterView.Snapshot cluster) throws IOException {
        if (cluster == null) {
            return;
        }
        final ClusterView.Member leader = cluster.leader();
        g.writeObjectFieldStart("cluster");
        g.writeStringField("config", cluster.config().toString());
        g.writeStringField("summary", StatusBlock.clusterSummary(cluster));
        g.writeNumberField("leader", leader == null ? -1 : leader.id());
        g.writeNumberField("term", leader == null ? -1 : leader.leadershipTermId());
        g.writeNumberField("commitPosition", leader == null ? -1 : leader.commitPosition());
        g.writeNumberField("up", cluster.up());
        g.writeArrayFieldStart("members");
        for (final ClusterView.Member m : cluster.members()) {
            g.writeStartObject();
            g.writeNumberField("id", m.id());
            g.writeStringField("host", m.host());
            g.writeStringField("liveness", m.liveness().name());
            g.writeStringField("status", m.describe());
            g.writeStringField("role", m.up() ? m.roleName() : "-");
            g.writeStringField("moduleState", m.up() ? ClusterView.name(m.moduleState()) : "-");
            g.writeStringField("electionState", m.up() ? ClusterView.name(m.electionState()) : "-");
            g.writeNumberField("term", m.leadershipTermId());
            g.writeNumberField("commitPosition", m.commitPosition());
            g.writeNumberField("lag", cluster.lag(m));
            g.writeNumberField("elections", m.electionCount());
            g.writeNumberField("snapshots", m.snapshotCount());
            g.writeStringField("storage", m.up() ? m.storage() : "-");
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** A gateway's FIX sessions as it publishes them (gateways/N/sessions); the reason when the file cannot be read. */
    private static void sessions(final JsonGenerator g, final GatewaySessionsFile.Snapshot sessions) throws IOException {
        g.writeObjectFieldStart("sessions");
        if (sessions == null || sessions.problem() != null) {
            g.writeStringField("problem", sessions == null ? "no sessions file" : sessions.problem());
            g.writeEndObject();
            return;
        }
        g.writeNumberField("loggedOn", sessions.loggedOn());
        g.writeNumberField("configured", sessions.sessions().size());
        g.writeArrayFieldStart("list");
        for (final GatewaySessionsFile.Session s : sessions.sessions()) {
            g.writeStartObject();
            g.writeStringField("name", s.senderCompId() + "->" + s.targetCompId());
            g.writeBooleanField("loggedOn", s.loggedOn());
            g.writeNumberField("messagesIn", s.messagesIn());
            g.writeNumberField("messagesOut", s.messagesOut());
            g.writeNumberField("lastInboundSeqNum", s.lastInboundSeqNum());
            g.writeNumberField("lastOutboundSeqNum", s.lastOutboundSeqNum());
            g.writeNumberField("lastLogonEpochMillis", s.lastLogonEpochMillis());
            g.writeObjectFieldStart("marketData");
            g.writeNumberField("subscriptions", s.marketData().subscriptions());
            g.writeBooleanField("stale", s.marketData().stale());
            g.writeNumberField("staleEpisodes", s.marketData().staleEpisodes());
            g.writeNumberField("snapshots", s.marketData().snapshots());
            g.writeNumberField("incrementals", s.marketData().incrementals());
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** Operator commands: counts by type and the last ones kept, newest first, with the engine's answer. */
    private static void operator(final JsonGenerator g, final MonitorModel model, final StatusBlock.View view) throws IOException {
        final OperatorCommands operator = model.operator();
        g.writeObjectFieldStart("operator");
        g.writeNumberField("total", operator.total());
        g.writeObjectFieldStart("counts");
        for (final Map.Entry<CommandType, Long> e : operator.counts().entrySet()) {
            g.writeNumberField(e.getKey().name(), e.getValue());
        }
        g.writeEndObject();
        g.writeArrayFieldStart("last");
        final List<OperatorCommands.Entry> last = operator.last();
        for (int i = last.size() - 1; i >= 0; i--) {
            final OperatorCommands.Entry e = last.get(i);
            g.writeStartObject();
            g.writeStringField("journalIndex", StatusBlock.hex(e.journalIndex()));
            g.writeStringField("type", e.type().name());
            g.writeStringField("subject", StatusBlock.subject(view, e).trim());
            g.writeStringField("answer", e.answer() == null ? "no answer yet" : e.answer());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void flow(final JsonGenerator g, final MonitorModel model, final StatusBlock.View view) throws IOException {
        final double seconds = view.intervalSeconds();
        g.writeObjectFieldStart("flow");
        g.writeNumberField("commands", model.commands());
        g.writeNumberField("events", model.events());
        g.writeNumberField("commandsPerSecond", seconds == 0 ? 0 : model.lastIntervalCommands() / seconds);
        g.writeNumberField("eventsPerSecond", seconds == 0 ? 0 : model.lastIntervalEvents() / seconds);
        g.writeEndObject();
        g.writeObjectFieldStart("backlog");
        g.writeNumberField("commands", model.backlog().count());
        if (view.backlogAgeNanos() < 0) {
            g.writeNullField("ageMs"); // the oldest waiting command carried no timestamp
        } else {
            g.writeNumberField("ageMs", view.backlogAgeNanos() / 1e6);
        }
        g.writeNumberField("alertAgeMs", view.alertBacklogNanos() / 1e6);
        g.writeEndObject();
    }

    private static void results(final JsonGenerator g, final MonitorModel model, final StatusBlock.View view) throws IOException {
        final Counters c = model.counters();
        g.writeObjectFieldStart("results");
        g.writeNumberField("accepted", c.accepted());
        g.writeNumberField("rejected", c.rejectsTotal());
        g.writeObjectFieldStart("rejects");
        for (final RejectReason reason : RejectReason.values()) {
            if (reason != RejectReason.NONE && c.rejects(reason) > 0) {
                g.writeNumberField(reason.name(), c.rejects(reason));
            }
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeArrayFieldStart("trades");
        for (final Map.Entry<Integer, Counters.SymbolTrading> e : c.trading().entrySet()) {
            g.writeStartObject();
            g.writeStringField("symbol", StatusBlock.name(view, e.getKey()));
            g.writeNumberField("trades", e.getValue().trades);
            g.writeNumberField("volume", e.getValue().volume);
            g.writeStringField("notional", StatusBlock.notional(view, e.getKey(), e.getValue().notional()));
            g.writeArrayFieldStart("lastTrades");
            for (final Counters.Trade t : e.getValue().lastTrades()) {
                g.writeStartObject();
                g.writeStringField("price", StatusBlock.price(view, e.getKey(), t.price()));
                g.writeNumberField("quantity", t.quantity());
                g.writeStringField("eventsIndex", StatusBlock.hex(t.eventsIndex()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Per hop: the last interval's, last minute's and since start's percentiles (µs), and the since-start distribution for the plot. */
    private static void latency(final JsonGenerator g, final MonitorModel model, final StatusBlock.View view) throws IOException {
        g.writeObjectFieldStart("latency");
        g.writeArrayFieldStart("hops");
        for (final HopLatencies.Hop hop : HOPS) {
            g.writeString(hop.label);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("interval");
        for (final HopLatencies.Hop hop : HOPS) {
            percentiles(g, hop.label, model.latencies().interval(hop));
        }
        g.writeEndObject();
        g.writeStringField("window", StatusBlock.window(model.latencies(), view.intervalSeconds()));
        g.writeObjectFieldStart("lastMinute");
        for (final HopLatencies.Hop hop : HOPS) {
            percentiles(g, hop.label, model.latencies().lastMinute(hop));
        }
        g.writeEndObject();
        g.writeObjectFieldStart("sinceStart");
        for (final HopLatencies.Hop hop : HOPS) {
            percentiles(g, hop.label, model.latencies().sinceStart(hop));
        }
        g.writeEndObject();
        g.writeObjectFieldStart("distribution");
        g.writeArrayFieldStart("percentile");
        for (final double p : PERCENTILES) {
            g.writeNumber(p);
        }
        g.writeEndArray();
        for (final HopLatencies.Hop hop : HOPS) {
            final Histogram h = model.latencies().sinceStart(hop);
            g.writeArrayFieldStart(hop.label);
            for (final double p : PERCENTILES) {
                if (h.getTotalCount() == 0) {
                    g.writeNull();
                } else {
                    g.writeNumber(h.getValueAtPercentile(p) / 1e3);
                }
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void percentiles(final JsonGenerator g, final String name, final Histogram h) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("n", h.getTotalCount());
        final boolean empty = h.getTotalCount() == 0;
        g.writeNumberField("p50", empty ? 0 : h.getValueAtPercentile(50) / 1e3);
        g.writeNumberField("p90", empty ? 0 : h.getValueAtPercentile(90) / 1e3);
        g.writeNumberField("p99", empty ? 0 : h.getValueAtPercentile(99) / 1e3);
        g.writeNumberField("p999", empty ? 0 : h.getValueAtPercentile(99.9) / 1e3);
        g.writeNumberField("max", h.getMaxValue() / 1e3);
        g.writeEndObject();
    }

    private static void books(final JsonGenerator g, final MonitorModel model, final StatusBlock.View view) throws IOException {
        g.writeObjectFieldStart("snapshotCheck");
        g.writeBooleanField("equal", view.snapshotCheck() == null || view.snapshotCheck().equal());
        g.writeStringField("text", StatusBlock.snapshotCheck(view));
        g.writeEndObject();
        g.writeArrayFieldStart("books");
        for (final int symbol : model.books().symbols()) {
            g.writeStartObject();
            g.writeStringField("symbol", StatusBlock.name(view, symbol));
            for (final Side side : Side.values()) {
                final Books.Levels levels = model.books().book(symbol).levels(side);
                g.writeNumberField(side == Side.BUY ? "bidLevels" : "askLevels", levels.size());
                g.writeArrayFieldStart(side == Side.BUY ? "bids" : "asks");
                for (int rank = 0; rank < Math.min(DEPTH, levels.size()); rank++) {
                    g.writeStartObject();
                    g.writeStringField("price", StatusBlock.price(view, symbol, levels.price(rank)));
                    g.writeNumberField("quantity", levels.quantity(rank));
                    g.writeNumberField("orders", levels.orders(rank));
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * {@code alertHistory}: every alert of the monitor's run, those still raised first, then the last
     * {@value AlertHistory#KEPT} that cleared, newest first: kind, latest text, raised and cleared (null while raised) in
     * epoch ms, and how long it lasted (so far).
     */
    private static void alertHistory(final JsonGenerator g, final AlertHistory alerts, final long nowMillis) throws IOException {
        g.writeArrayFieldStart("alertHistory");
        for (final AlertHistory.Entry e : alerts.entries()) {
            g.writeStartObject();
            g.writeStringField("kind", e.kind());
            g.writeStringField("text", e.text());
            g.writeNumberField("raised", e.raisedMillis());
            if (e.clearedMillis() == 0) {
                g.writeNullField("cleared");
            } else {
                g.writeNumberField("cleared", e.clearedMillis());
            }
            g.writeNumberField("lastedMs", e.lastedMillis(nowMillis));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Column arrays, oldest first, as uPlot takes them; NaN (a hop with nothing in an interval) as null. */
    private static void history(final JsonGenerator g, final History history) throws IOException {
        final int n = history.size();
        g.writeObjectFieldStart("history");
        g.writeArrayFieldStart("time");
        for (int i = 0; i < n; i++) {
            g.writeNumber(history.epochSeconds(i));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("commandsPerSecond");
        for (int i = 0; i < n; i++) {
            g.writeNumber(history.commandsPerSecond(i));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("eventsPerSecond");
        for (int i = 0; i < n; i++) {
            g.writeNumber(history.eventsPerSecond(i));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("backlog");
        for (int i = 0; i < n; i++) {
            g.writeNumber(history.backlog(i));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("backlogAgeMs");
        for (int i = 0; i < n; i++) {
            number(g, history.backlogAgeMs(i) < 0 ? Double.NaN : history.backlogAgeMs(i));
        }
        g.writeEndArray();
        for (final String stat : new String[] {"p50", "p99", "max"}) {
            g.writeObjectFieldStart(stat);
            for (final HopLatencies.Hop hop : HOPS) {
                g.writeArrayFieldStart(hop.label);
                for (int i = 0; i < n; i++) {
                    number(g, switch (stat) {
                        case "p50" -> history.p50(hop, i);
                        case "p99" -> history.p99(hop, i);
                        default -> history.max(hop, i);
                    });
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void number(final JsonGenerator g, final double value) throws IOException {
        if (Double.isNaN(value)) {
            g.writeNull();
        } else {
            g.writeNumber(value);
        }
    }
}
