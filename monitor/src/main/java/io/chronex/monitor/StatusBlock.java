package io.chronex.monitor;

import io.chronex.api.RejectReason;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.FailedEventsFile;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The terminal face of the monitor: one compact text block from the model and the processes' status. */
public final class StatusBlock {
    /** A gateway found under the data directory: its id, process status and failed events (null when it has no file). */
    public record GatewayView(int id, ProcessStatus status, FailedEventsFile.Snapshot failed) {
    }

    /**
     * Everything the block shows besides the model. {@code intervalSeconds} is 0 for a single read
     * (--once), which shows totals only; {@code symbols} may be empty (ids are shown then);
     * {@code snapshotCheck} is null until a snapshot was checked.
     */
    public record View(Path dataDir, Instant now, double intervalSeconds, long backlogAgeNanos, long alertBacklogNanos,
                       ProcessStatus engine, List<GatewayView> gateways, Map<Integer, SymbolSpec> symbols, long unreadableEvents,
                       SnapshotCheck.Outcome snapshotCheck) {
    }

    private StatusBlock() {
    }

    /** The block's lines, ending with a newline. */
    public static String render(final MonitorModel model, final View view) {
        final StringBuilder out = new StringBuilder(4096);
        line(out, "chronex monitor  %s  %s  %s", view.now(), view.dataDir(),
            view.intervalSeconds() == 0 ? "(one read: everything in the queues)" : String.format(Locale.ROOT, "every %.1f s",
                view.intervalSeconds()));
        final List<String> alerts = alerts(model, view);
        line(out, "alerts   %s", alerts.isEmpty() ? "none" : String.join("; ", alerts));
        processes(out, model, view);
        flow(out, model, view);
        latencies(out, model, view.intervalSeconds() == 0);
        books(out, model, view);
        return out.toString();
    }

    /** The alerts now, in the words the block and the page show them; empty when all is well. */
    static List<String> alerts(final MonitorModel model, final View view) {
        final List<String> alerts = new ArrayList<>();
        if (view.backlogAgeNanos() > view.alertBacklogNanos()) {
            alerts.add(String.format(Locale.ROOT, "BACKLOG AGE %.3f s > %.3f s", view.backlogAgeNanos() / 1e9,
                view.alertBacklogNanos() / 1e9));
        }
        if (view.engine().state() == ProcessStatus.State.GONE) {
            alerts.add("ENGINE GONE (pid " + view.engine().pid() + ")");
        } else if (!view.engine().alive() && model.backlog().count() > 0) {
            alerts.add("ENGINE NOT RUNNING with " + model.backlog().count() + " commands waiting");
        }
        for (final GatewayView g : view.gateways()) {
            if (g.status().state() == ProcessStatus.State.GONE) {
                alerts.add("GATEWAY " + g.id() + " GONE (pid " + g.status().pid() + ")");
            }
        }
        if (view.snapshotCheck() != null && !view.snapshotCheck().equal()) {
            alerts.add("BOOKS DIFFER FROM THE ENGINE'S SNAPSHOT after journal index " + hex(view.snapshotCheck().journalIndex()));
        }
        if (view.unreadableEvents() > 0) {
            alerts.add(view.unreadableEvents() + " events excerpts could not be decoded");
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
        for (final GatewayView g : view.gateways()) {
            final FailedEventsFile.Snapshot failed = g.failed();
            line(out, "gateway %d  %s, %d commands appended%s, failed events %s", g.id(), g.status().describe(),
                model.commandsFromGateway(g.id()),
                view.intervalSeconds() == 0 ? "" : " (" + model.lastIntervalCommandsFromGateway(g.id()) + " in the interval)",
                failed == null || failed.count() == 0 ? "0" : failed.count() + " (last at events index " + hex(failed.lastEventsIndex())
                    + ": " + failed.reason() + ")");
        }
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
        c.trading().forEach((symbol, t) -> line(out, "trades   %-8s %d trades, volume %d", name(view, symbol), t.trades, t.volume));
    }

    private static void latencies(final StringBuilder out, final MonitorModel model, final boolean once) {
        if (once) {
            line(out, "latency  µs, everything read   %8s %9s %9s %9s %9s %9s", "n", "p50", "p90", "p99", "p99.9", "max");
        } else {
            line(out, "latency  µs        last interval: %8s %9s %9s %9s %9s %9s | since start: %8s %9s %9s %9s", "n", "p50", "p90",
                "p99", "p99.9", "max", "n", "p50", "p99", "max");
        }
        for (final HopLatencies.Hop hop : HopLatencies.Hop.values()) {
            final Histogram all = model.latencies().sinceStart(hop);
            if (once) {
                line(out, "  %-8s %21s %8d %9.2f %9.2f %9.2f %9.2f %9.2f", hop.label, "", all.getTotalCount(), us(all, 50), us(all, 90),
                    us(all, 99), us(all, 99.9), all.getMaxValue() / 1e3);
            } else {
                final Histogram h = model.latencies().interval(hop);
                line(out, "  %-8s %22s %8d %9.2f %9.2f %9.2f %9.2f %9.2f | %12s %8d %9.2f %9.2f %9.2f", hop.label, "", h.getTotalCount(),
                    us(h, 50), us(h, 90), us(h, 99), us(h, 99.9), h.getMaxValue() / 1e3, "", all.getTotalCount(), us(all, 50),
                    us(all, 99), all.getMaxValue() / 1e3);
            }
        }
    }

    private static void books(final StringBuilder out, final MonitorModel model, final View view) {
        if (model.books().bySymbol().isEmpty()) {
            line(out, "books    (no level seen yet)");
            return;
        }
        line(out, "books    %-8s %28s %28s %8s %8s", "symbol", "best bid qty@price (orders)", "best ask qty@price (orders)",
            "bid lvls", "ask lvls");
        model.books().bySymbol().forEach((symbol, book) -> line(out, "         %-8s %28s %28s %8d %8d", name(view, symbol),
            best(view, symbol, book, Side.BUY), best(view, symbol, book, Side.SELL), book.levels(Side.BUY).size(),
            book.levels(Side.SELL).size()));
        line(out, "         %s", snapshotCheck(view));
    }

    /** The books checked against the engine's newest snapshot: the words the block and the page show. */
    static String snapshotCheck(final View view) {
        final SnapshotCheck.Outcome check = view.snapshotCheck();
        return check == null ? "not checked against an engine snapshot yet (none found, or its command not read yet)"
            : "checked against the engine's snapshot after journal index " + hex(check.journalIndex()) + ": " + check.detail();
    }

    private static String best(final View view, final int symbol, final Books.Book book, final Side side) {
        final Map.Entry<Long, Books.Level> best = book.best(side);
        return best == null ? "-" : best.getValue().quantity() + "@" + price(view, symbol, best.getKey()) + " (" + best.getValue().orders()
            + ")";
    }

    /** A price in the symbol's units when the configuration gives a power-of-ten price scale, else in ticks as carried. */
    static String price(final View view, final int symbol, final long price) {
        final SymbolSpec spec = view.symbols().get(symbol);
        if (spec == null) {
            return Long.toString(price);
        }
        final int digits = Long.toString(spec.priceScale()).length() - 1;
        return BigDecimal.valueOf(spec.priceScale()).equals(BigDecimal.TEN.pow(digits))
            ? BigDecimal.valueOf(price, digits).toPlainString() : Long.toString(price);
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
