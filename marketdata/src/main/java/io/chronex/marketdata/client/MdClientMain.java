package io.chronex.marketdata.client;

import io.chronex.api.Side;
import io.chronex.marketdata.FeedConfig;
import io.chronex.queues.book.Books;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.Tool;
import org.agrona.concurrent.IdleStrategy;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** bin/md-client: joins the binary market-data feed, keeps every symbol's book and prints it. */
public final class MdClientMain {
    static final String USAGE = """
        Usage: bin/md-client [--config FILE] [--symbol S] [--seconds N] [--every N] [--depth N] [--drop-rate R] [--seed N]
                            [--idle backoff|yield|busy]

        Joins the binary market-data feed (docs/marketdata.md) at any time: recovers every symbol's book from the
        snapshot channel, then keeps it from the incremental channel, detecting gaps by sequence number and
        recovering from the next snapshot cycle. Prints the book(s) every few seconds and, when it ends, one line
        per symbol:
          RESULT symbol=<name> best_bid=<px> best_ask=<px> bid_levels=<n> ask_levels=<n> bid_orders=<n>
                 ask_orders=<n> last_events_index=<hex> gaps=<n> recovered=<n>
        (prices as bin/audit book prints them, '-' for an empty side; last_events_index is the events-queue
        index the book is known to be valid at; recovered counts the join too).

          --config FILE   the feed's channels (default config/marketdata.yaml)
          --symbol S      only this symbol (default: every symbol of the feed)
          --seconds N     stop after N seconds (default: at SIGTERM or Ctrl-C)
          --every N       print the book every N seconds, 0 for never (default 5)
          --depth N       levels per side printed (default 5)
          --drop-rate R   a test hook: throw away this fraction of received incrementals, 0..1 (default 0)
          --seed N        the drop hook's random seed (default 1)
          --idle MODE     backoff (default: the loop, which also runs its media driver, wakes about once per
                          pauseMicros of the feed's configuration unless busy, to stay off a small box's CPUs),
                          yield or busy
          --help          this text

        Exits 0, or 1 when it never came into sync (no snapshot cycle reached it: is bin/marketdata running?) or was
        stopped while recovering from a gap and did not come back into sync within two snapshot cycles.
        """;

    private MdClientMain() {
    }

    public static void main(final String[] argv) {
        Tool.run("md-client", USAGE, () -> run(argv, System.out));
    }

