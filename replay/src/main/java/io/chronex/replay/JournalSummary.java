package io.chronex.replay;

import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.CommandType;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.HistoryView;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.QueueGap;
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

        Reads DIR/commands and DIR/events (with the days bin/admin archive moved away, read back from the
        archive DIR/archived-cycles names) and prints
          RESULT commands=N answered=N duplicates=N missing=N trades=N volume=N notional=N
                 unreadable=N damaged=N
        (commands and answered leave out the journal's configuration records, which bin/audit config lists;
        missing = journal entries with no result, either kind, duplicates = commands answered more than once,
        unreadable = events excerpts that do not decode, damaged = stretches of either queue that
        cannot be read although the queue says excerpts follow: bytes zeroed or overwritten; each is
        printed with its index range), then one line per symbol with its final best bid and ask,
        rebuilt from the events alone.
        Exit status: 0 when every command is answered exactly once and nothing is unreadable;
        1 when anything is missing, answered twice, unreadable or damaged (as it is while an engine is
        still answering); 2 for a usage error.
        """;

    /** What the queues hold. */
    public record Summary(long commands, long answered, long duplicates, long missing, long unreadable, long trades, long volume,
                          long notional, List<String> symbolLines, List<QueueGap> damage) {
        public String resultLine() {
            return "RESULT commands=" + commands + " answered=" + answered + " duplicates=" + duplicates + " missing=" + missing
                + " trades=" + trades + " volume=" + volume + " notional=" + notional + " unreadable=" + unreadable + " damaged="
                + damage.size();
        }

        /** Every command answered exactly once, and every excerpt of both queues read and decoded. */
        public boolean clean() {
            return missing == 0 && duplicates == 0 && unreadable == 0 && damage.isEmpty() && answered == commands;
        }
    }

    private JournalSummary() {
    }

    public static void main(final String[] argv) {
        System.exit(exitCode(argv));
    }

    /** The tool without leaving the JVM: its exit code. Reads only: the queues are opened read-only, nothing is created. */
    static int exitCode(final String[] argv) {
        return Tool.exitCode("journal-summary", USAGE, () -> {
            final Args args = Args.parse(argv, "--data-dir");
            final Summary summary;
            // Archived days are read back, so that every command is counted once however many days were archived.
            try (HistoryView history = HistoryView.open(args.path("--data-dir", Path.of("data")))) {
                summary = summarize(history.data());
            }
            if (summary.unreadable() > 0) {
                System.out.println("warning: " + summary.unreadable() + " events excerpts could not be decoded");
            }
            summary.damage().forEach(gap -> System.out.println("damaged: " + gap.describe()));
            System.out.println(summary.resultLine());
            summary.symbolLines().forEach(System.out::println);
            return summary.clean() ? 0 : 1;
        });
    }

    public static Summary summarize(final DataDirectory data) {
        final LongHashSet journal = new LongHashSet();
        final List<QueueGap> damage = new ArrayList<>();
        long configurations = 0;
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            long last = -1;
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    last = dc.index();
                    journal.add(last);
                    final net.openhft.chronicle.bytes.Bytes<?> bytes = dc.wire().bytes();
                    if (ConfigRecord.is(bytes, bytes.readPosition(), bytes.readRemaining())) {
                        configurations++; // answered like a command, counted apart: the commands are the exchange's input
                    }
                }
            }
            addGap(damage, QueueGap.after(commands, last));
        }
        final EventsRead read = new EventsRead();
        final long unreadable;
        try (SingleChronicleQueue events = data.events()) {
            try (EventTail tail = new EventTail(events.createTailer())) {
                while (tail.poll(read, Integer.MAX_VALUE) > 0) {
                    // until caught up with what is there
                }
                unreadable = tail.unreadable();
                addGap(damage, QueueGap.after(events, tail.lastIndex()));
            }
        }
        final LongHashSet answered = read.answered;
        final Map<Integer, List<TreeMap<Long, Long>>> books = read.books;
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
        return new Summary(journal.size() - configurations, answered.size() - read.configurations, read.duplicates, missing, unreadable,
            read.trades, read.volume, read.notional,
            symbolLines, List.copyOf(damage));
    }

    private static void addGap(final List<QueueGap> damage, final QueueGap gap) {
        if (gap != null) {
            damage.add(gap);
        }
    }

    /** What the events say, excerpt by excerpt, through the readers' shared {@link EventTail}. */
    private static final class EventsRead implements EventTail.Handler {
        private final LongHashSet answered = new LongHashSet();
        /** symbol -> side -> price -> quantity, kept from level changes only. */
        private final Map<Integer, List<TreeMap<Long, Long>>> books = new TreeMap<>();
        private long duplicates;
        /** Answers to configuration records (distinct ones). */
        private long configurations;
        private long trades;
        private long volume;
        private long notional;

        @Override
        public void onEvent(final long eventsIndex, final EventHeader header, final Result result) {
            if (!answered.add(header.commandIndex)) {
                duplicates++;
            } else if (result.commandType == CommandType.CONFIGURATION) {
                configurations++;
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

    /** Price to quantity per side, indexed by Side's ordinal. */
    private static List<TreeMap<Long, Long>> newBook() {
        return List.of(new TreeMap<>(), new TreeMap<>());
    }
}
