package io.chronex.replay.audit;

import io.chronex.api.EngineConfig;
import io.chronex.api.AssetSpec;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.Hops;
import io.chronex.runtime.Args;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * bin/audit order, account and trades: the order records ({@link OrderRecords}) of the journal that
 * match a question, one line each, in journal order, with UTC receipt times to the microsecond.
 */
final class AuditQueries {
    static final DateTimeFormatter UTC_MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
        .withZone(ZoneOffset.UTC);

    private final EngineConfig config;
    private final PrintStream out;

    /** @param config symbol names and price scales for the printout, or null (ids and ticks) */
    AuditQueries(final EngineConfig config, final PrintStream out) {
        this.config = config;
        this.out = out;
    }

    /** An order's whole life: every record of the orders that carried that ClOrdID in that account, or of that engine order id. */
    long order(final DataDirectory data, final long orderId, final String clOrdId, final long account) {
        if (orderId > 0) {
            return orderById(data, orderId);
        }
        // The results whose commands carried that ClOrdID, from the ClOrdID index; each read to keep those that really did
        // (a hash may be shared) and to learn the engine ids of their orders, whose lives are then read through the order index.
        final long[] candidates = ClOrdIdIndex.updated(data, out).candidates(account, clOrdId);
        final List<OrderRecords.Record> kept = new ArrayList<>();
        final Set<Long> orders = new TreeSet<>();
        final boolean[] first = new boolean[1];
        final OrderRecords records = new OrderRecords(rec -> {
            // A result's records: its command's own first, then the fills and cancels it made for other orders.
            if (first[0] && rec.account == account && clOrdId.equals(shownClOrdId(rec))) {
                if (rec.orderId != 0) {
                    orders.add(rec.orderId);
                } else {
                    kept.add(rec.copy());
                }
            }
            first[0] = false;
        });
        long read = AnsweredCommands.each(data, candidates, (journalIndex, eventsIndex, command, text, hops, result) -> {
            first[0] = true;
            records.answered(journalIndex, eventsIndex, command, text, hops, result);
        });
        final OrderIndex index = orders.isEmpty() ? null : OrderIndex.updated(data, out);
        for (final long id : orders) {
            read += life(data, index, id, rec -> kept.add(rec.copy()));
        }
        kept.sort(Comparator.comparingLong(rec -> rec.journalIndex));
        kept.forEach(rec -> out.println(line(rec)));
        out.printf(Locale.ROOT, "RESULT records=%d results_read=%d%n", kept.size(), read);
        return kept.size();
    }

    /** The ClOrdID a record prints: the text the client sent, or the numeric id of a command journalled without one. */
    private static String shownClOrdId(final OrderRecords.Record rec) {
        return rec.clientOrderIdText.isEmpty() ? Long.toString(rec.clientOrderId) : rec.clientOrderIdText;
    }

    /**
     * One order by engine id, through the order index: from the result that accepted it to the one that
     * ended it (leaves 0), not a read of the whole journal.
     */
    private long orderById(final DataDirectory data, final long orderId) {
        final OrderIndex index = OrderIndex.updated(data, out);
        final long[] n = new long[1];
        final long read = life(data, index, orderId, rec -> {
            n[0]++;
            out.println(line(rec));
        });
        if (read < 0) {
            out.println("no order " + orderId + " was accepted in " + data.shownAs());
            out.println("RESULT records=0 results_read=0");
            return 0;
        }
        out.printf(Locale.ROOT, "RESULT records=%d results_read=%d%n", n[0], read);
        return n[0];
    }

    /**
     * Hands over the records of one order, from the result that accepted it to the one that ended it (leaves 0);
     * returns how many results were read, -1 when the order index does not know the order.
     */
    private static long life(final DataDirectory data, final OrderIndex index, final long orderId, final OrderRecords.Sink sink) {
        final long start = index.startOf(orderId);
        if (start < 0) {
            return -1;
        }
        final boolean[] ended = new boolean[1];
        return AnsweredCommands.walk(data, start, Long.MIN_VALUE, Long.MAX_VALUE, new OrderRecords(rec -> {
            if (rec.orderId == orderId) {
                sink.record(rec);
                ended[0] |= rec.leaves == 0;
            }
        }), () -> ended[0]).read();
    }

    /** Every record of an account's orders in the window. */
    long account(final DataDirectory data, final long account, final long from, final long to) {
        return print(data, from, to, rec -> rec.account == account, true);
    }

    /** Every trade in the window (the taker's record of it), of one symbol or all (symbol 0). */
    long trades(final DataDirectory data, final int symbol, final long from, final long to) {
        final long[] totals = new long[2];
        final long n = print(data, from, to, rec -> {
            final boolean trade = "fill".equals(rec.eventType) && "taker".equals(rec.reason) && (symbol == 0 || rec.symbol == symbol);
            if (trade) {
                totals[0] += rec.tradeQuantity;
            }
            return trade;
        }, false);
        out.printf(Locale.ROOT, "RESULT trades=%d volume=%d%n", n, totals[0]);
        return n;
    }

