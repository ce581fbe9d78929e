package io.chronex.replay;

import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.LongHashSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * bin/journal-summary: reads both queues and checks the exactly-once contract (every command
 * answered once), totals the trades, and rebuilds each symbol's best bid and ask from the results'
 * level changes alone, as any market-data reader could.
 */
public final class JournalSummary {
    static final String USAGE = """
        Usage: bin/journal-summary --data-dir DIR

        Reads DIR/commands and DIR/events and prints
          RESULT commands=N answered=N duplicates=N missing=N trades=N volume=N notional=N
        (missing = commands with no result, duplicates = commands answered more than once),
        then one line per symbol with its final best bid and ask, rebuilt from the events alone.
        """;

    /** What the queues hold. */
    public record Summary(long commands, long answered, long duplicates, long missing, long unreadable, long trades, long volume,
                          long notional, List<String> symbolLines) {
        public String resultLine() {
            return "RESULT commands=" + commands + " answered=" + answered + " duplicates=" + duplicates + " missing=" + missing
                + " trades=" + trades + " volume=" + volume + " notional=" + notional;
        }
    }

    private JournalSummary() {
    }

    public static void main(final String[] argv) {
        Tool.run("journal-summary", USAGE, () -> {
            final Args args = Args.parse(argv, "--data-dir");
            final Summary summary = summarize(DataDirectory.openForTool(args.path("--data-dir", Path.of("data"))));
            if (summary.unreadable() > 0) {
                System.out.println("warning: " + summary.unreadable() + " events excerpts could not be decoded");
            }
            System.out.println(summary.resultLine());
            summary.symbolLines().forEach(System.out::println);
            return 0;
        });
    }

    public static Summary summarize(final DataDirectory data) {
        final LongHashSet journal = new LongHashSet();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    journal.add(dc.index());
                }
            }
        }
        final LongHashSet answered = new LongHashSet();
        long duplicates = 0;
        long unreadable = 0;
        long trades = 0;
        long volume = 0;
        long notional = 0;
        // symbol -> side -> price -> quantity, kept from level changes only.
        final Map<Integer, List<TreeMap<Long, Long>>> books = new TreeMap<>();
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    if (EventCodec.read(dc.wire().bytes(), header, result) != DecodeStatus.OK) {
                        unreadable++;
                        continue;
                    }
                    if (!answered.add(header.commandIndex)) {
                        duplicates++;
                    }
                    for (int i = 0; i < result.fillCount(); i++) {
                        final Fill fill = result.fill(i);
                        trades++;
                        volume += fill.quantity;
                        notional += fill.quantity * fill.price;
                    }
                    for (int i = 0; i < result.levelChangeCount(); i++) {
                        final LevelChange change = result.levelChange(i);
                        final TreeMap<Long, Long> side = books.computeIfAbsent(change.symbol, s -> newBook()).get(change.side.ordinal());
                        if (change.quantity == 0) {
                            side.remove(change.price);
                        } else {
                            side.put(change.price, change.quantity);
                        }
                    }
                }
            }
        }
        long missing = 0;
        for (final LongHashSet.LongIterator it = journal.iterator(); it.hasNext(); ) {
            if (!answered.contains(it.nextValue())) {
                missing++;
            }
        }
        final List<String> symbolLines = new ArrayList<>();
        books.forEach((symbol, sides) -> symbolLines.add("symbol=" + symbol
            + " best_bid=" + (sides.get(Side.BUY.ordinal()).isEmpty() ? "none" : sides.get(Side.BUY.ordinal()).lastKey())
            + " best_ask=" + (sides.get(Side.SELL.ordinal()).isEmpty() ? "none" : sides.get(Side.SELL.ordinal()).firstKey())));
        return new Summary(journal.size(), answered.size(), duplicates, missing, unreadable, trades, volume, notional, symbolLines);
    }

    /** Price to quantity per side, indexed by Side's ordinal. */
    private static List<TreeMap<Long, Long>> newBook() {
        return List.of(new TreeMap<>(), new TreeMap<>());
    }
}