    /** The tool's body, printing to {@code out}; returns the exit code (a failure is thrown, as {@link Tool} expects). */
    public static int run(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--config", "--symbol", "--seconds", "--every", "--depth", "--drop-rate", "--seed",
            "--idle"), Set.of(), 0);
        final String only = args.string("--symbol", null);
        final long seconds = args.number("--seconds", 0, 1, 1_000_000);
        final long every = args.number("--every", 5, 0, 3_600);
        final int depth = args.intNumber("--depth", 5, 1, 1_000);
        final double dropRate = dropRate(args.string("--drop-rate", "0"));
        final long seed = args.number("--seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        final String idleName = args.choice("--idle", "backoff", IdleStrategies.CHOICES);
        final FeedConfig config = FeedConfig.load(readable(args.path("--config", Path.of("config/marketdata.yaml"))));

        final AtomicBoolean stop = new AtomicBoolean();
        DutyCycle.onShutdownSignal("md-client-stop", () -> stop.set(true));
        final long start = System.nanoTime();
        final long end = seconds == 0 ? Long.MAX_VALUE : start + TimeUnit.SECONDS.toNanos(seconds);
        long nextPrint = every == 0 ? Long.MAX_VALUE : start + TimeUnit.SECONDS.toNanos(every);
        try (FeedClient client = new FeedClient(config, idleName, dropRate, seed)) {
            final IdleStrategy idle = client.idleStrategy();
            final FeedState state = client.state();
            out.printf("md-client %s: joining %s stream %d and %s stream %d%n", Tool.version(), config.incrementalSubscription(),
                config.incrementalStream(), config.snapshotSubscription(), config.snapshotStream());
            boolean wasSynced = false;
            while (!stop.get()) {
                idle.idle(client.poll());
                final long now = System.nanoTime();
                if (state.synced() && !wasSynced) {
                    wasSynced = true;
                    if (state.recoveries() == 1) {
                        out.printf("in sync at seq %d (events index %s)%n", state.lastSeq(), Long.toHexString(state.lastEventsIndex()));
                    }
                }
                if (now >= nextPrint) {
                    nextPrint = now + TimeUnit.SECONDS.toNanos(every);
                    print(state, only, depth, out);
                }
                if (now >= end) {
                    break;
                }
            }
            if (state.recoveries() == 0) {
                throw new Tool.Failure("never came into sync: no snapshot cycle arrived on " + config.snapshotSubscription()
                    + " stream " + config.snapshotStream() + " (is bin/marketdata running?)");
            }
            // Stopped while recovering from a gap: the books hold snapshots and not yet the incrementals after them, a mix of
            // two points. Up to two more snapshot cycles to come back into sync before the books are printed as results.
            final long settle = System.nanoTime() + 2 * config.snapshotIntervalNanos() + TimeUnit.SECONDS.toNanos(1);
            while (!state.synced() && System.nanoTime() - settle < 0) {
                idle.idle(client.poll());
            }
            if (!state.synced()) {
                throw new Tool.Failure("stopped while recovering from a gap and not back in sync within two snapshot cycles: its books"
                    + " are not valid at one point, so no RESULT is printed (gaps " + state.gaps() + ")");
            }
            if (only != null && state.symbol(only) == null) {
                throw new Tool.Failure("the feed has no symbol " + only);
            }
            for (final FeedState.SymbolState symbol : state.symbols()) {
                if (only == null || only.equals(symbol.name())) {
                    if (!symbol.complete()) {
                        out.println("note: " + symbol.name() + "'s last snapshot was cut to its best levels (a book too deep for one"
                            + " message): deeper levels may be missing below");
                    }
                    out.println(state.resultLine(symbol));
                }
            }
            out.flush();
            return 0;
        }
    }

    private static Path readable(final Path file) {
        if (!java.nio.file.Files.isReadable(file)) {
            throw new Args.UsageException("cannot read " + file + " (--config)");
        }
        return file;
    }

    private static double dropRate(final String text) {
        final double rate;
        try {
            rate = Double.parseDouble(text);
        } catch (final NumberFormatException e) {
            throw new Args.UsageException("--drop-rate needs a number from 0 to 1, not '" + text + "'");
        }
        if (!(rate >= 0 && rate <= 1)) {
            throw new Args.UsageException("--drop-rate must be from 0 to 1, not " + text);
        }
        return rate;
    }

    private static void print(final FeedState state, final String only, final int depth, final PrintStream out) {
        out.printf(Locale.ROOT, "-- seq %d, events index %s, %s, gaps %d, recovered %d%n", state.lastSeq(),
            Long.toHexString(state.lastEventsIndex()), state.synced() ? "in sync" : "recovering", state.gaps(), state.recoveries());
        for (final FeedState.SymbolState symbol : state.symbols()) {
            if (only != null && !only.equals(symbol.name())) {
                continue;
            }
            final Books.Book book = state.books().bookOrNew(symbol.id());
            out.printf(Locale.ROOT, "%s%s%n", symbol.name(), symbol.halted() ? " (halted)" : "");
            out.printf(Locale.ROOT, "%-6s %12s %12s %8s%n", "side", "price", "quantity", "orders");
            final Books.Levels asks = book.levels(Side.SELL);
            // Asks worst first down to the best, then bids best first, as bin/audit book prints them.
            for (int rank = Math.min(depth, asks.size()) - 1; rank >= 0; rank--) {
                out.printf(Locale.ROOT, "%-6s %12s %12d %8d%n", "ask", symbol.spec().formatPrice(asks.price(rank)), asks.quantity(rank),
                    asks.orders(rank));
            }
            final Books.Levels bids = book.levels(Side.BUY);
            for (int rank = 0; rank < Math.min(depth, bids.size()); rank++) {
                out.printf(Locale.ROOT, "%-6s %12s %12d %8d%n", "bid", symbol.spec().formatPrice(bids.price(rank)), bids.quantity(rank),
                    bids.orders(rank));
            }
        }
        out.flush();
    }
}