    private long print(final DataDirectory data, final long from, final long to, final Predicate<OrderRecords.Record> wanted,
                       final boolean resultLine) {
        final long[] n = new long[1];
        final AnsweredCommands.Counts counts = AnsweredCommands.walk(data, from, to, new OrderRecords(rec -> {
            if (wanted.test(rec)) {
                n[0]++;
                out.println(line(rec));
            }
        }));
        if (counts.unreadable() > 0) {
            out.printf("note: %d events excerpts do not decode and were passed over%n", counts.unreadable());
        }
        if (resultLine) {
            out.printf(Locale.ROOT, "RESULT records=%d results_read=%d%n", n[0], counts.read());
        }
        return n[0];
    }

    /** One record as the tools print it. */
    String line(final OrderRecords.Record r) {
        final StringBuilder sb = new StringBuilder(200);
        sb.append(UTC_MICROS.format(Instant.ofEpochSecond(0, r.receiptEpochNanos))).append("  journal 0x")
            .append(Long.toHexString(r.journalIndex)).append(String.format(Locale.ROOT, "  %-6s", r.eventType))
            .append(" order ").append(r.orderId).append(" account ").append(r.account)
            .append(" clOrdId ").append(r.clientOrderIdText.isEmpty() ? Long.toString(r.clientOrderId) : r.clientOrderIdText)
            .append(' ').append(symbolName(r.symbol)).append(' ').append(r.side);
        if (r.asset != 0) {
            sb.append(' ').append(r.commandType.toLowerCase(Locale.ROOT)).append(' ').append(amount(r.asset, r.amount)).append(' ')
                .append(assetCode(r.asset)).append(" ref ").append(r.clientOrderId).append(", available ")
                .append(amount(r.asset, r.available)).append(" held ").append(amount(r.asset, r.held));
        } else if ("fill".equals(r.eventType)) {
            sb.append(' ').append(r.tradeQuantity).append('@').append(price(r.symbol, r.tradePrice)).append(" trade ").append(r.tradeId)
                .append(" against order ").append(r.counterpartyOrderId).append(" (account ").append(r.counterpartyAccount).append(")");
        } else if (r.quantity != 0 || r.price != 0) {
            for (final String s : new String[] {r.orderType, r.timeInForce}) {
                sb.append(s.isEmpty() ? "" : " " + s);
            }
            sb.append(' ').append(r.quantity).append('@').append(price(r.symbol, r.price));
        }
        sb.append(" leaves ").append(r.leaves).append(" cum ").append(r.cumulative);
        if (!r.reason.isEmpty() && !"fill".equals(r.eventType)) {
            sb.append(" (").append(r.reason).append(')');
        }
        sb.append("  [").append(r.commandType);
        if (r.hops != null) {
            sb.append("; ").append(hops(r.hops));
        }
        return sb.append(']').toString();
    }

    /** The hops of a command's own record: what the order's journey cost, µs. */
    static String hops(final Hops h) {
        return String.format(Locale.ROOT, "gateway %s, journal %s, match %s, events %s us", us(h.gatewayReadNanos,
            h.gatewayAppendNanos), us(h.gatewayAppendNanos, h.engineReadNanos), us(h.engineReadNanos, h.engineDoneNanos),
            us(h.engineDoneNanos, h.engineAppendNanos));
    }

    private static String us(final long from, final long to) {
        return from == 0 || to == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (to - from) / 1e3);
    }

    private String symbolName(final int symbol) {
        final SymbolSpec spec = spec(symbol);
        return spec == null ? "#" + symbol : spec.name();
    }

    /** An asset's code from the configuration, or "#id" without one. */
    String assetCode(final int asset) {
        final AssetSpec spec = config == null ? null : config.asset(asset);
        return spec == null ? "#" + asset : spec.code();
    }

    /** An amount of an asset in its decimals, or as stored without the configuration. */
    String amount(final int asset, final long amount) {
        final AssetSpec spec = config == null ? null : config.asset(asset);
        return spec == null ? Long.toString(amount) : spec.format(amount);
    }

    String price(final int symbol, final long ticks) {
        final SymbolSpec spec = spec(symbol);
        return spec == null ? Long.toString(ticks) : spec.formatPrice(ticks);
    }

    private SymbolSpec spec(final int symbol) {
        if (config == null) {
            return null;
        }
        for (final SymbolSpec s : config.symbols()) {
            if (s.id() == symbol) {
                return s;
            }
        }
        return null;
    }

    /** The account a FIX session (SenderCompID) trades for, from a gateway configuration file. */
    static long sessionAccount(final Path gatewayConfig, final String session) {
        final Object sessions;
        try (Reader reader = Files.newBufferedReader(gatewayConfig)) {
            final Object root = new Yaml().load(reader);
            sessions = root instanceof Map<?, ?> m ? m.get("sessions") : null;
        } catch (final IOException | RuntimeException e) {
            throw new Args.UsageException("cannot read the gateway configuration " + gatewayConfig + ": " + e.getMessage());
        }
        if (sessions instanceof List<?> list) {
            for (final Object s : list) {
                if (s instanceof Map<?, ?> m && session.equals(String.valueOf(m.get("senderCompId")))
                    && m.get("account") instanceof Number a) {
                    return a.longValue();
                }
            }
        }
        throw new Args.UsageException("no session '" + session + "' in " + gatewayConfig + " (its sessions list each senderCompId and"
            + " account)");
    }
}
